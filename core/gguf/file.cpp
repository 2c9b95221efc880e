// File's lookups: metadata by key with typed getters, tensors by name.
#include "gguf/gguf.h"

#include "util/error.h"

namespace lmscope::gguf {

namespace {

std::string type_desc(const Value& v) {
    if (v.is_array())
        return "array of " + std::string(value_type_name(v.as_array().elem_type));
    return std::string(value_type_name(v.type()));
}

}  // namespace

const Value* File::find(std::string_view key) const {
    for (const auto& [k, v] : kv_)
        if (k == key) return &v;
    return nullptr;
}

const TensorInfo* File::find_tensor(std::string_view name) const {
    for (const TensorInfo& t : tensors_)
        if (t.name == name) return &t;
    return nullptr;
}

const TensorInfo& File::tensor(std::string_view name) const {
    const TensorInfo* t = find_tensor(name);
    if (!t) throw FormatError(path_, "tensor '" + std::string(name) + "'", "missing tensor");
    return *t;
}

std::optional<uint64_t> File::opt_uint(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    std::optional<uint64_t> u;
    try {
        u = v->to_uint();
    } catch (const Error& e) {
        throw FormatError(path_, std::string(key), e.what());
    }
    if (!u)
        throw FormatError(path_, std::string(key), "value " + v->to_display() + " is negative, expected an unsigned integer");
    return u;
}

std::optional<int64_t> File::opt_int(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    std::optional<int64_t> i;
    try {
        i = v->to_int();
    } catch (const Error& e) {
        throw FormatError(path_, std::string(key), e.what());
    }
    if (!i) throw FormatError(path_, std::string(key), "value " + v->to_display() + " does not fit in int64");
    return i;
}

std::optional<double> File::opt_float(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    try {
        return v->to_double();
    } catch (const Error& e) {
        throw FormatError(path_, std::string(key), e.what());
    }
}

std::optional<bool> File::opt_bool(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    const bool* b = v->is_array() ? nullptr : std::get_if<bool>(&v->as_scalar());
    if (!b) throw FormatError(path_, std::string(key), "is " + type_desc(*v) + ", expected bool");
    return *b;
}

std::optional<std::string> File::opt_string(std::string_view key) const {
    const Value* v = find(key);
    if (!v) return std::nullopt;
    const std::string* s = v->is_array() ? nullptr : std::get_if<std::string>(&v->as_scalar());
    if (!s) throw FormatError(path_, std::string(key), "is " + type_desc(*v) + ", expected string");
    return *s;
}

uint64_t File::get_uint(std::string_view key) const {
    const auto v = opt_uint(key);
    if (!v) throw FormatError(path_, std::string(key), "missing");
    return *v;
}

int64_t File::get_int(std::string_view key) const {
    const auto v = opt_int(key);
    if (!v) throw FormatError(path_, std::string(key), "missing");
    return *v;
}

double File::get_float(std::string_view key) const {
    const auto v = opt_float(key);
    if (!v) throw FormatError(path_, std::string(key), "missing");
    return *v;
}

bool File::get_bool(std::string_view key) const {
    const auto v = opt_bool(key);
    if (!v) throw FormatError(path_, std::string(key), "missing");
    return *v;
}

const std::string& File::get_string(std::string_view key) const {
    const Value* v = find(key);
    if (!v) throw FormatError(path_, std::string(key), "missing");
    const std::string* s = v->is_array() ? nullptr : std::get_if<std::string>(&v->as_scalar());
    if (!s) throw FormatError(path_, std::string(key), "is " + type_desc(*v) + ", expected string");
    return *s;
}

namespace {

const Value::Array& array_of(const File& f, std::string_view key, const char* expected) {
    const Value* v = f.find(key);
    if (!v) throw FormatError(f.path(), std::string(key), "missing");
    if (!v->is_array())
        throw FormatError(f.path(), std::string(key), "is " + type_desc(*v) + ", expected " + expected);
    return v->as_array();
}

bool is_int_type(ValueType t) {
    switch (t) {
        case ValueType::UINT8: case ValueType::INT8: case ValueType::UINT16: case ValueType::INT16:
        case ValueType::UINT32: case ValueType::INT32: case ValueType::UINT64: case ValueType::INT64:
            return true;
        default:
            return false;
    }
}

}  // namespace

size_t File::array_size(std::string_view key) const { return array_of(*this, key, "an array").items.size(); }

std::vector<std::string> File::get_string_array(std::string_view key) const {
    const Value::Array& a = array_of(*this, key, "array of string");
    if (a.elem_type != ValueType::STRING)
        throw FormatError(path_, std::string(key),
                          "is array of " + std::string(value_type_name(a.elem_type)) + ", expected array of string");
    std::vector<std::string> out;
    out.reserve(a.items.size());
    for (const auto& s : a.items) out.push_back(std::get<std::string>(s));
    return out;
}

std::vector<float> File::get_float_array(std::string_view key) const {
    const Value::Array& a = array_of(*this, key, "array of float32");
    if (a.elem_type != ValueType::FLOAT32 && a.elem_type != ValueType::FLOAT64)
        throw FormatError(path_, std::string(key),
                          "is array of " + std::string(value_type_name(a.elem_type)) + ", expected array of float32");
    std::vector<float> out;
    out.reserve(a.items.size());
    for (const auto& s : a.items) {
        if (const float* f = std::get_if<float>(&s)) out.push_back(*f);
        else out.push_back(static_cast<float>(std::get<double>(s)));
    }
    return out;
}

std::vector<int64_t> File::get_int_array(std::string_view key) const {
    const Value::Array& a = array_of(*this, key, "array of integers");
    if (!is_int_type(a.elem_type))
        throw FormatError(path_, std::string(key),
                          "is array of " + std::string(value_type_name(a.elem_type)) + ", expected array of integers");
    std::vector<int64_t> out;
    out.reserve(a.items.size());
    for (size_t i = 0; i < a.items.size(); ++i) {
        const auto v = Value(a.items[i]).to_int();
        if (!v)
            throw FormatError(path_, std::string(key) + "[" + std::to_string(i) + "]", "value does not fit in int64");
        out.push_back(*v);
    }
    return out;
}

}  // namespace lmscope::gguf
