// The CPU backend's key/value cache: per layer, K and V of the positions held, stored as f16
// (default), q8_0 or q4_0 (GGUF block layouts, quantized with gguf::quantize_row), with exact
// byte accounting and truncation (rewind, branching, prefix reuse).
//
// A global layer keeps every position. A local (sliding-window) layer of window W only ever
// reads the last W positions, so it keeps them in a ring: position p lives in slot p % capacity,
// the capacity is W + kRewindSlack between steps (the slack lets short rewinds resume) and grows
// for a step of n rows to W - 1 + n (its first row still sees its window while the last is
// written). Its bytes held are min(n_tokens, W) positions: the cache totals
//   2 x kv_heads x row bytes x (sum over global layers of n + sum over local layers of min(n, W)).
// A rewind further back than a ring still holds forgets every position (the caller feeds them
// again).
#pragma once

#include "gguf/tensor_type.h"
#include "util/types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lmscope::engine {

gguf::TensorType kv_storage_type(KvType type);  // F16, Q8_0, Q4_0

// Geometry of a cache. Its bytes are the KV formula's (kv/kv_math.h), exact: one head's K (or
// V) row for one position takes kv::row_bytes(head_dim, type) bytes (f16: 2 per value; q8_0:
// 34 per 32 values; q4_0: 18 per 32 values), so f16 gives the textbook 2 x layers x kv_heads x
// head_dim x tokens x 2 bytes. The shape must be valid (KvCache checks it).
struct KvShape {
    int32_t n_layer = 0;
    int32_t n_kv_head = 0;
    int32_t head_dim = 0;
    KvType type = KvType::F16;

    size_t row_bytes() const;               // one head, one position, K or V
    size_t bytes_per_token_layer() const;   // K + V of all kv heads, one layer, one position
    size_t bytes(int64_t n_tokens) const;   // K + V, all layers kept whole, n_tokens positions
};

class KvCache {
public:
    // Positions a local layer keeps beyond its window between steps, so that rewinding up to
    // this many tokens resumes without feeding the sequence again.
    static constexpr int32_t kRewindSlack = 64;

    // windows: [n_layer] 0 = a global layer, W > 0 = a local layer seeing its last W positions;
    // empty = every layer global. Throws UsageError when the type cannot store rows of head_dim
    // values (q8_0 / q4_0 need head_dim to be a multiple of 32), a dimension is not positive or
    // the windows do not match the layers.
    KvCache(KvShape shape, int32_t n_ctx, std::vector<int32_t> windows = {});

    const KvShape& shape() const { return shape_; }
    int32_t n_ctx() const { return n_ctx_; }
    int32_t n_tokens() const { return n_tokens_; }  // positions 0 .. n_tokens-1 fed
    int32_t window(int32_t layer) const { return windows_[size_t(layer)]; }
    int32_t capacity(int32_t layer) const { return capacity_[size_t(layer)]; }  // positions allocated

    size_t layer_bytes(int32_t layer) const;  // one layer's K and V held: n_tokens(), or min(n_tokens(), W)
    size_t total_bytes() const;               // all layers
    size_t allocated_bytes() const;           // storage reserved (grows geometrically)

    // Whether truncate(n) keeps n positions: every local layer still holds the window before n.
    bool resumable(int32_t n) const;
    // Forgets every position >= n (n <= n_tokens()); forgets them all when !resumable(n).
    void truncate(int32_t n);

    // ---- backend side ----
    // Makes room to write positions [pos0, pos0 + n) (pos0 == n_tokens(), pos0 + n <= n_ctx())
    // while each of those rows still sees its window; the held count is unchanged.
    void reserve(int32_t pos0, int32_t n);
    // Stores K and V of one layer at one position of the reserved step.
    //   k, v: [n_kv_head][head_dim] float
    // to_f16: how an f16 cache converts them (a vectorised kernel with gguf's round-to-nearest-
    // even bits, kernels.h f32_to_f16); null: gguf::quantize_row.
    using ToF16 = void (*)(const float* src, uint16_t* dst, int64_t n);
    void write(int32_t layer, int32_t pos, const float* k, const float* v, ToF16 to_f16 = nullptr);
    // Marks positions [0, n) as fed (after every layer has written them); local layers give back
    // the room a long step took.
    void set_n_tokens(int32_t n);

    // Stored rows (storage type layout), [head_dim] values each, of a position the layer holds.
    const uint8_t* k_row(int32_t layer, int32_t pos, int32_t kv_head) const {
        return k_[size_t(layer)].data() + offset(layer, pos, kv_head);
    }
    const uint8_t* v_row(int32_t layer, int32_t pos, int32_t kv_head) const {
        return v_[size_t(layer)].data() + offset(layer, pos, kv_head);
    }
    // How many positions from pos on lie in consecutive slots (a kv head's rows are row bytes
    // apart: each head's K, and V, of a layer is one run) before the layer's ring wraps.
    int32_t contiguous(int32_t layer, int32_t pos) const {
        return capacity_[size_t(layer)] - pos % capacity_[size_t(layer)];
    }

private:
    size_t offset(int32_t layer, int32_t pos, int32_t kv_head) const {
        const int32_t cap = capacity_[size_t(layer)];
        return (size_t(kv_head) * size_t(cap) + size_t(pos % cap)) * row_bytes_;
    }
    // Re-lays the layer out in `capacity` slots, keeping the newest of its held positions.
    void relayout(int32_t layer, int32_t capacity);

    KvShape shape_;
    int32_t n_ctx_ = 0;
    int32_t n_tokens_ = 0;
    int32_t step_end_ = 0;           // positions [n_tokens, step_end) reserved for the step
    size_t row_bytes_ = 0;
    std::vector<int32_t> windows_;   // [layer] 0 = global, W = local
    std::vector<int32_t> capacity_;  // [layer] slots allocated (0 until the first reserve)
    std::vector<int32_t> first_;     // [layer] oldest position still stored (0 on global layers)
    std::vector<std::vector<uint8_t>> k_;  // [layer] -> [kv_head][slot][row_bytes]
    std::vector<std::vector<uint8_t>> v_;  // [layer] -> [kv_head][slot][row_bytes]
};

}  // namespace lmscope::engine
