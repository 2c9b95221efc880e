#include "engine/kv_cache.h"

#include "gguf/quant.h"
#include "kv/kv_math.h"
#include "util/error.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace lmscope::engine {

gguf::TensorType kv_storage_type(KvType type) {
    switch (type) {
    case KvType::F16: return gguf::TensorType::F16;
    case KvType::Q8_0: return gguf::TensorType::Q8_0;
    case KvType::Q4_0: return gguf::TensorType::Q4_0;
    }
    return gguf::TensorType::F16;
}

namespace {
// The shape in the formula's terms: every layer global (KvCache applies the windows itself).
kv::Shape formula_shape(const KvShape& s) {
    return {uint64_t(s.n_layer), 0, uint64_t(s.n_kv_head), uint64_t(s.head_dim)};
}
}  // namespace

size_t KvShape::row_bytes() const { return kv::row_bytes(uint64_t(head_dim), type); }

size_t KvShape::bytes_per_token_layer() const { return kv::layer_bytes_per_token(formula_shape(*this), type); }

size_t KvShape::bytes(int64_t n_tokens) const {
    return kv::cache_bytes(formula_shape(*this), type, uint64_t(std::max<int64_t>(0, n_tokens)));
}

KvCache::KvCache(KvShape shape, int32_t n_ctx, std::vector<int32_t> windows)
    : shape_(shape), n_ctx_(n_ctx), windows_(std::move(windows)) {
    if (shape.n_layer <= 0 || shape.n_kv_head <= 0 || shape.head_dim <= 0 || n_ctx <= 0)
        throw UsageError("kv cache: layers, kv heads, head dim and context must be positive");
    const uint32_t block = gguf::traits(kv_storage_type(shape.type)).block_size;
    if (shape.head_dim % int32_t(block) != 0)
        throw UsageError("kv cache type " + std::string(kv_type_name(shape.type)) +
                         " needs a head dimension that is a multiple of " + std::to_string(block) +
                         " (this model has " + std::to_string(shape.head_dim) + ")");
    if (windows_.empty()) windows_.assign(size_t(shape.n_layer), 0);
    if (windows_.size() != size_t(shape.n_layer) ||
        std::any_of(windows_.begin(), windows_.end(), [](int32_t w) { return w < 0; }))
        throw UsageError("kv cache: one window (0 or positive) per layer");
    row_bytes_ = shape.row_bytes();
    capacity_.assign(size_t(shape.n_layer), 0);
    first_.assign(size_t(shape.n_layer), 0);
    k_.resize(size_t(shape.n_layer));
    v_.resize(size_t(shape.n_layer));
}

size_t KvCache::layer_bytes(int32_t layer) const {
    if (layer < 0 || layer >= shape_.n_layer) return 0;
    const int32_t w = windows_[size_t(layer)];
    return shape_.bytes_per_token_layer() * size_t(w > 0 ? std::min(n_tokens_, w) : n_tokens_);
}

size_t KvCache::total_bytes() const {
    size_t s = 0;
    for (int32_t l = 0; l < shape_.n_layer; ++l) s += layer_bytes(l);
    return s;
}

size_t KvCache::allocated_bytes() const {
    size_t s = 0;
    for (size_t l = 0; l < k_.size(); ++l) s += k_[l].size() + v_[l].size();
    return s;
}

bool KvCache::resumable(int32_t n) const {
    for (size_t l = 0; l < windows_.size(); ++l)
        if (windows_[l] > 0 && first_[l] > std::max(0, n - windows_[l] + 1)) return false;
    return true;
}

void KvCache::truncate(int32_t n) {
    if (n < 0 || n > n_tokens_)
        throw UsageError("kv cache: cannot truncate " + std::to_string(n_tokens_) +
                         " positions to " + std::to_string(n));
    if (!resumable(n)) {  // a ring overwrote the window before n: start over
        n = 0;
        std::fill(first_.begin(), first_.end(), 0);
    }
    n_tokens_ = n;
}

