// Causal self-attention of one layer over the KV cache, with the capture the policy asks for.
#pragma once

#include "engine/kernels.h"
#include "engine/kv_cache.h"
#include "engine/thread_pool.h"
#include "trace/capture.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace lmscope::engine {

struct AttentionCapture {
    trace::StepCapture* capture = nullptr;  // null: capture nothing
    bool summaries = false;                 // fill capture->summaries for this layer
    const std::vector<int32_t>* plane_of_head = nullptr;  // [head] -> index in capture->planes or -1
    // hooks: [n_head][n_rows][pos0 + n_rows] each, or null. scores: q . k * scale, -inf where
    // masked; pattern: the softmax weights, 0 where masked.
    float* scores = nullptr;
    float* pattern = nullptr;
};

class Attention {
public:
    // scale: scores are q . k * scale; softcap c > 0: then c * tanh(score / c) (gemma2)
    Attention(ThreadPool& pool, const kernels::Kernels& k, int32_t n_head, int32_t n_kv_head,
              int32_t head_dim, float scale, float softcap = 0.0f);

    // q: [n_rows][n_head][head_dim] (roped). The cache holds this layer's K/V for positions
    // [0, pos0 + n_rows). out: [n_rows][n_head][head_dim]. window: 0 = causal over every
    // earlier key; W > 0 = the query at position i sees keys j with i - W < j <= i (a local
    // layer); the weights of keys outside are 0 in the captured planes.
    // One row (decode) goes in two passes (run_decode); a few rows in tasks (kv head, row), each
    // scoring the keys and taking the softmax for all the query heads of its group at once (each
    // K and V row read and converted once for them all); many rows on an f16 cache (head_dim a
    // multiple of 8) in tiles (run_tiled). Each gives the bits of the rows fed one at a time.
    void run(const KvCache& cache, int32_t layer, const float* q, int32_t n_rows, int32_t pos0,
             int32_t window, float* out, const AttentionCapture& cap);

private:
    // One row: the kv heads' visible keys, laid one after another, are scored in one share per
    // thread (cut at four-key units of a run, so that the scores have the bits of one
    // dot_f16_rows over the run); the thread that scores a head's last keys weighs its group;
    // then the weighted values in tasks (kv head, block of dimensions), n_kv_head x blocks a
    // multiple of the thread count.
    void run_decode(const KvCache& cache, int32_t layer, const float* q, int32_t pos0, int32_t window, float* out,
                    const AttentionCapture& cap);
    // Tasks (kv head, tile of kTileRows rows): each tile of kTileKeys keys is converted to float
    // once, turned into columns, and scored against the tile's query vectors (dot_cols_f32);
    // then each row's softmax, and its weighted sum of values in key order, each tile of values
    // converted once and shared by rows in twos (axpy_f32_rows).
    void run_tiled(const KvCache& cache, int32_t layer, const float* q, int32_t n_rows, int32_t pos0,
                   int32_t window, float* out, const AttentionCapture& cap);
    // w_g[j] (w + g * ld) = q_g . K[j] for keys [jb, je) of kv head kvh and the group's query
    // vectors qt [group][head_dim]; jb starts a run or is four-key units into one. qq: scratch.
    void score_keys(const KvCache& cache, int32_t layer, int32_t kvh, const float* qt, int32_t jb, int32_t je, float* w,
                    size_t ld, std::vector<kernels::BlockQ8>& qq) const;
    // The group's scores (w: key j0 of the first head's row, the next head's ld further) scaled
    // and weighed, in place.
    void weigh_group(const AttentionCapture& cap, int32_t layer, int32_t kvh, int32_t t, int32_t n_rows, int32_t n_keys_all,
                     int32_t j0, int32_t n_keys, float* w, size_t ld) const;
    // o [group][head_dim] = sum_j w_g[j] V[j] over the dimensions of units [blk0, blk1) (32
    // values each, the last one partial when head_dim is not a multiple of 32), keys in order.
    // vt: scratch for a dequantized row.
    void sum_values(const KvCache& cache, int32_t layer, int32_t kvh, const float* w, size_t ld, int32_t j0, int32_t n_keys,
                    int64_t blk0, int64_t blk1, float* o, std::vector<float>& vt) const;
    // The weights of head h at row t from its scores w of keys [j0, n_keys) (in place): soft-cap,
    // the scores hook, softmax, then the pattern hook, summary and plane.
    void weigh(const AttentionCapture& cap, int32_t layer, int32_t h, int32_t t, int32_t n_rows, int32_t n_keys_all,
               int32_t j0, int32_t n_keys, float* w) const;

    ThreadPool& pool_;
    const kernels::Kernels& k_;
    int32_t n_head_, n_kv_head_, head_dim_;
    float scale_, softcap_;
    std::vector<std::vector<float>> scores_;  // [slot][group][n_keys] a group's scores / weights for one row (and a tile's)
    std::vector<std::vector<float>> vtmp_;    // [slot][head_dim] a dequantized V row (or its dimension block)
    std::vector<std::vector<kernels::BlockQ8>> qq_;  // [slot][group][head_dim / 32] quantized queries
    std::vector<std::vector<float>> keys_t_;  // [slot][head_dim][kTileKeys] a key tile, keys as columns
    std::vector<std::vector<float>> values_;  // [slot][kTileKeys][head_dim] a value tile
    std::vector<std::vector<float>> z_;       // [slot][kTileRows][group][head_dim] a tile's weighted values
    std::vector<float> decode_w_;             // [n_kv_head][group][n_keys] one row's scores, then weights
    std::vector<std::atomic<int32_t>> keys_left_;  // [n_kv_head] keys of the decode row not yet scored
};

}  // namespace lmscope::engine
