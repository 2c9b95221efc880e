#include "engine/attention.h"

#include "gguf/quant.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace lmscope::engine {

bool AttentionCapture::wants_weights() const {
    if (scores || pattern) return true;
    if (!capture) return false;
    return summaries ||
           (plane_of_head && std::any_of(plane_of_head->begin(), plane_of_head->end(), [](int32_t p) { return p >= 0; }));
}

Attention::Attention(ThreadPool& pool, const kernels::Kernels& k, int32_t n_head,
                     int32_t n_kv_head, int32_t head_dim, float scale)
    : pool_(pool), k_(k), n_head_(n_head), n_kv_head_(n_kv_head), head_dim_(head_dim), scale_(scale),
      scores_(size_t(pool.size())), vtmp_(size_t(pool.size())), qq_(size_t(pool.size())) {}

void Attention::decode(const KvCache& cache, int32_t layer, const float* q, int32_t pos0, int32_t window,
                       float* out) {
    const KvType type = cache.shape().type;
    const int32_t group = n_head_ / n_kv_head_;  // query heads per kv head
    const int64_t hd = head_dim_;
    const int64_t nb = hd / kernels::kQ8Block;
    const gguf::TensorType st = kv_storage_type(type);
    const size_t f16_stride = size_t(head_dim_);  // halves from one position to the next
    const size_t block_bytes = cache.shape().row_bytes() / size_t(nb);  // one 32-value block of a q8_0 / q4_0 row
    const int32_t n_keys = pos0 + 1;
    const int32_t j0 = window > 0 ? std::max(0, n_keys - window) : 0;  // keys [j0, n_keys) are visible
    const int32_t n_vis = n_keys - j0;
    // dimension blocks per kv head: enough for n_kv_head x that to be a multiple of the thread count
    const int32_t n_thr = pool_.size();
    const int32_t n_dsplit = int32_t(std::min<int64_t>(n_thr / std::gcd(n_kv_head_, n_thr), nb));

    // task (kv head, d): out[h][d0, d1) for the group's heads h
    pool_.parallel_for(int64_t(n_kv_head_) * n_dsplit, 1, [&](int64_t b, int64_t e, int ti) {
        std::vector<float>& sc = scores_[size_t(ti)];  // [group][n_vis] scores, then weights
        std::vector<float>& vt = vtmp_[size_t(ti)];    // [d1 - d0] dequantized V
        std::vector<kernels::BlockQ8>& qq = qq_[size_t(ti)];  // [group][nb]
        sc.resize(size_t(group) * size_t(n_vis));
        vt.resize(size_t(hd));
        qq.resize(size_t(group) * size_t(nb));
        auto w_of = [&](int32_t g) { return sc.data() + size_t(g) * size_t(n_vis); };
        for (int64_t task = b; task < e; ++task) {
            const int32_t kvh = int32_t(task / n_dsplit), d = int32_t(task % n_dsplit);
            const int32_t h0 = kvh * group;  // the group's first query head
            if (task == b || d == 0) {  // the group's weights, once per kv head on this thread
                if (type == KvType::F16) {
                    for (int32_t j = j0, run = 0; j < n_keys; j += run) {  // a local layer's ring wraps once at most
                        run = std::min(n_keys - j, cache.contiguous(layer, j));
                        k_.dot_f16_rows(reinterpret_cast<const uint16_t*>(cache.k_row(layer, j, kvh)), f16_stride,
                                        q + h0 * hd, group, hd, run, w_of(0) + (j - j0), size_t(n_vis));
                    }
                    for (int32_t g = 0; g < group; ++g)
                        for (float* w = w_of(g); w != w_of(g) + n_vis; ++w) *w *= scale_;
                } else {
                    for (int32_t g = 0; g < group; ++g) k_.quantize_q8(q + (h0 + g) * hd, qq.data() + g * nb, hd);
                    auto dot = type == KvType::Q8_0 ? k_.dot_q8_0 : k_.dot_q4_0;
                    for (int32_t j = j0; j < n_keys; ++j) {
                        const uint8_t* kr = cache.k_row(layer, j, kvh);
                        for (int32_t g = 0; g < group; ++g) w_of(g)[j - j0] = scale_ * dot(kr, qq.data() + g * nb, nb);
                    }
                }
                for (int32_t g = 0; g < group; ++g) k_.softmax(w_of(g), n_vis);
            }
            // out[h0 + g][d0, d0 + nd) = sum_j w_g[j - j0] V[j][d0, d0 + nd)
            const int64_t blk0 = nb * d / n_dsplit, blk1 = nb * (d + 1) / n_dsplit;  // 32-value blocks [blk0, blk1)
            const int64_t d0 = blk0 * kernels::kQ8Block, nd = (blk1 - blk0) * kernels::kQ8Block;
            for (int32_t g = 0; g < group; ++g) std::fill_n(out + (h0 + g) * hd + d0, size_t(nd), 0.0f);
            if (type == KvType::F16) {
                for (int32_t j = j0, run = 0; j < n_keys; j += run) {
                    run = std::min(n_keys - j, cache.contiguous(layer, j));
                    k_.axpy_f16_rows(w_of(0) + (j - j0), size_t(n_vis), group,
                                     reinterpret_cast<const uint16_t*>(cache.v_row(layer, j, kvh)) + d0, f16_stride, run,
                                     out + h0 * hd + d0, size_t(hd), nd);
                }
            } else {
                for (int32_t j = j0; j < n_keys; ++j) {
                    gguf::dequantize_row(st, cache.v_row(layer, j, kvh) + size_t(blk0) * block_bytes, vt.data(), nd);
                    for (int32_t g = 0; g < group; ++g)
                        k_.axpy_f32(w_of(g)[j - j0], vt.data(), out + (h0 + g) * hd + d0, nd);
                }
            }
        }
    });
}

