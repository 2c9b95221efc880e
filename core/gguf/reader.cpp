// GGUF parsing and validation. Everything is read through a bounded cursor that checks each
// read against the bytes left, and the result is built in locals and moved into the File only
// when the whole file has been validated.
//
// Counts and lengths: n_kv, n_tensors and array counts are capped by Limits, and so is the
// memory all metadata takes together (charged before an array is read); every item is
// read through the cursor, so a count larger than the file is reported precisely at the first
// item that does not fit ("metadata[7].key.length: truncated ..."); vectors are reserved only
// for as many items as the remaining bytes could hold, so a lying count cannot allocate. String
// lengths are checked against their cap and the bytes left before anything is copied.
//
// Tensor data offsets must increase in the order the tensor infos are listed (every GGUF
// writer lays data out in that order, and ggml requires it too); with that rule, checking each
// tensor against the previous one is enough to rule out overlaps.
#include "gguf/gguf.h"

#include "util/error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <unordered_set>
#include <utility>

namespace lmscope::gguf {

namespace {

constexpr uint32_t kMaxDims = 4;
constexpr uint32_t kDefaultAlignment = 32;
constexpr uint64_t kMinKvBytes = 8 + 1 + 4 + 1;          // key length, 1-byte key, type, 1-byte value
constexpr uint64_t kMinTensorBytes = 8 + 1 + 4 + 8 + 4 + 8;  // name length, name, n_dims, ne[0], type, offset

std::string quoted(std::string_view s) {
    std::string out = "'";
    for (char c : s) out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
    return out + "'";
}

bool checked_mul(uint64_t a, uint64_t b, uint64_t& out) { return !__builtin_mul_overflow(a, b, &out); }
bool checked_add(uint64_t a, uint64_t b, uint64_t& out) { return !__builtin_add_overflow(a, b, &out); }

// Reads little-endian values from [data, data + size), never past the end.
class Cursor {
public:
    Cursor(const uint8_t* data, uint64_t size, const std::string& file)
        : data_(data), size_(size), file_(file) {}

    uint64_t pos() const { return pos_; }
    uint64_t left() const { return size_ - pos_; }

    [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
        throw FormatError(file_, field, reason);
    }

    void need(uint64_t n, const std::string& field) const {
        if (n > left())
            fail(field, "truncated: needs " + std::to_string(n) + " bytes at offset " +
                            std::to_string(pos_) + ", the file has " + std::to_string(left()) +
                            " left");
    }

    template <typename T>
    T read(const std::string& field) {
        need(sizeof(T), field);
        T v;
        std::memcpy(&v, data_ + pos_, sizeof(T));  // little-endian host (x86-64, aarch64)
        pos_ += sizeof(T);
        return v;
    }

