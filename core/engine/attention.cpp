#include "engine/attention.h"

#include "gguf/quant.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lmscope::engine {

namespace {

constexpr int32_t kTiledMinRows = 16;  // rows from which a step goes in tiles
constexpr int32_t kTileRows = 32;      // query rows of a tiled task
constexpr int32_t kTileKeys = 64;      // keys converted at a time (a [head_dim][64] float tile stays in L1)
constexpr int32_t kMaxVectors = 6;     // query vectors axpy_f32_rows takes in one pass

// The index of the first largest of x[0, n) (n >= 1): the maximum over 8 lanes, then its
// first occurrence (0 when there is none: NaNs).
int32_t first_max(const float* x, int32_t n) {
    float lane[8];
    std::fill_n(lane, 8, x[0]);
    int32_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int l = 0; l < 8; ++l) lane[l] = std::max(lane[l], x[i + l]);
    float m = *std::max_element(lane, lane + 8);
    for (; i < n; ++i) m = std::max(m, x[i]);
    const int32_t at = int32_t(std::find(x, x + n, m) - x);
    return at < n ? at : 0;
}

}  // namespace

Attention::Attention(ThreadPool& pool, const kernels::Kernels& k, int32_t n_head,
                     int32_t n_kv_head, int32_t head_dim, float scale, float softcap)
    : pool_(pool), k_(k), n_head_(n_head), n_kv_head_(n_kv_head), head_dim_(head_dim), scale_(scale), softcap_(softcap),
      scores_(size_t(pool.size())), vtmp_(size_t(pool.size())), qq_(size_t(pool.size())), keys_t_(size_t(pool.size())),
      values_(size_t(pool.size())), z_(size_t(pool.size())), keys_left_(size_t(n_kv_head)) {}

void Attention::weigh(const AttentionCapture& cap, int32_t layer, int32_t h, int32_t t, int32_t n_rows,
                      int32_t n_keys_all, int32_t j0, int32_t n_keys, float* w) const {
    const int32_t n_vis = n_keys - j0;
    if (softcap_ > 0.0f)  // w = c tanh(w / c) before the mask
        for (float* x = w; x != w + n_vis; ++x) *x = softcap_ * std::tanh(*x / softcap_);
    // hook rows of this (head, row): [n_keys_all] at h, t
    const size_t hook_row = (size_t(h) * size_t(n_rows) + size_t(t)) * size_t(n_keys_all);
    if (cap.scores) {
        float* r = cap.scores + hook_row;
        std::fill(r, r + n_keys_all, -INFINITY);
        std::copy(w, w + n_vis, r + j0);
    }
    const float entropy = k_.softmax(w, n_vis);
    // a row of weights [n_keys_all]: zero outside the window and past the query position
    auto write_row = [&](float* r) {
        std::fill(r, r + j0, 0.0f);
        std::copy(w, w + n_vis, r + j0);
        std::fill(r + n_keys, r + n_keys_all, 0.0f);
    };
    if (cap.pattern) write_row(cap.pattern + hook_row);
    if (!cap.capture) return;
    trace::StepCapture& c = *cap.capture;
    if (cap.summaries) {
        HeadSummary s;
        const int32_t i = first_max(w, n_vis);
        s.max_weight = w[i];
        s.argmax_key = j0 + i;
        s.entropy = entropy;
        c.summaries[(size_t(layer) * size_t(n_head_) + size_t(h)) * size_t(n_rows) + size_t(t)] = s;
    }
    const int32_t pi = cap.plane_of_head ? (*cap.plane_of_head)[size_t(h)] : -1;
    if (pi >= 0) write_row(c.planes[size_t(pi)].weights.data() + size_t(t) * size_t(n_keys_all));  // [n_rows][n_keys_all]
}