void KvCache::relayout(int32_t layer, int32_t capacity) {
    const size_t l = size_t(layer);
    const int32_t first = std::max(first_[l], n_tokens_ - capacity);  // the newest held positions that fit
    std::vector<uint8_t> k(size_t(shape_.n_kv_head) * size_t(capacity) * row_bytes_), v(k.size());  // [kv_head][slot][row]
    for (int32_t h = 0; h < shape_.n_kv_head; ++h)
        for (int32_t p = first; p < n_tokens_; ++p) {
            const size_t from = offset(layer, p, h), to = (size_t(h) * size_t(capacity) + size_t(p % capacity)) * row_bytes_;
            std::memcpy(k.data() + to, k_[l].data() + from, row_bytes_);
            std::memcpy(v.data() + to, v_[l].data() + from, row_bytes_);
        }
    k_[l] = std::move(k);
    v_[l] = std::move(v);
    capacity_[l] = capacity;
    first_[l] = std::min(first, n_tokens_);
}

void KvCache::reserve(int32_t pos0, int32_t n) {
    if (pos0 != n_tokens_ || n < 0 || pos0 + n > n_ctx_)
        throw UsageError("kv cache: cannot make room for positions " + std::to_string(pos0) + " .. " +
                         std::to_string(pos0 + n) + " (holding " + std::to_string(n_tokens_) +
                         ", context " + std::to_string(n_ctx_) + ")");
    const int32_t end = pos0 + n;
    for (size_t l = 0; l < windows_.size(); ++l) {
        const int32_t cap = capacity_[l], w = windows_[l];
        // Grow geometrically (at least 64 positions), never past the context; a local layer no
        // further than its window, its slack and the step's rows.
        int32_t target = end <= cap ? cap : std::min(n_ctx_, std::max({end, cap * 2, 64}));
        // (in 64 bits: a window may be as wide as int32 allows)
        if (w > 0) target = int32_t(std::min<int64_t>(target, std::max(int64_t(w) + kRewindSlack, int64_t(w) - 1 + n)));
        if (target > cap) relayout(int32_t(l), target);
        // the step overwrites the slots of the positions capacity before its rows
        first_[l] = std::max(first_[l], end - capacity_[l]);
    }
    step_end_ = end;
}

void KvCache::write(int32_t layer, int32_t pos, const float* k, const float* v, ToF16 to_f16) {
    const gguf::TensorType st = kv_storage_type(shape_.type);
    for (int32_t h = 0; h < shape_.n_kv_head; ++h) {
        const size_t off = offset(layer, pos, h);
        if (to_f16 && shape_.type == KvType::F16) {
            to_f16(k + size_t(h) * size_t(shape_.head_dim), reinterpret_cast<uint16_t*>(k_[size_t(layer)].data() + off), shape_.head_dim);
            to_f16(v + size_t(h) * size_t(shape_.head_dim), reinterpret_cast<uint16_t*>(v_[size_t(layer)].data() + off), shape_.head_dim);
            continue;
        }
        gguf::quantize_row(st, k + size_t(h) * size_t(shape_.head_dim), k_[size_t(layer)].data() + off,
                           shape_.head_dim);
        gguf::quantize_row(st, v + size_t(h) * size_t(shape_.head_dim), v_[size_t(layer)].data() + off,
                           shape_.head_dim);
    }
}

void KvCache::set_n_tokens(int32_t n) {
    if (n < n_tokens_ || n > step_end_) throw UsageError("kv cache: position count outside the reserved step");
    n_tokens_ = n;
    for (size_t l = 0; l < windows_.size(); ++l) {
        const int64_t keep = int64_t(windows_[l]) + kRewindSlack;
        if (windows_[l] > 0 && capacity_[l] > keep) relayout(int32_t(l), int32_t(keep));
    }
}

}  // namespace lmscope::engine
