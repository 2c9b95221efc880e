// KV cache arithmetic: how many bytes the keys and values of a model take, for any shape,
// context, batch and storage type, and what a memory budget or a device window means for it.
//
//   bytes = 2 (K and V) x kv_heads x head_dim x bytes_per_element x batch
//           x (sum over global layers of tokens + sum over local layers of min(tokens, window))
//
// A local (sliding-window) layer attends only to the last `window` positions, so a cache that
// keeps just those (a ring per layer, as lmscope's engine does) holds min(tokens, window) of
// them; without local layers this is the textbook 2 x layers x kv_heads x head_dim x tokens.
//
// with the real per-element cost of each storage type: f16 2 bytes; q8_0 34 bytes per block of
// 32 values (1.0625); q4_0 18 bytes per block of 32 (0.5625). Blocks run along one head's
// head_dim values (the engine's layout), so the quantized types need head_dim % 32 == 0.
// Every product is overflow-checked (UsageError), so hostile sizes cannot wrap around.
#pragma once

#include "util/types.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace lmscope::kv {

// A storage block: `bytes` hold `values` values (f16: 2 bytes per 1 value).
struct BlockFormat {
    uint32_t bytes = 0;
    uint32_t values = 0;
};
BlockFormat block_format(KvType type);
double bytes_per_element(KvType type);  // 2, 1.0625, 0.5625

// The attention shape that sizes a KV cache.
struct Shape {
    uint64_t n_layer = 0;
    uint64_t n_head = 0;     // query heads; 0 when unknown (an explicit KV-only shape)
    uint64_t n_head_kv = 0;
    uint64_t head_dim = 0;
    uint64_t n_local = 0;    // of the n_layer layers, those attending through a sliding window
    uint64_t window = 0;     // their window W in tokens (0 when n_local is 0)

    uint64_t n_global() const { return n_layer - n_local; }
};

enum class AttentionKind : uint8_t { MHA, GQA, MQA };
std::string_view attention_kind_name(AttentionKind kind);  // "MHA", "GQA", "MQA"
// MHA when kv heads == query heads, MQA when 1 kv head (and more query heads), GQA otherwise.
// Needs n_head (UsageError when 0).
AttentionKind attention_kind(const Shape& shape);

// Throws UsageError naming the problem: a zero dimension, more kv heads than query heads,
// query heads not a multiple of kv heads, head_dim not a multiple of the block for q8_0/q4_0,
// more local layers than layers, local layers without a window or a window without them.
void validate(const Shape& shape, KvType type);

// One head's K (or V) row for one position, in bytes.
uint64_t row_bytes(uint64_t head_dim, KvType type);
// K and V of one layer for one position.
uint64_t layer_bytes_per_token(const Shape& shape, KvType type);
// K and V of every layer for one token of one sequence: what a token costs while it is inside
// every window (past a local window only the global layers keep adding to the cache).
uint64_t bytes_per_token(const Shape& shape, KvType type);
// Layer-positions a cache of `tokens` holds: global layers x tokens + local layers x
// min(tokens, window).
uint64_t positions_held(const Shape& shape, uint64_t tokens);
// The whole cache: tokens x batch sequences. UsageError on overflow.
uint64_t cache_bytes(const Shape& shape, KvType type, uint64_t tokens, uint64_t batch = 1);
// Weights of n_params values stored in `type`'s block format (for the "weights" memory line).
uint64_t weights_bytes(uint64_t n_params, KvType type);

// The same shape with MHA, GQA and MQA attention (kv heads = query heads, a grouped count, 1).
// GQA keeps the shape's own kv heads when it is grouped, else takes the largest divisor of the
// query heads that is at most a quarter of them (none when no such divisor > 1 exists).
struct Variant {
    AttentionKind kind = AttentionKind::MHA;
    Shape shape;
};
std::vector<Variant> attention_variants(const Shape& shape);  // needs n_head

// How many tokens (per sequence, `batch` sequences) fit in device memory after the weights;
// 0 when the weights alone do not fit; kAnyLength when every layer is local and the windows
// fit (the cache stops growing at the window).
constexpr uint64_t kAnyLength = ~uint64_t(0);
uint64_t tokens_that_fit(const Shape& shape, KvType type, uint64_t batch,
                         uint64_t device_bytes, uint64_t weights_bytes);

// Offload with a window: the most recent `window` tokens' KV stay on the device, older ones
// live in host memory. At a context of `context` tokens, per decode step:
//   evicted  = one token's KV (x batch) moves device -> host as it leaves the window
//              (0 while context <= window; only the layers that still keep it);
//   streamed = the host part is read by the device to attend over the whole context
//              (the host bytes, every step).
// With local layers the bytes are cache_bytes differences: the device keeps what a cache of
// min(context, window) tokens holds, the host the rest of what a cache of context holds.
struct OffloadPlan {
    uint64_t context = 0;
    uint64_t window = 0;           // as asked (may exceed the context)
    uint64_t device_tokens = 0;    // min(context, window)
    uint64_t host_tokens = 0;      // context - device_tokens
    uint64_t device_bytes = 0;
    uint64_t host_bytes = 0;
    uint64_t evicted_bytes_per_step = 0;
    uint64_t streamed_bytes_per_step = 0;
    uint64_t moved_bytes_per_step() const { return evicted_bytes_per_step + streamed_bytes_per_step; }
};
OffloadPlan plan_offload(const Shape& shape, KvType type, uint64_t batch, uint64_t context,
                         uint64_t window);

}  // namespace lmscope::kv