void Attention::score_keys(const KvCache& cache, int32_t layer, int32_t kvh, const float* qt, int32_t jb, int32_t je,
                           float* w, size_t ld, std::vector<kernels::BlockQ8>& qq) const {
    const int32_t group = n_head_ / n_kv_head_;
    const int64_t hd = head_dim_;
    const KvType type = cache.shape().type;
    if (type == KvType::F16) {
        for (int32_t j = jb, run = 0; j < je; j += run) {  // a local layer's ring wraps once at most
            run = std::min(je - j, cache.contiguous(layer, j));
            k_.dot_f16_rows(reinterpret_cast<const uint16_t*>(cache.k_row(layer, j, kvh)), size_t(head_dim_), qt, group,
                            hd, run, w + j, ld);
        }
        return;
    }
    const int64_t nb = hd / kernels::kQ8Block;  // the cache asks hd % 32 == 0 of a quantized type
    qq.resize(size_t(group) * size_t(nb));
    for (int32_t g = 0; g < group; ++g) k_.quantize_q8(qt + g * hd, qq.data() + g * nb, hd);
    auto dot = type == KvType::Q8_0 ? k_.dot_q8_0 : k_.dot_q4_0;
    for (int32_t j = jb; j < je; ++j) {
        const uint8_t* kr = cache.k_row(layer, j, kvh);
        for (int32_t g = 0; g < group; ++g) w[size_t(g) * ld + size_t(j)] = dot(kr, qq.data() + g * nb, nb);
    }
}

void Attention::weigh_group(const AttentionCapture& cap, int32_t layer, int32_t kvh, int32_t t, int32_t n_rows,
                            int32_t n_keys_all, int32_t j0, int32_t n_keys, float* w, size_t ld) const {
    const int32_t group = n_head_ / n_kv_head_;
    for (int32_t g = 0; g < group; ++g) {
        float* wg = w + size_t(g) * ld;  // keys [j0, n_keys)
        for (float* x = wg; x != wg + (n_keys - j0); ++x) *x *= scale_;
        weigh(cap, layer, kvh * group + g, t, n_rows, n_keys_all, j0, n_keys, wg);
    }
}

void Attention::sum_values(const KvCache& cache, int32_t layer, int32_t kvh, const float* w, size_t ld, int32_t j0,
                           int32_t n_keys, int64_t blk0, int64_t blk1, float* o, std::vector<float>& vt) const {
    const int32_t group = n_head_ / n_kv_head_;
    const int64_t hd = head_dim_;
    const int64_t d0 = blk0 * kernels::kQ8Block, nd = std::min(blk1 * kernels::kQ8Block, hd) - d0;
    o += d0;  // [group][head_dim] from d0
    for (int32_t g = 0; g < group; ++g) std::fill_n(o + g * hd, size_t(nd), 0.0f);
    const KvType type = cache.shape().type;
    if (type == KvType::F16) {
        for (int32_t j = j0, run = 0; j < n_keys; j += run) {
            run = std::min(n_keys - j, cache.contiguous(layer, j));
            k_.axpy_f16_rows(w + j, ld, group, reinterpret_cast<const uint16_t*>(cache.v_row(layer, j, kvh)) + d0,
                             size_t(head_dim_), run, o, size_t(hd), nd);
        }
        return;
    }
    const gguf::TensorType st = kv_storage_type(type);
    const size_t block_bytes = cache.shape().row_bytes() / size_t(hd / kernels::kQ8Block);  // one 32-value block
    vt.resize(size_t(hd));
    for (int32_t j = j0; j < n_keys; ++j) {
        gguf::dequantize_row(st, cache.v_row(layer, j, kvh) + size_t(blk0) * block_bytes, vt.data(), nd);
        for (int32_t g = 0; g < group; ++g) k_.axpy_f32(w[size_t(g) * ld + size_t(j)], vt.data(), o + g * hd, nd);
    }
}