    std::string read_string(const std::string& field, uint64_t max_len) {
        const uint64_t n = read<uint64_t>(field + ".length");
        if (n > max_len)
            fail(field, "length " + std::to_string(n) + " exceeds the limit of " +
                            std::to_string(max_len) + " bytes");
        need(n, field);
        std::string s(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(n));
        pos_ += n;
        return s;
    }

private:
    const uint8_t* data_;
    uint64_t size_;
    uint64_t pos_ = 0;
    const std::string& file_;
};

// Bytes of one element of a fixed-size type, 0 for STRING/ARRAY.
uint64_t fixed_size(ValueType t) {
    switch (t) {
        case ValueType::UINT8: case ValueType::INT8: case ValueType::BOOL: return 1;
        case ValueType::UINT16: case ValueType::INT16: return 2;
        case ValueType::UINT32: case ValueType::INT32: case ValueType::FLOAT32: return 4;
        case ValueType::UINT64: case ValueType::INT64: case ValueType::FLOAT64: return 8;
        case ValueType::STRING: case ValueType::ARRAY: return 0;
    }
    return 0;
}

ValueType read_type(Cursor& cur, const std::string& field) {
    const uint32_t t = cur.read<uint32_t>(field);
    if (t > static_cast<uint32_t>(ValueType::FLOAT64))
        cur.fail(field, "unknown value type " + std::to_string(t) + " (known: 0..12)");
    return static_cast<ValueType>(t);
}

Value::Scalar read_scalar(Cursor& cur, ValueType t, const std::string& field, const Limits& lim) {
    switch (t) {
        case ValueType::UINT8: return cur.read<uint8_t>(field);
        case ValueType::INT8: return cur.read<int8_t>(field);
        case ValueType::UINT16: return cur.read<uint16_t>(field);
        case ValueType::INT16: return cur.read<int16_t>(field);
        case ValueType::UINT32: return cur.read<uint32_t>(field);
        case ValueType::INT32: return cur.read<int32_t>(field);
        case ValueType::FLOAT32: return cur.read<float>(field);
        case ValueType::BOOL: {
            const uint8_t b = cur.read<uint8_t>(field);
            if (b > 1) cur.fail(field, "bool value " + std::to_string(b) + " is neither 0 nor 1");
            return b == 1;
        }
        case ValueType::STRING: return cur.read_string(field, lim.max_string_len);
        case ValueType::UINT64: return cur.read<uint64_t>(field);
        case ValueType::INT64: return cur.read<int64_t>(field);
        case ValueType::FLOAT64: return cur.read<double>(field);
        case ValueType::ARRAY: break;
    }
    cur.fail(field, "nested arrays are not supported");
}

// Takes `bytes` of memory from what the metadata may still use (Limits::max_metadata_bytes).
void spend(Cursor& cur, const std::string& field, uint64_t bytes, uint64_t& budget, const Limits& lim) {
    if (bytes > budget)
        cur.fail(field, "the metadata would take more than " + std::to_string(lim.max_metadata_bytes) +
                            " bytes of memory (the limit for all keys together)");
    budget -= bytes;
}

// `budget`: the memory the metadata may still take, charged before an array is read.
Value read_value(Cursor& cur, ValueType t, const std::string& field, const Limits& lim, uint64_t& budget) {
    if (t != ValueType::ARRAY) {
        Value v(read_scalar(cur, t, field, lim));
        const auto* s = std::get_if<std::string>(&v.as_scalar());
        spend(cur, field, sizeof(Value) + (s ? s->size() : 0), budget, lim);
        return v;
    }
    const ValueType elem = read_type(cur, field + ".element_type");
    if (elem == ValueType::ARRAY) cur.fail(field + ".element_type", "nested arrays are not supported");
    const uint64_t n = cur.read<uint64_t>(field + ".count");
    if (n > lim.max_array_len)
        cur.fail(field + ".count", "array of " + std::to_string(n) + " elements exceeds the limit of " +
                                       std::to_string(lim.max_array_len));
    spend(cur, field, sizeof(Value) + n * sizeof(Value::Scalar), budget, lim);
    Value::Array arr;
    arr.elem_type = elem;
    // Every element takes at least its fixed size (a string at least its 8-byte length).
    const uint64_t min_elem = elem == ValueType::STRING ? 8 : fixed_size(elem);
    arr.items.reserve(static_cast<size_t>(std::min(n, cur.left() / min_elem)));
    for (uint64_t i = 0; i < n; ++i) {
        arr.items.push_back(read_scalar(cur, elem, field + "[" + std::to_string(i) + "]", lim));
        if (const auto* s = std::get_if<std::string>(&arr.items.back())) spend(cur, field, s->size(), budget, lim);
    }
    return Value(std::move(arr));
}

uint64_t read_alignment(const std::vector<std::pair<std::string, Value>>& kv, const std::string& file) {
    for (const auto& [key, value] : kv) {
        if (key != "general.alignment") continue;
        const std::string field = "metadata 'general.alignment'";
        const auto* v = value.is_array() ? nullptr : std::get_if<uint32_t>(&value.as_scalar());
        if (!v)
            throw FormatError(file, field, "is " + std::string(value_type_name(value.type())) +
                                               ", expected uint32");
        if (*v == 0 || (*v & (*v - 1)) != 0)
            throw FormatError(file, field, "alignment " + std::to_string(*v) + " is not a power of two");
        return *v;
    }
    return kDefaultAlignment;
}

TensorInfo read_tensor_info(Cursor& cur, uint64_t index, const Limits& lim,
                            std::unordered_set<std::string>& names) {
    TensorInfo t;
    const std::string at = "tensor[" + std::to_string(index) + "]";
    t.name = cur.read_string(at + ".name", lim.max_name_len);
    if (t.name.empty()) cur.fail(at + ".name", "empty tensor name");
    const std::string field = "tensor " + quoted(t.name);
    if (!names.insert(t.name).second) cur.fail(field + ".name", "duplicate tensor name");

    t.n_dims = cur.read<uint32_t>(field + ".n_dims");
    if (t.n_dims < 1 || t.n_dims > kMaxDims)
        cur.fail(field + ".n_dims", std::to_string(t.n_dims) + " dimensions, expected 1 to " +
                                        std::to_string(kMaxDims));
    uint64_t n_elements = 1;
    for (uint32_t d = 0; d < t.n_dims; ++d) {
        const std::string dim_field = field + ".ne[" + std::to_string(d) + "]";
        const uint64_t raw = cur.read<uint64_t>(dim_field);
        if (raw > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            cur.fail(dim_field, "dimension " + std::to_string(static_cast<int64_t>(raw)) + " is negative");
        if (!checked_mul(n_elements, raw, n_elements) ||
            n_elements > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            cur.fail(dim_field, "element count overflows (dimension " + std::to_string(raw) + ")");
        t.ne[d] = static_cast<int64_t>(raw);
    }

    const uint32_t type_id = cur.read<uint32_t>(field + ".type");
    const auto traits = type_traits(type_id);
    if (!traits) cur.fail(field + ".type", "unknown tensor type id " + std::to_string(type_id));
    t.type = static_cast<TensorType>(type_id);
    if (static_cast<uint64_t>(t.ne[0]) % traits->block_size != 0)
        cur.fail(field + ".ne[0]", "row length " + std::to_string(t.ne[0]) +
                                       " is not a multiple of the block size " +
                                       std::to_string(traits->block_size) + " of " +
                                       std::string(traits->name));
    const uint64_t blocks = n_elements / traits->block_size;
    if (!checked_mul(blocks, traits->type_size, t.n_bytes))
        cur.fail(field, "byte size overflows (" + std::to_string(n_elements) + " elements of " +
                            std::string(traits->name) + ")");
    t.offset = cur.read<uint64_t>(field + ".offset");
    return t;
}

// Offsets: aligned, increasing in listing order, non-overlapping, inside the data section.
void check_tensor_layout(std::vector<TensorInfo>& tensors, uint64_t alignment, uint64_t data_size,
                         const std::string& file) {
    const TensorInfo* prev = nullptr;
    uint64_t prev_end = 0;
    for (TensorInfo& t : tensors) {
        const std::string field = "tensor " + quoted(t.name) + ".offset";
        if (t.offset % alignment != 0)
            throw FormatError(file, field, "offset " + std::to_string(t.offset) +
                                               " is not a multiple of the alignment " +
                                               std::to_string(alignment));
        if (prev && t.offset < prev->offset)
            throw FormatError(file, field, "offset " + std::to_string(t.offset) +
                                               " is below the offset " + std::to_string(prev->offset) +
                                               " of the previous tensor " + quoted(prev->name) +
                                               " (offsets must increase in file order)");
        if (prev && t.offset < prev_end)
            throw FormatError(file, field, "data at offset " + std::to_string(t.offset) +
                                               " overlaps tensor " + quoted(prev->name) +
                                               " (bytes " + std::to_string(prev->offset) + " to " +
                                               std::to_string(prev_end) + ")");
        uint64_t end = 0;
        if (!checked_add(t.offset, t.n_bytes, end) || end > data_size)
            throw FormatError(file, "tensor " + quoted(t.name) + ".data",
                              std::to_string(t.n_bytes) + " bytes at offset " + std::to_string(t.offset) +
                                  " extend past the end of the file (the data section holds " +
                                  std::to_string(data_size) + " bytes)");
        prev = &t;
        prev_end = end;
    }
}

}  // namespace

File File::open(const std::string& path, const Limits& limits) {
    auto map = std::make_shared<MappedFile>(path);
    File f;
    f.map_ = map;
    f.path_ = path;
    f.base_ = map->data();
    f.size_ = map->size();
    f.parse(limits);
    return f;
}

File File::from_memory(const uint8_t* data, size_t size, std::string name, const Limits& limits) {
    File f;
    f.path_ = std::move(name);
    f.base_ = data;
    f.size_ = size;
    f.parse(limits);
    return f;
}

void File::parse(const Limits& lim) {
    Cursor cur(base_, size_, path_);

    // ---- header
    cur.need(4, "header.magic");
    const uint8_t* magic = base_;
    if (std::memcmp(magic, "GGUF", 4) != 0) {
        std::string shown;
        for (int i = 0; i < 4; ++i) {
            const char c = static_cast<char>(magic[i]);
            shown += (c >= 0x20 && c < 0x7f) ? c : '?';
        }
        cur.fail("header.magic", "not a GGUF file (magic \"" + shown + "\", expected \"GGUF\")");
    }
    cur.read<uint32_t>("header.magic");
    const uint32_t version = cur.read<uint32_t>("header.version");
    if (version == 1)
        cur.fail("header.version", "version 1 is not supported (an early GGUF draft; convert the file to version 3)");
    if (version != 2 && version != 3) {
        if (version != 0 && (version & 0xffffu) == 0 && __builtin_bswap32(version) <= 3)
            cur.fail("header.version", "byte-swapped (big-endian) GGUF is not supported (version reads as " +
                                           std::to_string(version) + ")");
        cur.fail("header.version", "unsupported version " + std::to_string(version) + " (expected 2 or 3)");
    }
    const uint64_t n_tensors = cur.read<uint64_t>("header.n_tensors");
    const uint64_t n_kv = cur.read<uint64_t>("header.n_kv");
    if (n_tensors > lim.max_tensors)
        cur.fail("header.n_tensors", std::to_string(n_tensors) + " tensors exceed the limit of " +
                                         std::to_string(lim.max_tensors));
    if (n_kv > lim.max_kv)
        cur.fail("header.n_kv", std::to_string(n_kv) + " metadata pairs exceed the limit of " +
                                    std::to_string(lim.max_kv));

    // ---- metadata
    std::vector<std::pair<std::string, Value>> kv;
    kv.reserve(static_cast<size_t>(std::min(n_kv, cur.left() / kMinKvBytes)));
    std::unordered_set<std::string> keys;
    uint64_t budget = lim.max_metadata_bytes;
    for (uint64_t i = 0; i < n_kv; ++i) {
        const std::string at = "metadata[" + std::to_string(i) + "]";
        std::string key = cur.read_string(at + ".key", lim.max_string_len);
        if (key.empty()) cur.fail(at + ".key", "empty key");
        const std::string field = at + " " + quoted(key);
        if (!keys.insert(key).second) cur.fail(field + ".key", "duplicate key");
        const ValueType t = read_type(cur, field + ".type");
        spend(cur, field + ".key", key.size(), budget, lim);
        Value v = read_value(cur, t, field + ".value", lim, budget);
        kv.emplace_back(std::move(key), std::move(v));
    }
    const uint64_t alignment = read_alignment(kv, path_);

    // ---- tensor infos
    std::vector<TensorInfo> tensors;
    tensors.reserve(static_cast<size_t>(std::min(n_tensors, cur.left() / kMinTensorBytes)));
    std::unordered_set<std::string> names;
    for (uint64_t i = 0; i < n_tensors; ++i) tensors.push_back(read_tensor_info(cur, i, lim, names));

    // ---- data section: starts at the next multiple of the alignment
    uint64_t data_offset = 0;
    const uint64_t pad = (alignment - cur.pos() % alignment) % alignment;
    if (!checked_add(cur.pos(), pad, data_offset) || data_offset > size_) {
        if (!tensors.empty())
            cur.fail("data", "truncated: the data section starts at offset " + std::to_string(data_offset) +
                                 ", the file has " + std::to_string(size_) + " bytes");
        data_offset = size_;  // a file without tensors may end right after its metadata
    }
    check_tensor_layout(tensors, alignment, size_ - data_offset, path_);
    for (TensorInfo& t : tensors) t.data = base_ + data_offset + t.offset;

    version_ = version;
    alignment_ = alignment;
    data_offset_ = data_offset;
    kv_ = std::move(kv);
    tensors_ = std::move(tensors);
}

}  // namespace lmscope::gguf
