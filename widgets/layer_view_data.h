// What the Layer view draws: the inside of one layer for one token and one head of a step, as
// plain Qt data. The app computes it from the model's hook captures (core/analysis/layer_probe)
// and hands it to the charts here; every number is one the engine computed or one computed
// from those (a dot product, a norm, a rotation with the engine's RoPE).
#pragma once

#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QtGlobal>

namespace lmscope::widgets {

// One vector drawn as a heat strip: one cell per component, blue below 0, red above.
struct VectorStrip {
    QString label;          // "q: looking for", "resid_pre", "k of “bank” (7)"
    QVector<float> values;  // [dim]
    double norm = 0.0;      // L2 norm of values
};

// Several strips drawn one under another. Strips of one group share one colour scale (the
// largest |value| of the group), so their cells compare; a new group starts a new scale.
struct VectorStripsData {
    QString title;
    QVector<VectorStrip> strips;
    QVector<qint32> group;  // [strip] scale group (missing: group 0)
};

// The stages from q . k to the attention weights of one query row, over its keys.
enum class ScoreStage {
    Dot,      // q_rot . k_rot_j
    Scaled,   // x the attention scale
    Masked,   // -inf where the key is hidden (the future, outside a local layer's window)
    Softmax,  // softmax over the row: the attention weights (the heatmap's row)
};
inline constexpr int kScoreStageCount = 4;

enum class KeyMask {
    Visible,
    Future,        // key after the query
    OutsideWindow, // a local layer's query does not see keys W or more positions back
};

struct ScoreStagesData {
    qint32 query = 0;           // the query position
    QStringList key_labels;     // [key] the key tokens' text, as drawn on chips
    QVector<double> dot;        // [key] q . k_j (computed for every key, the hidden ones too)
    double scale = 0.0;         // the attention scale (1 / sqrt(head_dim) unless the model says)
    QVector<double> scaled;     // [key] dot * scale
    QVector<KeyMask> mask;      // [key]
    QVector<double> masked;     // [key] scaled, or -inf where mask != Visible
    QVector<double> weights;    // [key] softmax(masked): 0 where hidden
};

// One point of the RoPE relative-position demonstration: the same q and k placed at positions
// (m, n) with m - n = offset, over several m; on a RoPE layer the score depends only on the
// offset, so min and max coincide.
struct RopeOffsetPoint {
    qint32 offset = 0;
    double min = 0.0, max = 0.0;  // over the positions tried
    qint32 samples = 0;           // positions tried
};

// One rotated dimension pair of q (or k): the 2-D vector before and after RoPE.
struct RopePairView {
    qint32 pair = 0;            // i: dimensions (2i, 2i+1), or (i, i + n_rot/2) for NeoX
    QString dims;               // "0, 1" or "0, 32"
    double theta = 0.0;         // radians per position
    double angle = 0.0;         // position x theta, radians (unwrapped)
    QPointF q_before, q_after;  // the query's pair
    QPointF k_before, k_after;  // the key's pair (the key chosen: the strongest weight)
};

struct RopeData {
    bool rope = true;        // false: a NoPE layer (q and k are not rotated)
    bool neox = false;       // NoPE layers: unused
    double base = 0.0;       // the layer's frequency base (10000, 1e6, ...)
    qint32 query_pos = 0, key_pos = 0;
    QVector<RopePairView> pairs;      // a few pairs, fastest first
    QVector<double> theta;            // [pair] the layer's spectrum, radians per position
    QVector<RopeOffsetPoint> offsets; // score (scaled q.k) against m - n
};

// The feed-forward network of one token.
struct FfnData {
    qint32 n_ff = 0;
    QVector<qint32> top_neurons;  // the largest |mlp_act| first
    QVector<double> top_values;   // [i] mlp_act of top_neurons[i] (signed)
    QVector<double> hist_edges;   // [bin + 1] histogram of mlp_act over every neuron
    QVector<qint32> hist_counts;  // [bin]
    double act_norm = 0.0;        // |mlp_act|
    double in_norm = 0.0;         // |resid_mid|, what enters
    double out_norm = 0.0;        // |mlp_out|, what it writes
    double post_norm = 0.0;       // |resid_post| = |resid_mid + mlp_out|
};

// How much each sub-layer writes into the residual stream of one token, layer by layer.
struct ResidualStreamData {
    QVector<double> resid_pre;  // [layer] |resid_pre|
    QVector<double> attn_out;   // [layer] |attn_out|
    QVector<double> mlp_out;    // [layer] |mlp_out|
    QStringList lens_top;       // [layer] the logit lens' top token after the layer (may be empty)
    qint32 layer = -1;          // the selected layer, marked
};

}  // namespace lmscope::widgets
