// Metadata values: type names, loose numeric views, display strings; TensorInfo::shape_string.
#include "gguf/gguf.h"

#include "util/error.h"

#include <cstdio>
#include <limits>
#include <type_traits>

namespace lmscope::gguf {

std::string_view value_type_name(ValueType t) {
    switch (t) {
        case ValueType::UINT8: return "uint8";
        case ValueType::INT8: return "int8";
        case ValueType::UINT16: return "uint16";
        case ValueType::INT16: return "int16";
        case ValueType::UINT32: return "uint32";
        case ValueType::INT32: return "int32";
        case ValueType::FLOAT32: return "float32";
        case ValueType::BOOL: return "bool";
        case ValueType::STRING: return "string";
        case ValueType::ARRAY: return "array";
        case ValueType::UINT64: return "uint64";
        case ValueType::INT64: return "int64";
        case ValueType::FLOAT64: return "float64";
    }
    return "unknown";
}

namespace {

// The ValueType of a scalar: the variant's alternatives are listed in ValueType order,
// except that ARRAY (9) has no alternative, so indices 9.. map to UINT64.. .
ValueType scalar_type(const Value::Scalar& s) {
    const size_t i = s.index();
    return static_cast<ValueType>(i < 9 ? i : i + 1);
}

std::string type_desc(const Value& v) {
    if (v.is_array())
        return "array of " + std::string(value_type_name(v.as_array().elem_type));
    return std::string(value_type_name(v.type()));
}

std::string wrong_type(const Value& v, const char* expected) {
    return "is " + type_desc(v) + ", expected " + expected;
}

std::string display_scalar(const Value::Scalar& s) {
    return std::visit(
        [](const auto& x) -> std::string {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::string>) {
                std::string out = "\"";
                const size_t max_chars = 80;
                for (size_t i = 0; i < x.size() && i < max_chars; ++i) {
                    const char c = x[i];
                    if (c == '\n') out += "\\n";
                    else if (c == '"') out += "\\\"";
                    else if (static_cast<unsigned char>(c) < 0x20) out += '?';
                    else out += c;
                }
                if (x.size() > max_chars) out += "...";
                return out + "\"";
            } else if constexpr (std::is_same_v<T, bool>) {
                return x ? "true" : "false";
            } else if constexpr (std::is_floating_point_v<T>) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(x));
                return buf;
            } else {
                return std::to_string(x);
            }
        },
        s);
}

}  // namespace

ValueType Value::type() const {
    if (is_array()) return ValueType::ARRAY;
    return scalar_type(std::get<Scalar>(data_));
}

const Value::Array& Value::as_array() const {
    if (!is_array()) throw Error(wrong_type(*this, "an array"));
    return std::get<Array>(data_);
}

const Value::Scalar& Value::as_scalar() const {
    if (is_array()) throw Error(wrong_type(*this, "a single value"));
    return std::get<Scalar>(data_);
}

namespace {

// An integer scalar, widened: signed types in `s`, unsigned types in `u`.
struct WideInt {
    bool is_signed = false;
    int64_t s = 0;
    uint64_t u = 0;
};

std::optional<WideInt> wide_int(const Value::Scalar& sc) {
    return std::visit(
        [](const auto& x) -> std::optional<WideInt> {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string> ||
                          std::is_floating_point_v<T>) {
                return std::nullopt;
            } else if constexpr (std::is_signed_v<T>) {
                return WideInt{true, static_cast<int64_t>(x), 0};
            } else {
                return WideInt{false, 0, static_cast<uint64_t>(x)};
            }
        },
        sc);
}

}  // namespace

std::optional<uint64_t> Value::to_uint() const {
    const auto w = is_array() ? std::nullopt : wide_int(as_scalar());
    if (!w) throw Error(wrong_type(*this, "an integer"));
    if (!w->is_signed) return w->u;
    if (w->s < 0) return std::nullopt;
    return static_cast<uint64_t>(w->s);
}

std::optional<int64_t> Value::to_int() const {
    const auto w = is_array() ? std::nullopt : wide_int(as_scalar());
    if (!w) throw Error(wrong_type(*this, "an integer"));
    if (w->is_signed) return w->s;
    if (w->u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(w->u);
}

std::optional<double> Value::to_double() const {
    if (is_array()) throw Error(wrong_type(*this, "a number"));
    const Scalar& sc = as_scalar();
    if (const float* f = std::get_if<float>(&sc)) return static_cast<double>(*f);
    if (const double* d = std::get_if<double>(&sc)) return *d;
    const auto w = wide_int(sc);
    if (!w) throw Error(wrong_type(*this, "a number"));
    return w->is_signed ? static_cast<double>(w->s) : static_cast<double>(w->u);
}

std::string Value::to_display(size_t max_items) const {
    if (!is_array()) return display_scalar(as_scalar());
    const Array& a = std::get<Array>(data_);
    std::string out = "[";
    for (size_t i = 0; i < a.items.size() && i < max_items; ++i) {
        if (i) out += ", ";
        out += display_scalar(a.items[i]);
    }
    if (a.items.size() > max_items)
        out += ", ... (" + std::to_string(a.items.size()) + " " +
               std::string(value_type_name(a.elem_type)) + " items)";
    return out + "]";
}

std::string TensorInfo::shape_string() const {
    std::string out = "[";
    for (uint32_t d = 0; d < n_dims && d < ne.size(); ++d) {
        if (d) out += ", ";
        out += std::to_string(ne[d]);
    }
    return out + "]";
}

}  // namespace lmscope::gguf