void Attention::run(const KvCache& cache, int32_t layer, const float* q, int32_t n_rows,
                    int32_t pos0, int32_t window, float* out, const AttentionCapture& cap) {
    if (n_rows == 1) return run_decode(cache, layer, q, pos0, window, out, cap);
    if (n_rows >= kTiledMinRows && cache.shape().type == KvType::F16 && head_dim_ % 8 == 0)
        return run_tiled(cache, layer, q, n_rows, pos0, window, out, cap);
    const int32_t group = n_head_ / n_kv_head_;  // query heads per kv head
    const int32_t n_keys_all = pos0 + n_rows;
    const int64_t hd = head_dim_;
    const int64_t n_units = (hd + kernels::kQ8Block - 1) / kernels::kQ8Block;  // all of a row's dimensions
    // task (kv head, row t): out[t][h] for the group's heads h
    pool_.parallel_for(int64_t(n_kv_head_) * n_rows, 1, [&](int64_t b, int64_t e, int ti) {
        std::vector<float>& sc = scores_[size_t(ti)];  // [group][n_keys_all] scores, then weights
        sc.resize(size_t(group) * size_t(n_keys_all));
        for (int64_t task = b; task < e; ++task) {
            const int32_t kvh = int32_t(task / n_rows), t = int32_t(task % n_rows);
            const int32_t n_keys = pos0 + t + 1;  // causal: keys 0 .. query position
            // keys [j0, n_keys) are visible: all of them, or the last `window` on a local layer
            const int32_t j0 = window > 0 ? std::max(0, n_keys - window) : 0;
            const int64_t at = (int64_t(t) * n_head_ + int64_t(kvh) * group) * hd;  // [group][head_dim] of row t
            score_keys(cache, layer, kvh, q + at, j0, n_keys, sc.data(), size_t(n_keys_all), qq_[size_t(ti)]);
            weigh_group(cap, layer, kvh, t, n_rows, n_keys_all, j0, n_keys, sc.data() + j0, size_t(n_keys_all));
            sum_values(cache, layer, kvh, sc.data(), size_t(n_keys_all), j0, n_keys, 0, n_units, out + at, vtmp_[size_t(ti)]);
        }
    });
}

void Attention::run_decode(const KvCache& cache, int32_t layer, const float* q, int32_t pos0, int32_t window,
                           float* out, const AttentionCapture& cap) {
    const int32_t group = n_head_ / n_kv_head_;
    const int32_t n_keys = pos0 + 1, j0 = window > 0 ? std::max(0, n_keys - window) : 0, n_vis = n_keys - j0;
    const int64_t hd = head_dim_;
    const size_t ld = size_t(n_keys);
    decode_w_.resize(size_t(n_kv_head_) * size_t(group) * ld);
    auto w_of = [&](int32_t kvh) { return decode_w_.data() + size_t(kvh) * size_t(group) * ld; };  // [group][n_keys]
    for (int32_t kvh = 0; kvh < n_kv_head_; ++kvh) keys_left_[size_t(kvh)].store(n_vis, std::memory_order_relaxed);
    // A cut in the kv heads' visible keys laid one after another, moved back to a four-key unit
    // from the start of its run of contiguous rows (where dot_f16_rows would put it).
    const int64_t total = int64_t(n_kv_head_) * n_vis;
    auto cut = [&](int64_t f) -> int64_t {
        if (f >= total) return total;
        const int64_t head_start = f / n_vis * n_vis;
        const int32_t j = j0 + int32_t(f - head_start);
        int32_t rs = j0;  // the start of the run holding j
        while (rs + cache.contiguous(layer, rs) <= j) rs += cache.contiguous(layer, rs);
        return head_start + (rs + (j - rs) / 4 * 4 - j0);
    };
    pool_.run([&](int ti, int nt) {
        const int64_t b = cut(total * ti / nt), e = cut(total * (ti + 1) / nt);
        for (int64_t f = b; f < e;) {
            const int32_t kvh = int32_t(f / n_vis);
            const int32_t jb = j0 + int32_t(f % n_vis), je = j0 + int32_t(std::min<int64_t>(e - int64_t(kvh) * n_vis, n_vis));
            score_keys(cache, layer, kvh, q + int64_t(kvh) * group * hd, jb, je, w_of(kvh), ld, qq_[size_t(ti)]);
            // the thread that scores a kv head's last keys weighs its group (seeing the others' scores)
            if (keys_left_[size_t(kvh)].fetch_sub(je - jb, std::memory_order_acq_rel) == je - jb)
                weigh_group(cap, layer, kvh, 0, 1, n_keys, j0, n_keys, w_of(kvh) + j0, ld);
            f = int64_t(kvh) * n_vis + (je - j0);
        }
    });
    // out[h0 + g][d0, d0 + nd) = sum_j w_g[j] V[j][d0, d0 + nd): blocks of dimensions per kv
    // head, so that n_kv_head x blocks is a multiple of the thread count
    const int64_t n_units = (hd + kernels::kQ8Block - 1) / kernels::kQ8Block;
    const int32_t n_thr = pool_.size();
    const int32_t n_dsplit = int32_t(std::min<int64_t>(n_thr / std::gcd(n_kv_head_, n_thr), n_units));
    pool_.parallel_for(int64_t(n_kv_head_) * n_dsplit, 1, [&](int64_t b, int64_t e, int ti) {
        for (int64_t task = b; task < e; ++task) {
            const int32_t kvh = int32_t(task / n_dsplit), d = int32_t(task % n_dsplit);
            sum_values(cache, layer, kvh, w_of(kvh), ld, j0, n_keys, n_units * d / n_dsplit, n_units * (d + 1) / n_dsplit,
                       out + int64_t(kvh) * group * hd, vtmp_[size_t(ti)]);
        }
    });
}

