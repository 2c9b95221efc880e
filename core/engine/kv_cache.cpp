#include "engine/kv_cache.h"

#include "engine/kv_offload_file.h"
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

KvCache::KvCache(KvShape shape, int32_t n_ctx, std::vector<int32_t> windows, uint64_t resident_budget)
    : shape_(shape), n_ctx_(n_ctx), windows_(std::move(windows)) {
    if (shape.n_layer <= 0 || shape.n_kv_head <= 0 || shape.head_dim <= 0 || n_ctx <= 0)
        throw UsageError("kv cache: layers, kv heads, head dim and context must be positive");
    const gguf::TypeTraits storage = gguf::traits(kv_storage_type(shape.type));
    if (shape.head_dim % int32_t(storage.block_size) != 0)
        throw UsageError("kv cache type " + std::string(kv_type_name(shape.type)) +
                         " needs a head dimension that is a multiple of " + std::to_string(storage.block_size) +
                         " (this model has " + std::to_string(shape.head_dim) + ")");
    if (windows_.empty()) windows_.assign(size_t(shape.n_layer), 0);
    if (windows_.size() != size_t(shape.n_layer) ||
        std::any_of(windows_.begin(), windows_.end(), [](int32_t w) { return w < 0; }))
        throw UsageError("kv cache: one window (0 or positive) per layer");
    // the storage's own row: whole blocks of the type along one head's values
    row_bytes_ = size_t(storage.type_size) * size_t(shape.head_dim / int32_t(storage.block_size));
    page_bytes_ = 2 * size_t(shape.n_kv_head) * kPage * row_bytes_;
    const size_t L = size_t(shape.n_layer);
    capacity_.assign(L, 0);
    first_.assign(L, 0);
    rows_.assign(L, 0);
    held_from_.assign(L, 0);
    step_rows_ = std::make_unique<std::atomic<int64_t>[]>(L);
    k_.resize(L);
    v_.resize(L);
    pages_.resize(L);
    offloaded_.assign(L, 0);
    global_index_.assign(L, -1);
    const int32_t max_pages = (n_ctx + kPage - 1) / kPage;
    int32_t n_global = 0;
    uint64_t local_bytes = 0;  // the local layers' rings at their largest between steps
    for (size_t l = 0; l < L; ++l) {
        if (windows_[l] > 0) {
            local_bytes += 2 * uint64_t(shape.n_kv_head) * row_bytes_ *
                           uint64_t(std::min<int64_t>(n_ctx, int64_t(windows_[l]) + kRewindSlack));
            continue;
        }
        global_index_[l] = n_global++;
        pages_[l].resize(size_t(max_pages));
    }
    if (resident_budget == 0 || n_global == 0) return;
    const uint64_t for_global = resident_budget > local_bytes ? resident_budget - local_bytes : 0;
    const uint64_t keep = std::max<uint64_t>(1, for_global / (uint64_t(n_global) * page_bytes_));
    if (keep >= uint64_t(max_pages)) return;  // the whole context fits the budget
    keep_pages_ = int32_t(keep);
    file_ = std::make_unique<KvOffloadFile>(uint64_t(n_global) * uint64_t(max_pages) * page_bytes_);
}

KvCache::~KvCache() = default;

int32_t KvCache::capacity(int32_t layer) const {
    const size_t l = size_t(layer);
    if (windows_[l] > 0) return capacity_[l];
    return int32_t(kPage * std::count_if(pages_[l].begin(), pages_[l].end(), [](const Bytes& p) { return !p.empty(); }));
}

int64_t KvCache::rows(int32_t layer) const {
    return layer < 0 || layer >= shape_.n_layer ? 0 : rows_[size_t(layer)];
}

size_t KvCache::layer_bytes(int32_t layer) const {
    return size_t(rows(layer)) * 2 * size_t(shape_.n_kv_head) * row_bytes_;
}

size_t KvCache::total_bytes() const {
    size_t s = 0;
    for (int32_t l = 0; l < shape_.n_layer; ++l) s += layer_bytes(l);
    return s;
}

