// The CPU backend's key/value cache: per layer, K and V of every position held, stored as
// f16 (default), q8_0 or q4_0 (GGUF block layouts, quantized with gguf::quantize_row), with
// exact byte accounting and truncation to any position (rewind, branching, prefix reuse).
#pragma once

#include "gguf/tensor_type.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace lmscope::engine {

enum class KvType : uint8_t { F16, Q8_0, Q4_0 };

std::string_view kv_type_name(KvType type);                    // "f16", "q8_0", "q4_0"
std::optional<KvType> kv_type_from_name(std::string_view name); // case-insensitive
gguf::TensorType kv_storage_type(KvType type);                  // F16, Q8_0, Q4_0

// Geometry of a cache. Bytes are exact: one head's K (or V) row for one position takes
// gguf::row_bytes(storage type, head_dim) bytes (f16: 2 per value; q8_0: 34 per 32 values;
// q4_0: 18 per 32 values), so f16 gives the textbook 2 x layers x kv_heads x head_dim x
// tokens x 2 bytes.
struct KvShape {
    int32_t n_layer = 0;
    int32_t n_kv_head = 0;
    int32_t head_dim = 0;
    KvType type = KvType::F16;

    size_t row_bytes() const;               // one head, one position, K or V
    size_t bytes_per_token_layer() const;   // K + V of all kv heads, one layer, one position
    size_t bytes(int64_t n_tokens) const;   // K + V, all layers, n_tokens positions
};

class KvCache {
public:
    // Throws UsageError when the type cannot store rows of head_dim values (q8_0 / q4_0 need
    // head_dim to be a multiple of 32) or a dimension is not positive.
    KvCache(KvShape shape, int32_t n_ctx);

    const KvShape& shape() const { return shape_; }
    int32_t n_ctx() const { return n_ctx_; }
    int32_t n_tokens() const { return n_tokens_; }  // positions held: 0 .. n_tokens-1

    size_t layer_bytes(int32_t layer) const;  // bytes of one layer's K and V for n_tokens()
    size_t total_bytes() const;               // all layers, n_tokens()
    size_t allocated_bytes() const;           // storage reserved (grows geometrically)

    // Forgets every position >= n (n <= n_tokens()).
    void truncate(int32_t n);

    // ---- backend side ----
    // Makes room for positions [0, n) (n <= n_ctx()); the held count is unchanged.
    void reserve(int32_t n);
    // Stores K and V of one layer at one position < reserved size.
    //   k, v: [n_kv_head][head_dim] float
    void write(int32_t layer, int32_t pos, const float* k, const float* v);
    // Marks positions [0, n) as held (after every layer has written them).
    void set_n_tokens(int32_t n);

    // Stored rows (storage type layout), [head_dim] values each.
    const uint8_t* k_row(int32_t layer, int32_t pos, int32_t kv_head) const {
        return k_[size_t(layer)].data() + offset(pos, kv_head);
    }
    const uint8_t* v_row(int32_t layer, int32_t pos, int32_t kv_head) const {
        return v_[size_t(layer)].data() + offset(pos, kv_head);
    }

private:
    size_t offset(int32_t pos, int32_t kv_head) const {
        return (size_t(pos) * size_t(shape_.n_kv_head) + size_t(kv_head)) * row_bytes_;
    }

    KvShape shape_;
    int32_t n_ctx_ = 0;
    int32_t n_tokens_ = 0;
    int32_t reserved_ = 0;
    size_t row_bytes_ = 0;
    std::vector<std::vector<uint8_t>> k_;  // [layer] -> [pos][kv_head][row_bytes]
    std::vector<std::vector<uint8_t>> v_;  // [layer] -> [pos][kv_head][row_bytes]
};

}  // namespace lmscope::engine