void Attention::run_tiled(const KvCache& cache, int32_t layer, const float* q, int32_t n_rows, int32_t pos0,
                          int32_t window, float* out, const AttentionCapture& cap) {
    const int32_t group = n_head_ / n_kv_head_;  // query heads per kv head
    const int32_t n_keys_all = pos0 + n_rows;
    const int64_t hd = head_dim_;
    const size_t f16_stride = size_t(head_dim_);
    const int64_t n_tiles = (n_rows + kTileRows - 1) / kTileRows;
    const int64_t n_tasks = int64_t(n_kv_head_) * n_tiles;
    auto n_keys_of = [&](int32_t t) { return pos0 + t + 1; };  // causal: keys 0 .. query position
    auto j0_of = [&](int32_t t) { return window > 0 ? std::max(0, n_keys_of(t) - window) : 0; };
    // A tile's later rows see more keys: the tasks go round the threads, each taking every
    // n-th, so that every thread gets early and late tiles alike.
    pool_.run([&](int ti, int nt) {
        std::vector<float>& sc = scores_[size_t(ti)];   // [kTileRows][group][ld] scores of keys jlo.., then weights
        std::vector<float>& kt = keys_t_[size_t(ti)];   // [hd][kTileKeys]
        std::vector<float>& vt = values_[size_t(ti)];   // [kTileKeys][hd]
        std::vector<float>& z = z_[size_t(ti)];         // [kTileRows][group][hd]
        kt.resize(size_t(hd) * kTileKeys);
        vt.resize(size_t(hd) * kTileKeys);
        z.resize(size_t(kTileRows) * size_t(group) * size_t(hd));
        for (int64_t task = ti; task < n_tasks; task += nt) {
            const int32_t kvh = int32_t(task % n_kv_head_), h0 = kvh * group;
            const int32_t t0 = int32_t(task / n_kv_head_) * kTileRows, t1 = std::min(n_rows, t0 + kTileRows);
            const int32_t jlo = j0_of(t0), jhi = n_keys_of(t1 - 1);  // the keys any row of the tile sees
            const size_t ld = size_t(jhi - jlo);
            sc.resize(size_t(t1 - t0) * size_t(group) * ld);
            auto w_of = [&](int32_t t) { return sc.data() + size_t(t - t0) * size_t(group) * ld; };  // [group][ld] of row t
            for (int32_t kb = jlo; kb < jhi; kb += kTileKeys) {
                const int32_t ke = std::min(jhi, kb + kTileKeys);
                for (int32_t j = kb, run = 0; j < ke; j += run) {  // a local layer's ring wraps once at most
                    run = std::min(ke - j, cache.contiguous(layer, j));
                    k_.f16_to_f32_t(reinterpret_cast<const uint16_t*>(cache.k_row(layer, j, kvh)), f16_stride, run, hd,
                                    kt.data() + (j - kb), kTileKeys);
                }
                for (int32_t t = t0; t < t1; ++t) {
                    const int32_t e = std::min(ke, n_keys_of(t)), b = std::max(kb, j0_of(t));
                    if (b >= e) continue;  // the row sees none of these keys
                    // w_g[j] = q_g . K[j], keys [b, e) of the tile
                    k_.dot_cols_f32(q + (int64_t(t) * n_head_ + h0) * hd, group, hd, kt.data() + (b - kb), kTileKeys, e - b,
                                    w_of(t) + (b - jlo), ld);
                }
            }
            for (int32_t t = t0; t < t1; ++t) {
                const int32_t j0 = j0_of(t), n_keys = n_keys_of(t);
                const float* qt = q + (int64_t(t) * n_head_ + h0) * hd;  // [group][head_dim]
                // the row alone (run()) scores each run's last run % 4 keys as dot_f16 does: so here
                for (int32_t j = j0, run = 0; j < n_keys; j += run) {
                    run = std::min(n_keys - j, cache.contiguous(layer, j));
                    for (int32_t i = j + run / 4 * 4; i < j + run; ++i)
                        for (int32_t g = 0; g < group; ++g)
                            w_of(t)[size_t(g) * ld + size_t(i - jlo)] =
                                k_.dot_f16(reinterpret_cast<const uint16_t*>(cache.k_row(layer, i, kvh)), qt + g * hd, hd);
                }
                weigh_group(cap, layer, kvh, t, n_rows, n_keys_all, j0, n_keys, w_of(t) + (j0 - jlo), ld);
            }
            // z[t][g] = sum_j w_g[j] V[j], each row's keys in order, a tile of values converted
            // once for the tile's rows; rows go in twos (or more when the group is small) over
            // the keys they all see, their first and last keys added alone
            std::fill_n(z.data(), size_t(t1 - t0) * size_t(group) * size_t(hd), 0.0f);
            auto z_of = [&](int32_t t) { return z.data() + size_t(t - t0) * size_t(group) * size_t(hd); };  // [group][hd] of row t
            const int32_t per = std::max(1, kMaxVectors / group);  // rows at a time
            for (int32_t kb = jlo; kb < jhi; kb += kTileKeys) {
                const int32_t ke = std::min(jhi, kb + kTileKeys);
                for (int32_t j = kb, run = 0; j < ke; j += run) {
                    run = std::min(ke - j, cache.contiguous(layer, j));
                    k_.f16_to_f32(reinterpret_cast<const uint16_t*>(cache.v_row(layer, j, kvh)), vt.data() + size_t(j - kb) * size_t(hd),
                                  int64_t(run) * hd);
                }
                auto b_of = [&](int32_t t) { return std::max(kb, j0_of(t)); };   // row t's first key of the tile
                auto e_of = [&](int32_t t) { return std::min(ke, n_keys_of(t)); };  // and its end
                // rows [r0, r1) add keys [from, to) of the tile
                auto add = [&](int32_t r0, int32_t r1, int32_t from, int32_t to) {
                    if (from < to)
                        k_.axpy_f32_rows(w_of(r0) + (from - jlo), ld, (r1 - r0) * group, vt.data() + size_t(from - kb) * size_t(hd),
                                         size_t(hd), to - from, z_of(r0), size_t(hd), hd);
                };
                for (int32_t r0 = t0; r0 < t1; r0 += per) {
                    const int32_t r1 = std::min(t1, r0 + per);
                    const int32_t b = b_of(r1 - 1), e = e_of(r0);  // the keys every row of them sees
                    if (b >= e) {
                        for (int32_t t = r0; t < r1; ++t) add(t, t + 1, b_of(t), e_of(t));
                        continue;
                    }
                    for (int32_t t = r0; t < r1; ++t) add(t, t + 1, b_of(t), b);
                    add(r0, r1, b, e);
                    for (int32_t t = r0; t < r1; ++t) add(t, t + 1, e, e_of(t));
                }
            }
            for (int32_t t = t0; t < t1; ++t)
                std::copy_n(z_of(t), size_t(group) * size_t(hd), out + (int64_t(t) * n_head_ + h0) * hd);
        }
    });
}

}  // namespace lmscope::engine