size_t KvCache::resident_bytes() const {
    size_t s = 0;
    for (size_t l = 0; l < windows_.size(); ++l) {
        s += k_[l].size() + v_[l].size();
        for (const Bytes& p : pages_[l]) s += p.size();
    }
    return s;
}

size_t KvCache::offloaded_bytes() const {
    size_t s = 0;
    for (size_t l = 0; l < windows_.size(); ++l)
        if (windows_[l] == 0)
            s += size_t(std::min<int64_t>(rows_[l], int64_t(offloaded_[l]) * kPage)) * 2 * size_t(shape_.n_kv_head) * row_bytes_;
    return s;
}

size_t KvCache::staging_bytes() const { return staging_.size(); }

size_t KvCache::allocated_bytes() const { return resident_bytes() + staging_bytes(); }

uint64_t KvCache::file_offset(size_t layer, int32_t page) const {
    const uint64_t max_pages = uint64_t(pages_[layer].size());
    return (uint64_t(global_index_[layer]) * max_pages + uint64_t(page)) * page_bytes_;
}

bool KvCache::resumable(int32_t n) const {
    for (size_t l = 0; l < windows_.size(); ++l)
        if (windows_[l] > 0 && first_[l] > std::max(0, n - windows_[l] + 1)) return false;
    return true;
}

void KvCache::count_window(size_t l) {
    const int32_t from = std::max(first_[l], n_tokens_ - windows_[l]);
    rows_[l] += held_from_[l] - from;  // positions that came back into the window, or (negative) left it
    held_from_[l] = from;
}

void KvCache::truncate(int32_t n) {
    if (n < 0 || n > n_tokens_)
        throw UsageError("kv cache: cannot truncate " + std::to_string(n_tokens_) +
                         " positions to " + std::to_string(n));
    if (!resumable(n)) {  // a ring overwrote the window before n: start over
        n = 0;
        std::fill(first_.begin(), first_.end(), 0);
    }
    for (size_t l = 0; l < windows_.size(); ++l) {
        step_rows_[l] = 0;  // a step that did not finish
        rows_[l] -= std::max(0, n_tokens_ - std::max(n, held_from_[l]));  // the held positions >= n
        held_from_[l] = std::min(held_from_[l], n);
        if (windows_[l] > 0) continue;
        // pages from n on leave memory; the file's past them are forgotten (a page holding
        // positions before n stays there until reserve() reads it back)
        const int32_t end_page = (n + kPage - 1) / kPage;
        for (size_t p = size_t(end_page); p < pages_[l].size(); ++p) Bytes().swap(pages_[l][p]);
        offloaded_[l] = std::min(offloaded_[l], end_page);
    }
    const int32_t old = n_tokens_;
    n_tokens_ = n;
    for (size_t l = 0; l < windows_.size(); ++l)
        if (windows_[l] > 0 && n < old) count_window(l);  // positions of the slack back in the window
}

void KvCache::relayout(int32_t layer, int32_t capacity) {
    const size_t l = size_t(layer);
    const int32_t first = std::max(first_[l], n_tokens_ - capacity);  // the newest held positions that fit
    Bytes k(size_t(shape_.n_kv_head) * size_t(capacity) * row_bytes_), v(k.size());  // [kv_head][slot][row]
    for (int32_t h = 0; h < shape_.n_kv_head; ++h)
        for (int32_t p = first; p < n_tokens_; ++p) {
            const size_t from = ring_offset(layer, p, h), to = (size_t(h) * size_t(capacity) + size_t(p % capacity)) * row_bytes_;
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
        step_rows_[l] = 0;
        if (windows_[l] == 0) {
            // the page of pos0 back from the file when a truncation left it there half full
            const int32_t first_page = pos0 / kPage;
            if (first_page < offloaded_[l]) {
                Bytes page(page_bytes_);
                file_->read(file_offset(l, first_page), page.data(), page_bytes_);
                moved_ += page_bytes_;
                pages_[l][size_t(first_page)] = std::move(page);
                offloaded_[l] = first_page;
            }
            continue;  // the step's pages: open_layer()
        }
        const int32_t cap = capacity_[l], w = windows_[l];
        // Grow geometrically (at least 64 positions), never past the context, no further than
        // the window, its slack and the step's rows.
        int32_t target = end <= cap ? cap : std::min(n_ctx_, std::max({end, cap * 2, 64}));
        // (in 64 bits: a window may be as wide as int32 allows)
        target = int32_t(std::min<int64_t>(target, std::max(int64_t(w) + kRewindSlack, int64_t(w) - 1 + n)));
        if (target > cap) relayout(int32_t(l), target);
        // the step overwrites the slots of the positions capacity before its rows
        first_[l] = std::max(first_[l], end - capacity_[l]);
    }
    step_end_ = end;
}

