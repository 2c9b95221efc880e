#include "engine/attention.h"

#include "gguf/quant.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace lmscope::engine {

Attention::Attention(ThreadPool& pool, const kernels::Kernels& k, int32_t n_head,
                     int32_t n_kv_head, int32_t head_dim, float scale, float softcap)
    : pool_(pool), k_(k), n_head_(n_head), n_kv_head_(n_kv_head), head_dim_(head_dim), scale_(scale), softcap_(softcap),
      scores_(size_t(pool.size())), vtmp_(size_t(pool.size())), qq_(size_t(pool.size())) {}

void Attention::run(const KvCache& cache, int32_t layer, const float* q, int32_t n_rows,
                    int32_t pos0, int32_t window, float* out, const AttentionCapture& cap) {
    const KvType type = cache.shape().type;
    const int32_t group = n_head_ / n_kv_head_;  // query heads per kv head
    const int32_t n_keys_all = pos0 + n_rows;
    const int64_t hd = head_dim_;
    const int64_t nb = hd / kernels::kQ8Block;  // 32-value blocks of a quantized row (the cache asks hd % 32 == 0)
    // dimension units of 32 values, the last one partial in an f16 cache whose head_dim is not a multiple of 32
    const int64_t n_units = (hd + kernels::kQ8Block - 1) / kernels::kQ8Block;
    const gguf::TensorType st = kv_storage_type(type);
    const size_t f16_stride = size_t(head_dim_);  // f16 cache: halves from a kv head's row at one position to the next
    const size_t block_bytes = nb > 0 ? cache.shape().row_bytes() / size_t(nb) : 0;  // one 32-value block of a q8_0 / q4_0 row
    // dimension blocks per (kv head, row): one query row makes n_kv_head x that a multiple of the
    // thread count; many rows are tasks enough
    const int32_t n_thr = pool_.size();
    const int32_t n_dsplit = n_rows > 1 ? 1 : int32_t(std::min<int64_t>(n_thr / std::gcd(n_kv_head_, n_thr), n_units));
    const bool summarise = cap.capture && cap.summaries;

    // task (kv head, row t, d): out[t][h][d0, d0 + nd) for the group's heads h
    pool_.parallel_for(int64_t(n_kv_head_) * n_rows * n_dsplit, 1, [&](int64_t b, int64_t e, int ti) {
        std::vector<float>& sc = scores_[size_t(ti)];  // [group][n_keys_all] scores, then weights
        std::vector<float>& vt = vtmp_[size_t(ti)];    // [nd] dequantized V
        std::vector<kernels::BlockQ8>& qq = qq_[size_t(ti)];  // [group][nb]
        sc.resize(size_t(group) * size_t(n_keys_all));
        vt.resize(size_t(hd));
        qq.resize(size_t(group) * size_t(nb));
        auto w_of = [&](int32_t g) { return sc.data() + size_t(g) * size_t(n_keys_all); };  // [n_keys_all] of head h0 + g
        for (int64_t task = b; task < e; ++task) {
            const int32_t kvh = int32_t(task / (int64_t(n_rows) * n_dsplit));
            const int32_t t = int32_t(task / n_dsplit % n_rows), d = int32_t(task % n_dsplit);
            const int32_t h0 = kvh * group;  // the group's first query head
            const int32_t n_keys = pos0 + t + 1;  // causal: keys 0 .. query position
            // keys [j0, n_keys) are visible: all of them, or the last `window` on a local layer
            const int32_t j0 = window > 0 ? std::max(0, n_keys - window) : 0;
            const int32_t n_vis = n_keys - j0;
            const float* qt = q + (int64_t(t) * n_head_ + h0) * hd;  // [group][head_dim]
            if (task == b || d == 0) {  // the group's weights, once per (kv head, row) on this thread
                // w_g[j] = q_g . K[j] * scale
                if (type == KvType::F16) {
                    for (int32_t j = j0, run = 0; j < n_keys; j += run) {  // a local layer's ring wraps once at most
                        run = std::min(n_keys - j, cache.contiguous(layer, j));
                        k_.dot_f16_rows(reinterpret_cast<const uint16_t*>(cache.k_row(layer, j, kvh)), f16_stride, qt,
                                        group, hd, run, w_of(0) + j, size_t(n_keys_all));
                    }
                    for (int32_t g = 0; g < group; ++g)
                        for (float* w = w_of(g) + j0; w != w_of(g) + n_keys; ++w) *w *= scale_;
                } else {
                    for (int32_t g = 0; g < group; ++g) k_.quantize_q8(qt + g * hd, qq.data() + g * nb, hd);
                    auto dot = type == KvType::Q8_0 ? k_.dot_q8_0 : k_.dot_q4_0;
                    for (int32_t j = j0; j < n_keys; ++j) {
                        const uint8_t* kr = cache.k_row(layer, j, kvh);
                        for (int32_t g = 0; g < group; ++g) w_of(g)[j] = scale_ * dot(kr, qq.data() + g * nb, nb);
                    }
                }
                if (softcap_ > 0.0f)  // w = c tanh(w / c) before the mask
                    for (int32_t g = 0; g < group; ++g)
                        for (float* w = w_of(g) + j0; w != w_of(g) + n_keys; ++w) *w = softcap_ * std::tanh(*w / softcap_);
                for (int32_t g = 0; g < group; ++g) {
                    const int32_t h = h0 + g;
                    float* w = w_of(g);
                    // hook rows of this (head, row): [n_keys_all] at h, t
                    const size_t hook_row = (size_t(h) * size_t(n_rows) + size_t(t)) * size_t(n_keys_all);
                    if (cap.scores && d == 0) {
                        float* r = cap.scores + hook_row;
                        std::fill(r, r + n_keys_all, -INFINITY);
                        std::copy(w + j0, w + n_keys, r + j0);
                    }
                    const float entropy = k_.softmax(w + j0, n_vis);
                    std::fill(w, w + j0, 0.0f);  // masked: outside the window
                    if (d != 0) continue;  // the row's first dimension block captures
                    if (cap.pattern) {
                        float* r = cap.pattern + hook_row;
                        std::copy(w, w + n_keys, r);
                        std::fill(r + n_keys, r + n_keys_all, 0.0f);
                    }
                    if (!cap.capture) continue;
                    trace::StepCapture& c = *cap.capture;
                    if (summarise) {
                        HeadSummary s;
                        for (int32_t j = j0; j < n_keys; ++j) {
                            if (w[j] > s.max_weight) {
                                s.max_weight = w[j];
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
                        std::memcpy(row, w, size_t(n_keys) * sizeof(float));
                        std::memset(row + n_keys, 0, size_t(n_keys_all - n_keys) * sizeof(float));
                    }
                }
            }
            // out[t][h0 + g][d0, d0 + nd) = sum_j w_g[j] V[j][d0, d0 + nd)
            const int64_t blk0 = n_units * d / n_dsplit, blk1 = n_units * (d + 1) / n_dsplit;  // units [blk0, blk1)
            const int64_t d0 = blk0 * kernels::kQ8Block, nd = std::min(blk1 * kernels::kQ8Block, hd) - d0;
            float* o = out + (int64_t(t) * n_head_ + h0) * hd + d0;  // [group][head_dim] from d0
            for (int32_t g = 0; g < group; ++g) std::fill_n(o + g * hd, size_t(nd), 0.0f);
            if (type == KvType::F16) {
                for (int32_t j = j0, run = 0; j < n_keys; j += run) {
                    run = std::min(n_keys - j, cache.contiguous(layer, j));
                    k_.axpy_f16_rows(w_of(0) + j, size_t(n_keys_all), group,
                                     reinterpret_cast<const uint16_t*>(cache.v_row(layer, j, kvh)) + d0, f16_stride, run,
                                     o, size_t(hd), nd);
                }
            } else {
                for (int32_t j = j0; j < n_keys; ++j) {
                    gguf::dequantize_row(st, cache.v_row(layer, j, kvh) + size_t(blk0) * block_bytes, vt.data(), nd);
                    for (int32_t g = 0; g < group; ++g) k_.axpy_f32(w_of(g)[j], vt.data(), o + g * hd, nd);
                }
            }
        }
    });
}

}  // namespace lmscope::engine
