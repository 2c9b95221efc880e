// GGUF writer (version 3): header, metadata, tensor infos, padding to the alignment, data
// (each tensor padded to the alignment). write() streams the same bytes through a SafeWriter
// (atomic: a temporary file in the same folder, flushed, then renamed over the target).
#include "gguf/gguf.h"

#include "util/error.h"
#include "util/safe_writer.h"

#include <cstring>

namespace lmscope::gguf {

namespace {

constexpr uint32_t kVersion = 3;

class Bytes {
public:
    template <typename T>
    void put(T v) {
        const size_t at = out_.size();
        out_.resize(at + sizeof(T));
        std::memcpy(out_.data() + at, &v, sizeof(T));  // little-endian host
    }
    void put_string(const std::string& s) {
        put<uint64_t>(s.size());
        out_.insert(out_.end(), s.begin(), s.end());
    }
    void put_raw(const std::vector<uint8_t>& b) { out_.insert(out_.end(), b.begin(), b.end()); }
    void pad_to(uint64_t alignment) { out_.resize((out_.size() + alignment - 1) / alignment * alignment, 0); }
    size_t size() const { return out_.size(); }
    std::vector<uint8_t> take() { return std::move(out_); }

private:
    std::vector<uint8_t> out_;
};

void put_scalar(Bytes& b, const Value::Scalar& s) {
    std::visit(
        [&b](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::string>) b.put_string(x);
            else if constexpr (std::is_same_v<T, bool>) b.put<uint8_t>(x ? 1 : 0);
            else b.put<T>(x);
        },
        s);
}

void put_value(Bytes& b, const std::string& key, const Value& v) {
    b.put<uint32_t>(static_cast<uint32_t>(v.type()));
    if (!v.is_array()) {
        put_scalar(b, v.as_scalar());
        return;
    }
    const Value::Array& a = v.as_array();
    if (a.elem_type == ValueType::ARRAY) throw UsageError("gguf writer: " + key + ": nested arrays are not supported");
    b.put<uint32_t>(static_cast<uint32_t>(a.elem_type));
    b.put<uint64_t>(a.items.size());
    for (const auto& item : a.items) {
        if (Value(item).type() != a.elem_type)
            throw UsageError("gguf writer: " + key + ": array item of type " +
                             std::string(value_type_name(Value(item).type())) + " in an array of " +
                             std::string(value_type_name(a.elem_type)));
        put_scalar(b, item);
    }
}

uint64_t padded(uint64_t n, uint64_t alignment) { return (n + alignment - 1) / alignment * alignment; }

}  // namespace

void Writer::set(std::string key, Value value) {
    if (key.empty()) throw UsageError("gguf writer: empty metadata key");
    for (auto& [k, v] : kv_) {
        if (k == key) {
            v = std::move(value);
            return;
        }
    }
    kv_.emplace_back(std::move(key), std::move(value));
}

void Writer::set_alignment(uint32_t alignment) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        throw UsageError("gguf writer: alignment " + std::to_string(alignment) + " is not a power of two");
    alignment_ = alignment;
    set("general.alignment", Value(Value::Scalar(alignment)));
}

void Writer::add_tensor(std::string name, TensorType type, std::vector<int64_t> ne, const void* data,
                        size_t n_bytes) {
    const auto* p = static_cast<const uint8_t*>(data);
    add_tensor(std::move(name), type, std::move(ne), std::vector<uint8_t>(p, p + n_bytes));
}

void Writer::add_tensor(std::string name, TensorType type, std::vector<int64_t> ne, std::vector<uint8_t> data) {
    const size_t n_bytes = data.size();
    const std::string what = "gguf writer: tensor '" + name + "': ";
    if (name.empty()) throw UsageError("gguf writer: empty tensor name");
    for (const auto& t : tensors_)
        if (t.name == name) throw UsageError(what + "duplicate name");
    if (ne.empty() || ne.size() > 4) throw UsageError(what + "needs 1 to 4 dimensions");
    int64_t rows = 1;
    for (size_t d = 0; d < ne.size(); ++d) {
        if (ne[d] < 0) throw UsageError(what + "negative dimension");
        if (d > 0 && __builtin_mul_overflow(rows, ne[d], &rows)) throw UsageError(what + "size overflows");
    }
    const auto known = type_traits(static_cast<uint32_t>(type));
    if (!known) throw UsageError(what + "unknown tensor type id " + std::to_string(static_cast<uint32_t>(type)));
    const TypeTraits tr = *known;
    if (ne[0] % tr.block_size != 0)
        throw UsageError(what + "row length " + std::to_string(ne[0]) + " is not a multiple of the block size " +
                         std::to_string(tr.block_size));
    uint64_t expected = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(row_bytes(type, ne[0])), static_cast<uint64_t>(rows), &expected))
        throw UsageError(what + "size overflows");
    if (expected != n_bytes)
        throw UsageError(what + "got " + std::to_string(n_bytes) + " bytes, the shape needs " + std::to_string(expected));
    tensors_.push_back({std::move(name), type, std::move(ne), std::move(data)});
}

std::vector<uint8_t> Writer::header_bytes() const {
    Bytes b;
    b.put<uint32_t>(0x46554747u);  // "GGUF"
    b.put<uint32_t>(kVersion);
    b.put<uint64_t>(tensors_.size());
    b.put<uint64_t>(kv_.size());
    for (const auto& [key, value] : kv_) {
        b.put_string(key);
        put_value(b, key, value);
    }
    uint64_t offset = 0;
    for (const auto& t : tensors_) {
        b.put_string(t.name);
        b.put<uint32_t>(static_cast<uint32_t>(t.ne.size()));
        for (int64_t d : t.ne) b.put<uint64_t>(static_cast<uint64_t>(d));
        b.put<uint32_t>(static_cast<uint32_t>(t.type));
        b.put<uint64_t>(offset);
        offset += padded(t.data.size(), alignment_);
    }
    b.pad_to(alignment_);
    return b.take();
}

template <class Sink>
void Writer::stream_to(Sink&& sink) const {
    const std::vector<uint8_t> header = header_bytes();
    sink(header.data(), header.size());
    const std::vector<uint8_t> zeros(alignment_, 0);
    for (const auto& t : tensors_) {
        sink(t.data.data(), t.data.size());
        sink(zeros.data(), padded(t.data.size(), alignment_) - t.data.size());
    }
}

std::vector<uint8_t> Writer::to_bytes() const {
    std::vector<uint8_t> out;
    stream_to([&out](const uint8_t* p, size_t n) { out.insert(out.end(), p, p + n); });
    return out;
}

void Writer::write(const std::string& path, const std::vector<std::string>& inputs) const {
    SafeWriter w(path, inputs);
    stream_to([&w](const uint8_t* p, size_t n) {
        if (n > 0) w.write(p, n);
    });
    w.commit();
}

}  // namespace lmscope::gguf