void KvCache::open_layer(int32_t layer) {
    const size_t l = size_t(layer);
    if (windows_[l] > 0) return;
    for (int32_t p = n_tokens_ / kPage; p < (step_end_ + kPage - 1) / kPage; ++p)
        if (pages_[l][size_t(p)].empty()) pages_[l][size_t(p)] = Bytes(page_bytes_);
}

void KvCache::write(int32_t layer, int32_t pos, const float* k, const float* v, ToF16 to_f16) {
    const gguf::TensorType st = kv_storage_type(shape_.type);
    for (int32_t h = 0; h < shape_.n_kv_head; ++h) {
        auto* kd = const_cast<uint8_t*>(k_row(layer, pos, h));
        auto* vd = const_cast<uint8_t*>(v_row(layer, pos, h));
        const float* ks = k + size_t(h) * size_t(shape_.head_dim);
        const float* vs = v + size_t(h) * size_t(shape_.head_dim);
        if (to_f16 && shape_.type == KvType::F16) {
            to_f16(ks, reinterpret_cast<uint16_t*>(kd), shape_.head_dim);
            to_f16(vs, reinterpret_cast<uint16_t*>(vd), shape_.head_dim);
        } else {
            gguf::quantize_row(st, ks, kd, shape_.head_dim);
            gguf::quantize_row(st, vs, vd, shape_.head_dim);
        }
    }
    step_rows_[size_t(layer)].fetch_add(1, std::memory_order_relaxed);
}

void KvCache::stage(int32_t layer) {
    const size_t l = size_t(layer);
    if (!file_ || windows_[l] > 0 || offloaded_[l] == 0) return;
    const size_t bytes = size_t(offloaded_[l]) * page_bytes_;
    if (staging_.size() < bytes) Bytes(bytes).swap(staging_);  // grows a page per global layer every kPage tokens
    file_->read(file_offset(l, 0), staging_.data(), bytes);  // the layer's pages lie in order
    moved_ += bytes;
}

void KvCache::offload(int32_t layer) {
    const size_t l = size_t(layer);
    if (!file_ || windows_[l] > 0) return;
    const int32_t end_page = (step_end_ + kPage - 1) / kPage;
    // every page but the newest is full: the step wrote its rows
    while (end_page - offloaded_[l] > keep_pages_) {
        Bytes& page = pages_[l][size_t(offloaded_[l])];
        file_->write(file_offset(l, offloaded_[l]), page.data(), page_bytes_);
        moved_ += page_bytes_;
        Bytes().swap(page);
        ++offloaded_[l];
    }
}

void KvCache::set_n_tokens(int32_t n) {
    if (n < n_tokens_ || n > step_end_) throw UsageError("kv cache: position count outside the reserved step");
    n_tokens_ = n;
    for (size_t l = 0; l < windows_.size(); ++l) {
        rows_[l] += step_rows_[l].exchange(0);  // the step's rows, as written
        if (windows_[l] == 0) continue;
        const int64_t keep = int64_t(windows_[l]) + kRewindSlack;
        if (capacity_[l] > keep) relayout(int32_t(l), int32_t(keep));
        count_window(l);
    }
}

}  // namespace lmscope::engine
