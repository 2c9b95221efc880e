#include "engine/kv_cache.h"

#include "gguf/quant.h"
#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace lmscope::engine {

std::string_view kv_type_name(KvType type) {
    switch (type) {
    case KvType::F16: return "f16";
    case KvType::Q8_0: return "q8_0";
    case KvType::Q4_0: return "q4_0";
    }
    return "?";
}

std::optional<KvType> kv_type_from_name(std::string_view name) {
    std::string s(name);
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (KvType t : {KvType::F16, KvType::Q8_0, KvType::Q4_0})
        if (kv_type_name(t) == s) return t;
    return std::nullopt;
}

gguf::TensorType kv_storage_type(KvType type) {
    switch (type) {
    case KvType::F16: return gguf::TensorType::F16;
    case KvType::Q8_0: return gguf::TensorType::Q8_0;
    case KvType::Q4_0: return gguf::TensorType::Q4_0;
    }
    return gguf::TensorType::F16;
}

size_t KvShape::row_bytes() const { return gguf::row_bytes(kv_storage_type(type), head_dim); }

size_t KvShape::bytes_per_token_layer() const { return 2 * size_t(n_kv_head) * row_bytes(); }

size_t KvShape::bytes(int64_t n_tokens) const {
    return size_t(n_layer) * bytes_per_token_layer() * size_t(std::max<int64_t>(0, n_tokens));
}

KvCache::KvCache(KvShape shape, int32_t n_ctx) : shape_(shape), n_ctx_(n_ctx) {
    if (shape.n_layer <= 0 || shape.n_kv_head <= 0 || shape.head_dim <= 0 || n_ctx <= 0)
        throw UsageError("kv cache: layers, kv heads, head dim and context must be positive");
    const uint32_t block = gguf::traits(kv_storage_type(shape.type)).block_size;
    if (shape.head_dim % int32_t(block) != 0)
        throw UsageError("kv cache type " + std::string(kv_type_name(shape.type)) +
                         " needs a head dimension that is a multiple of " + std::to_string(block) +
                         " (this model has " + std::to_string(shape.head_dim) + ")");
    row_bytes_ = shape.row_bytes();
    k_.resize(size_t(shape.n_layer));
    v_.resize(size_t(shape.n_layer));
}

size_t KvCache::layer_bytes(int32_t layer) const {
    if (layer < 0 || layer >= shape_.n_layer) return 0;
    return shape_.bytes_per_token_layer() * size_t(n_tokens_);
}

size_t KvCache::total_bytes() const { return shape_.bytes(n_tokens_); }

size_t KvCache::allocated_bytes() const {
    size_t s = 0;
    for (size_t l = 0; l < k_.size(); ++l) s += k_[l].size() + v_[l].size();
    return s;
}

void KvCache::truncate(int32_t n) {
    if (n < 0 || n > n_tokens_)
        throw UsageError("kv cache: cannot truncate " + std::to_string(n_tokens_) +
                         " positions to " + std::to_string(n));
    n_tokens_ = n;
}

void KvCache::reserve(int32_t n) {
    if (n < 0 || n > n_ctx_)
        throw UsageError("kv cache: " + std::to_string(n) + " positions exceed the context of " +
                         std::to_string(n_ctx_));
    if (n <= reserved_) return;
    // Grow geometrically (at least 64 positions) but never past the context.
    const int32_t target = std::min(n_ctx_, std::max({n, reserved_ * 2, 64}));
    const size_t bytes = size_t(target) * size_t(shape_.n_kv_head) * row_bytes_;
    for (size_t l = 0; l < k_.size(); ++l) {
        k_[l].resize(bytes);
        v_[l].resize(bytes);
    }
    reserved_ = target;
}

void KvCache::write(int32_t layer, int32_t pos, const float* k, const float* v) {
    const gguf::TensorType st = kv_storage_type(shape_.type);
    for (int32_t h = 0; h < shape_.n_kv_head; ++h) {
        const size_t off = offset(pos, h);
        gguf::quantize_row(st, k + size_t(h) * size_t(shape_.head_dim), k_[size_t(layer)].data() + off,
                           shape_.head_dim);
        gguf::quantize_row(st, v + size_t(h) * size_t(shape_.head_dim), v_[size_t(layer)].data() + off,
                           shape_.head_dim);
    }
}

void KvCache::set_n_tokens(int32_t n) {
    if (n < 0 || n > reserved_) throw UsageError("kv cache: position count past the reserved size");
    n_tokens_ = n;
}

}  // namespace lmscope::engine
