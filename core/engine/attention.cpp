#include "engine/attention.h"

#include "gguf/quant.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace lmscope::engine {

Attention::Attention(ThreadPool& pool, const kernels::Kernels& k, int32_t n_head,
                     int32_t n_kv_head, int32_t head_dim, float scale)
    : pool_(pool), k_(k), n_head_(n_head), n_kv_head_(n_kv_head), head_dim_(head_dim), scale_(scale),
      scores_(size_t(pool.size())), vtmp_(size_t(pool.size())), qq_(size_t(pool.size())) {}

void Attention::run(const KvCache& cache, int32_t layer, const float* q, int32_t n_rows,
                    int32_t pos0, int32_t window, float* out, const AttentionCapture& cap) {
    const KvType type = cache.shape().type;
    const int32_t group = n_head_ / n_kv_head_;  // query heads per kv head
    const float scale = scale_;
    const int32_t n_keys_all = pos0 + n_rows;
    const int64_t hd = head_dim_;
    const int64_t nb = hd / kernels::kQ8Block;
    const gguf::TensorType st = kv_storage_type(type);
    // f16 cache: halves from a kv head's row at one position to its row at the next
    const size_t f16_stride = size_t(n_kv_head_) * size_t(head_dim_);

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
                    k_.dot_f16_rows(reinterpret_cast<const uint16_t*>(cache.k_row(layer, j, kvh)), f16_stride, qv, hd,
                                    run, w + (j - j0));
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
                    k_.axpy_f16_rows(w + (j - j0), reinterpret_cast<const uint16_t*>(cache.v_row(layer, j, kvh)),
                                     f16_stride, run, o, hd);
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
