// Builds GGUF bytes by hand, field by field, so tests can write files that no honest writer
// would produce (wrong counts, bad types, misplaced offsets) and know where each field lies.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lmscope::testing {

using Bytes = std::vector<uint8_t>;

// Little-endian appends.
inline void put_u8(Bytes& b, uint8_t v) { b.push_back(v); }
inline void put_u32(Bytes& b, uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void put_u64(Bytes& b, uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void put_str(Bytes& b, const std::string& s) {
    put_u64(b, s.size());
    b.insert(b.end(), s.begin(), s.end());
}
inline void put_bytes(Bytes& b, const Bytes& more) { b.insert(b.end(), more.begin(), more.end()); }

// GGUF value type ids.
enum : uint32_t { T_U8 = 0, T_I8 = 1, T_U16 = 2, T_I16 = 3, T_U32 = 4, T_I32 = 5, T_F32 = 6, T_BOOL = 7,
                  T_STR = 8, T_ARR = 9, T_U64 = 10, T_I64 = 11, T_F64 = 12 };

// One metadata pair: key, type id, then the value's bytes as given.
inline Bytes kv_raw(const std::string& key, uint32_t type, const Bytes& payload) {
    Bytes b;
    put_str(b, key);
    put_u32(b, type);
    put_bytes(b, payload);
    return b;
}
inline Bytes kv_str(const std::string& key, const std::string& value) {
    Bytes p;
    put_str(p, value);
    return kv_raw(key, T_STR, p);
}
inline Bytes kv_u32(const std::string& key, uint32_t value) {
    Bytes p;
    put_u32(p, value);
    return kv_raw(key, T_U32, p);
}
// An array of u32 values.
inline Bytes kv_u32_array(const std::string& key, const std::vector<uint32_t>& values) {
    Bytes p;
    put_u32(p, T_U32);
    put_u64(p, values.size());
    for (uint32_t v : values) put_u32(p, v);
    return kv_raw(key, T_ARR, p);
}

// One tensor info: name, n_dims = dims.size(), dims, type id, offset.
inline Bytes tensor_info(const std::string& name, const std::vector<uint64_t>& dims, uint32_t type,
                         uint64_t offset) {
    Bytes b;
    put_str(b, name);
    put_u32(b, static_cast<uint32_t>(dims.size()));
    for (uint64_t d : dims) put_u64(b, d);
    put_u32(b, type);
    put_u64(b, offset);
    return b;
}

// A whole file. Counts default to the number of pairs / infos given.
struct RawGguf {
    std::string magic = "GGUF";
    uint32_t version = 3;
    std::vector<Bytes> kv;
    std::vector<Bytes> tensors;
    int64_t n_kv = -1;       // -1: kv.size()
    int64_t n_tensors = -1;  // -1: tensors.size()
    uint64_t alignment = 32;
    Bytes data;              // the data section, after padding

    Bytes header() const {
        Bytes b(magic.begin(), magic.end());
        put_u32(b, version);
        put_u64(b, n_tensors < 0 ? tensors.size() : static_cast<uint64_t>(n_tensors));
        put_u64(b, n_kv < 0 ? kv.size() : static_cast<uint64_t>(n_kv));
        return b;
    }
    // The file up to the end of the tensor infos (no padding).
    Bytes head() const {
        Bytes b = header();
        for (const Bytes& p : kv) put_bytes(b, p);
        for (const Bytes& t : tensors) put_bytes(b, t);
        return b;
    }
    Bytes bytes() const {
        Bytes b = head();
        b.resize((b.size() + alignment - 1) / alignment * alignment, 0);
        put_bytes(b, data);
        return b;
    }
};

}  // namespace lmscope::testing
