#include "kv/kv_math.h"

#include "util/error.h"

#include <algorithm>
#include <string>

namespace lmscope::kv {

namespace {

uint64_t checked_mul(uint64_t a, uint64_t b, const char* what) {
    uint64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
        throw UsageError(std::string("kv: ") + what + " overflows 64 bits");
    return r;
}

uint64_t checked_add(uint64_t a, uint64_t b, const char* what) {
    uint64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        throw UsageError(std::string("kv: ") + what + " overflows 64 bits");
    return r;
}

}  // namespace

BlockFormat block_format(KvType type) {
    switch (type) {
        case KvType::F16: return {2, 1};
        case KvType::Q8_0: return {34, 32};  // f16 scale + 32 int8
        case KvType::Q4_0: return {18, 32};  // f16 scale + 32 packed 4-bit values
    }
    return {0, 1};
}

double bytes_per_element(KvType type) {
    const BlockFormat b = block_format(type);
    return double(b.bytes) / double(b.values);
}

std::string_view attention_kind_name(AttentionKind kind) {
    switch (kind) {
        case AttentionKind::MHA: return "MHA";
        case AttentionKind::GQA: return "GQA";
        case AttentionKind::MQA: return "MQA";
    }
    return "?";
}

AttentionKind attention_kind(const Shape& shape) {
    if (shape.n_head == 0) throw UsageError("kv: the attention kind needs the query head count");
    if (shape.n_head_kv == shape.n_head) return AttentionKind::MHA;
    if (shape.n_head_kv == 1) return AttentionKind::MQA;
    return AttentionKind::GQA;
}

void validate(const Shape& s, KvType type) {
    if (s.n_layer == 0) throw UsageError("kv: the layer count must be positive");
    if (s.n_head_kv == 0) throw UsageError("kv: the kv head count must be positive");
    if (s.head_dim == 0) throw UsageError("kv: the head dimension must be positive");
    if (s.n_head != 0) {
        if (s.n_head_kv > s.n_head)
            throw UsageError("kv: " + std::to_string(s.n_head_kv) + " kv heads exceed " +
                             std::to_string(s.n_head) + " query heads");
        if (s.n_head % s.n_head_kv != 0)
            throw UsageError("kv: " + std::to_string(s.n_head) +
                             " query heads are not a multiple of " + std::to_string(s.n_head_kv) +
                             " kv heads");
    }
    const BlockFormat b = block_format(type);
    if (s.head_dim % b.values != 0)
        throw UsageError("kv: " + std::string(kv_type_name(type)) + " stores blocks of " +
                         std::to_string(b.values) + " values, head dimension " +
                         std::to_string(s.head_dim) + " is not a multiple");
    if (s.n_local > s.n_layer)
        throw UsageError("kv: " + std::to_string(s.n_local) + " local (sliding-window) layers exceed " +
                         std::to_string(s.n_layer) + " layers");
    if ((s.n_local > 0) != (s.window > 0))
        throw UsageError(s.n_local > 0 ? "kv: local (sliding-window) layers need a window of at least 1 token"
                                       : "kv: a sliding window needs local layers to apply to");
}

uint64_t row_bytes(uint64_t head_dim, KvType type) {
    const BlockFormat b = block_format(type);
    if (head_dim % b.values != 0)
        throw UsageError("kv: head dimension " + std::to_string(head_dim) + " is not a multiple of " +
                         std::to_string(b.values) + " (" + std::string(kv_type_name(type)) + ")");
    return checked_mul(head_dim / b.values, b.bytes, "row size");
}

uint64_t layer_bytes_per_token(const Shape& s, KvType type) {
    validate(s, type);
    return checked_mul(checked_mul(2, s.n_head_kv, "bytes per token"), row_bytes(s.head_dim, type), "bytes per token");
}

uint64_t bytes_per_token(const Shape& s, KvType type) {
    return checked_mul(layer_bytes_per_token(s, type), s.n_layer, "bytes per token");
}

uint64_t positions_held(const Shape& s, uint64_t tokens) {
    const uint64_t global = checked_mul(s.n_global(), tokens, "cache size");
    return checked_add(global, checked_mul(s.n_local, std::min(tokens, s.window), "cache size"), "cache size");
}

uint64_t cache_bytes(const Shape& s, KvType type, uint64_t tokens, uint64_t batch) {
    const uint64_t per_position = layer_bytes_per_token(s, type);
    return checked_mul(checked_mul(per_position, positions_held(s, tokens), "cache size"), batch, "cache size");
}

uint64_t weights_bytes(uint64_t n_params, KvType type) {
    const BlockFormat b = block_format(type);
    const uint64_t blocks = n_params / b.values + (n_params % b.values != 0 ? 1 : 0);
    return checked_mul(blocks, b.bytes, "weights size");
}

std::vector<Variant> attention_variants(const Shape& s) {
    if (s.n_head == 0) throw UsageError("kv: attention variants need the query head count");
    std::vector<Variant> out;
    Shape mha = s;
    mha.n_head_kv = s.n_head;
    out.push_back({AttentionKind::MHA, mha});
    uint64_t grouped = 0;
    if (attention_kind(s) == AttentionKind::GQA) {
        grouped = s.n_head_kv;
    } else {
        for (uint64_t d = s.n_head / 4; d > 1; --d)
            if (s.n_head % d == 0) {
                grouped = d;
                break;
            }
    }
    if (grouped > 1) {
        Shape gqa = s;
        gqa.n_head_kv = grouped;
        out.push_back({AttentionKind::GQA, gqa});
    }
    if (s.n_head > 1) {
        Shape mqa = s;
        mqa.n_head_kv = 1;
        out.push_back({AttentionKind::MQA, mqa});
    }
    return out;
}

uint64_t tokens_that_fit(const Shape& s, KvType type, uint64_t batch, uint64_t device_bytes,
                         uint64_t weights) {
    if (batch == 0) throw UsageError("kv: the batch must be positive");
    const uint64_t per_position = checked_mul(layer_bytes_per_token(s, type), batch, "bytes per token");
    if (weights >= device_bytes) return 0;
    const uint64_t positions = (device_bytes - weights) / per_position;  // layer-positions that fit
    // Inside the window every layer grows by one position a token, past it only the global ones.
    const uint64_t within = positions / s.n_layer;
    if (s.n_local == 0 || within < s.window) return within;
    const uint64_t windows = s.n_local * s.window;  // <= positions here: no overflow
    if (s.n_global() == 0) return kAnyLength;
    return (positions - windows) / s.n_global();
}

OffloadPlan plan_offload(const Shape& s, KvType type, uint64_t batch, uint64_t context,
                         uint64_t window) {
    if (batch == 0) throw UsageError("kv: the batch must be positive");
    OffloadPlan p;
    p.context = context;
    p.window = window;
    p.device_tokens = std::min(context, window);
    p.host_tokens = context - p.device_tokens;
    p.device_bytes = cache_bytes(s, type, p.device_tokens, batch);
    p.host_bytes = cache_bytes(s, type, context, batch) - p.device_bytes;
    // the token leaving the device window: every layer that still keeps it moves its row
    p.evicted_bytes_per_step =
        p.host_tokens > 0 ? cache_bytes(s, type, p.device_tokens + 1, batch) - p.device_bytes : 0;
    p.streamed_bytes_per_step = p.host_bytes;
    checked_add(p.evicted_bytes_per_step, p.streamed_bytes_per_step, "bytes moved per step");
    return p;
}

}  // namespace lmscope::kv