void Attention::run(const KvCache& cache, int32_t layer, const float* q, int32_t n_rows,
                    int32_t pos0, int32_t window, float* out, const AttentionCapture& cap) {
    if (n_rows == 1 && !cap.wants_weights()) {
        decode(cache, layer, q, pos0, window, out);
        return;
    }
    const KvType type = cache.shape().type;
    const int32_t group = n_head_ / n_kv_head_;  // query heads per kv head
    const float scale = scale_;
    const int32_t n_keys_all = pos0 + n_rows;
    const int64_t hd = head_dim_;
    const int64_t nb = hd / kernels::kQ8Block;
    const gguf::TensorType st = kv_storage_type(type);
    // f16 cache: halves from a kv head's row at one position to its row at the next
    const size_t f16_stride = size_t(head_dim_);

    pool_.parallel_for(int64_t(n_head_) * n_rows, 1, [&](int64_t b, int64_t e, int ti) {
        std::vector<float>& sc = scores_[size_t(ti)];
        std::vector<float>& vt = vtmp_[size_t(ti)];
        std::vector<kernels::BlockQ8>& qq = qq_[size_t(ti)];
        sc.resize(size_t(n_keys_all));
        vt.resize(size_t(hd));
        qq.resize(size_t(nb));
        for (int64_t task = b; task < e; ++task) {
            const int32_t h = int32_t(task / n_rows), t = int32_t(task % n_rows);
            const int32_t kvh = h / group;
            const int32_t n_keys = pos0 + t + 1;  // causal: keys 0 .. query position
            // keys [j0, n_keys) are visible: all of them, or the last `window` on a local layer
            const int32_t j0 = window > 0 ? std::max(0, n_keys - window) : 0;
            const int32_t n_vis = n_keys - j0;
            float* w = sc.data() + j0;  // [n_vis] scores, then weights, of the visible keys
            const float* qv = q + (int64_t(t) * n_head_ + h) * hd;
            // w[j - j0] = q . K[j] * scale
            if (type == KvType::F16) {
                for (int32_t j = j0, run = 0; j < n_keys; j += run) {  // a local layer's ring wraps once at most
                    run = std::min(n_keys - j, cache.contiguous(layer, j));
                    k_.dot_f16_rows(reinterpret_cast<const uint16_t*>(cache.k_row(layer, j, kvh)), f16_stride, qv, 1, hd,
                                    run, w + (j - j0), 0);
                }
                for (int32_t j = 0; j < n_vis; ++j) w[j] *= scale;
            } else {
                k_.quantize_q8(qv, qq.data(), hd);
                auto dot = type == KvType::Q8_0 ? k_.dot_q8_0 : k_.dot_q4_0;
                for (int32_t j = j0; j < n_keys; ++j)
                    sc[size_t(j)] = scale * dot(cache.k_row(layer, j, kvh), qq.data(), nb);
            }
            const bool summarise = cap.capture && cap.summaries;
            // hook rows of this (head, row): [n_keys_all] at h, t
            const size_t hook_row = (size_t(h) * size_t(n_rows) + size_t(t)) * size_t(n_keys_all);
            if (cap.scores) {
                float* r = cap.scores + hook_row;
                std::fill(r, r + n_keys_all, -INFINITY);
                std::copy(w, w + n_vis, r + j0);
            }
            const float entropy = k_.softmax(w, n_vis);
            std::fill(sc.begin(), sc.begin() + j0, 0.0f);  // masked: outside the window
            if (cap.pattern) {
                float* r = cap.pattern + hook_row;
                std::copy(sc.begin(), sc.begin() + n_keys, r);
                std::fill(r + n_keys, r + n_keys_all, 0.0f);
            }
            // out = sum_j w[j] V[j]
            float* o = out + (int64_t(t) * n_head_ + h) * hd;
            std::memset(o, 0, size_t(hd) * sizeof(float));
            if (type == KvType::F16) {
                for (int32_t j = j0, run = 0; j < n_keys; j += run) {
                    run = std::min(n_keys - j, cache.contiguous(layer, j));
                    k_.axpy_f16_rows(w + (j - j0), 0, 1, reinterpret_cast<const uint16_t*>(cache.v_row(layer, j, kvh)),
                                     f16_stride, run, o, 0, hd);
                }
            } else {
                for (int32_t j = j0; j < n_keys; ++j) {
                    gguf::dequantize_row(st, cache.v_row(layer, j, kvh), vt.data(), hd);
                    k_.axpy_f32(sc[size_t(j)], vt.data(), o, hd);
                }
            }
            if (!cap.capture) continue;
            trace::StepCapture& c = *cap.capture;
            if (summarise) {
                HeadSummary s;
                for (int32_t j = j0; j < n_keys; ++j) {
                    const float wj = sc[size_t(j)];
                    if (wj > s.max_weight) {
                        s.max_weight = wj;
                        s.argmax_key = j;
                    }
                }
                s.entropy = entropy;
                c.summaries[(size_t(layer) * size_t(n_head_) + size_t(h)) * size_t(n_rows) + size_t(t)] = s;
            }
            const int32_t pi = cap.plane_of_head ? (*cap.plane_of_head)[size_t(h)] : -1;
            if (pi >= 0) {
                // plane weights [n_rows][n_keys_all], zero past the query position
                float* row = c.planes[size_t(pi)].weights.data() + size_t(t) * size_t(n_keys_all);
                std::memcpy(row, sc.data(), size_t(n_keys) * sizeof(float));
                std::memset(row + n_keys, 0, size_t(n_keys_all - n_keys) * sizeof(float));
            }
        }
    });
}

}  // namespace lmscope::engine
