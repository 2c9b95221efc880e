// The arithmetic of one layer for one token and one head, from a LayerProbe's rows: what the
// Layer view shows, step by step, as a teacher explains it.
//
//   scores   q_rot . k_rot_j for every key j, x the attention scale, -inf where the key is
//            hidden (the future; outside a local layer's window), softmax = the pattern's row
//   mix      z = sum_j w_j v_j: the largest terms w_j v_j, the rest, and each head's share of
//            attn_out, Wo[:, head] z_head (before a post-attention norm)
//   rope     pairs of q and k before and after rotation (angle = position x theta_i), the
//            layer's theta spectrum, and score against offset: the same q and k rotated to
//            positions (m, n) over several m for each offset m - n
//   ffn      the largest activations of mlp_act, its histogram, the norms in and out
//   stream   |resid_pre|, |attn_out|, |mlp_out| per layer
// All in double precision from the float32 rows (the engine's own numbers).
#pragma once

#include "engine/layer_probe.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lmscope::engine {

enum class KeyHidden : uint8_t { No, Future, OutsideWindow };

struct ScoreStages {
    int32_t query = 0, head = 0, kv_head = 0;
    double scale = 0.0;
    std::vector<double> dot;       // [key] q_rot . k_rot_j, every key of the rows
    std::vector<double> scaled;    // [key] dot * scale (then c tanh(x / c) where the model soft-caps scores)
    std::vector<KeyHidden> hidden; // [key]
    std::vector<double> masked;    // [key] scaled, or -inf where hidden
    std::vector<double> weights;   // [key] softmax(masked)
};
ScoreStages score_stages(const Model& model, const LayerRows& rows, int32_t query, int32_t head);

struct MixTerm {
    int32_t key = 0;
    double weight = 0.0;          // w_j
    std::vector<float> term;      // [head_dim] w_j v_j
    double norm = 0.0;            // |w_j v_j|
};
struct Mix {
    std::vector<MixTerm> top;     // the largest |w_j v_j| first
    std::vector<float> rest;      // [head_dim] the sum of the other terms
    std::vector<float> sum;       // [head_dim] the sum of every term (= z within rounding)
    std::vector<float> z;         // [head_dim] the engine's z of the head
    std::vector<double> head_share;  // [head] |Wo[:, h] z_h|
    std::vector<float> share;     // [n_embd] Wo[:, head] z_head of the chosen head
};
// `stages` from score_stages for the same query and head. Dequantizes the layer's Wo.
Mix mix(const Model& model, const LayerRows& rows, const ScoreStages& stages, int32_t top_n);

struct RopePair {
    int32_t pair = 0;
    int32_t dim_a = 0, dim_b = 0;
    double theta = 0.0;           // radians per position
    double q_angle = 0.0, k_angle = 0.0;  // position x theta
    double q_before[2] = {}, q_after[2] = {};  // the engine's q and q_rot
    double k_before[2] = {}, k_after[2] = {};  // the engine's k and k_rot of the key
};
struct RopeOffset {
    int32_t offset = 0;
    double min = 0.0, max = 0.0, mean = 0.0;
    int32_t samples = 0;
};
struct RopeDemo {
    bool rope = true;
    bool neox = false;
    double base = 0.0;             // the frequency base of the layer's table
    int32_t query = 0, key = 0, head = 0, kv_head = 0;
    std::vector<RopePair> pairs;   // the chosen pairs, fastest first
    std::vector<double> theta;     // [pair] the layer's inverse frequencies
    std::vector<RopeOffset> offsets;
};
// The rotation of pair i at position p (the engine's RoPE: angle p x theta_i, the pairing of the
// model's style) applied to a head vector, in double precision.
std::vector<double> rope_rotate(const Model& model, int32_t layer, std::span<const float> head_vec, int32_t pos);
// `pairs`: how many pairs to show (spread from the fastest to the slowest); offsets 0 ..
// max_offset, each tried at `samples` positions m (n = m - offset).
RopeDemo rope_demo(const Model& model, const LayerRows& rows, int32_t query, int32_t key, int32_t head,
                   int32_t pairs, int32_t max_offset, int32_t samples);

struct FfnAnatomy {
    std::vector<int32_t> top;      // neuron ids, largest |act| first
    std::vector<double> top_values;
    std::vector<double> edges;     // [bins + 1]
    std::vector<int32_t> counts;   // [bins]
    double act_norm = 0.0, in_norm = 0.0, out_norm = 0.0, post_norm = 0.0;
};
FfnAnatomy ffn_anatomy(const LayerRows& rows, int32_t pos, int32_t top_n, int32_t bins);

struct StreamNorms {
    std::vector<double> resid_pre, attn_out, mlp_out;  // [layer]
};
StreamNorms stream_norms(const Model& model, const LayerRows& rows, int32_t pos);

double l2_norm(std::span<const float> x);

}  // namespace lmscope::engine
