#include "gui/layer_figures.h"

#include "engine/layer_anatomy.h"
#include "engine/model.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lmscope::gui {

namespace {

// lupdate files this file's tr("...") calls under the namespace's context.
QString tr(const char* text) { return QCoreApplication::translate("lmscope::gui", text); }

constexpr int32_t kMixTerms = 5;     // the largest w_j v_j drawn one by one
constexpr int32_t kRopePairs = 4;    // pairs of the RoPE tab, fastest to slowest
constexpr int32_t kRopeOffsets = 32; // offsets 0 .. 32 of the relative-position plot
constexpr int32_t kRopeSamples = 8;  // positions tried per offset
constexpr int32_t kTopNeurons = 12;
constexpr int32_t kHistogramBins = 40;

// A strip of `v` (the label already translated), in scale group `group`.
void add_strip(widgets::VectorStripsData& d, const QString& label, std::span<const float> v, qint32 group) {
    d.strips.push_back({label, QVector<float>(v.begin(), v.end()), engine::l2_norm(v)});
    d.group.push_back(group);
}

// Head `h` of row `pos` of a [n][heads][hd] buffer.
std::span<const float> head_of(const std::vector<float>& buf, int32_t pos, int32_t heads, int32_t h, int32_t hd) {
    return std::span<const float>(buf).subspan((size_t(pos) * size_t(heads) + size_t(h)) * size_t(hd), size_t(hd));
}

QString token_at(const LayerRequest& r, qint32 pos) {
    return pos >= 0 && pos < r.labels.size() ? r.labels[pos] : QString::number(pos);
}

void fill_vectors(LayerFigures& f, const engine::LayerRows& rows, const LayerRequest& r) {
    const int32_t E = rows.dims.n_embd, hd = rows.dims.head_dim, H = rows.dims.n_head, KV = rows.dims.n_kv;
    const int32_t q = r.query;
    auto& d = f.vectors;
    d.title = tr("Token “%1” (position %2) in layer %3, head %4").arg(token_at(r, q)).arg(q).arg(r.layer).arg(r.head);
    add_strip(d, tr("resid_pre: entering the layer"), engine::LayerRows::row(rows.resid_pre, q, E), 0);
    add_strip(d, tr("attn_in: after the norm"), engine::LayerRows::row(rows.attn_in, q, E), 1);
    add_strip(d, tr("q: what it is looking for"), head_of(rows.q, q, H, r.head, hd), 2);
    add_strip(d, tr("q after RoPE"), head_of(rows.q_rot, q, H, r.head, hd), 2);
    add_strip(d, tr("k: what it offers (KV head %1)").arg(f.kv_head), head_of(rows.k, q, KV, f.kv_head, hd), 3);
    add_strip(d, tr("k after RoPE"), head_of(rows.k_rot, q, KV, f.kv_head, hd), 3);
    add_strip(d, tr("v: what it carries"), head_of(rows.v, q, KV, f.kv_head, hd), 4);

    f.keys.title = tr("k (after RoPE) and v of every token up to “%1”").arg(token_at(r, q));
    for (int32_t j = 0; j <= q; ++j)
        add_strip(f.keys, tr("k of “%1” (%2)").arg(token_at(r, j)).arg(j), head_of(rows.k_rot, j, KV, f.kv_head, hd), 0);
    for (int32_t j = 0; j <= q; ++j)
        add_strip(f.keys, tr("v of “%1” (%2)").arg(token_at(r, j)).arg(j), head_of(rows.v, j, KV, f.kv_head, hd), 1);
}

void fill_scores(LayerFigures& f, const engine::ScoreStages& st, const LayerRequest& r) {
    widgets::ScoreStagesData& s = f.scores;
    s.query = st.query;
    s.scale = st.scale;
    for (size_t j = 0; j < st.dot.size(); ++j) {
        s.key_labels << token_at(r, qint32(j));
        s.dot << st.dot[j];
        s.scaled << st.scaled[j];
        s.mask << (st.hidden[j] == engine::KeyHidden::Future          ? widgets::KeyMask::Future
                   : st.hidden[j] == engine::KeyHidden::OutsideWindow ? widgets::KeyMask::OutsideWindow
                                                                      : widgets::KeyMask::Visible);
        s.masked << st.masked[j];
        s.weights << st.weights[j];
    }
}

void fill_mix(LayerFigures& f, const engine::Mix& m, const LayerRequest& r) {
    f.mix.title = tr("z = Σ w_j v_j: the largest terms, the rest, and the sum (head %1)").arg(r.head);
    for (const engine::MixTerm& t : m.top)
        add_strip(f.mix, tr("%1 × v of “%2” (%3)").arg(t.weight, 0, 'f', 3).arg(token_at(r, t.key)).arg(t.key), t.term, 0);
    add_strip(f.mix, tr("+ the other terms"), m.rest, 0);
    add_strip(f.mix, tr("= z, the head's output"), m.z, 0);
    widgets::LabelledBarsData& b = f.head_shares;
    b.title = f.post_attn_norm ? tr("What each head writes: |Wo · z_h| (before the post-attention norm)")
                               : tr("What each head writes into attn_out: |Wo · z_h|");
    b.value_label = tr("norm");
    for (size_t h = 0; h < m.head_share.size(); ++h) {
        b.labels << tr("H%1").arg(h);
        b.values << m.head_share[h];
        b.highlight << (qint32(h) == r.head);
    }
}

void fill_rope(LayerFigures& f, const engine::RopeDemo& d) {
    widgets::RopeData& r = f.rope;
    r.rope = d.rope;
    r.neox = d.neox;
    r.base = d.base;
    r.query_pos = d.query;
    r.key_pos = d.key;
    for (const engine::RopePair& p : d.pairs)
        r.pairs.push_back({p.pair, QStringLiteral("%1, %2").arg(p.dim_a).arg(p.dim_b), p.theta, p.q_angle,
                           QPointF(p.q_before[0], p.q_before[1]), QPointF(p.q_after[0], p.q_after[1]),
                           QPointF(p.k_before[0], p.k_before[1]), QPointF(p.k_after[0], p.k_after[1])});
    r.theta = QVector<double>(d.theta.begin(), d.theta.end());
    for (const engine::RopeOffset& o : d.offsets) r.offsets.push_back({o.offset, o.min, o.max, o.samples});
}

void fill_ffn(LayerFigures& f, const engine::LayerRows& rows, const LayerRequest& r) {
    const engine::FfnAnatomy a = engine::ffn_anatomy(rows, r.query, kTopNeurons, kHistogramBins);
    widgets::FfnData& d = f.ffn;
    d.n_ff = rows.dims.n_ff;
    d.top_neurons = QVector<qint32>(a.top.begin(), a.top.end());
    d.top_values = QVector<double>(a.top_values.begin(), a.top_values.end());
    d.hist_edges = QVector<double>(a.edges.begin(), a.edges.end());
    d.hist_counts = QVector<qint32>(a.counts.begin(), a.counts.end());
    d.act_norm = a.act_norm;
    d.in_norm = a.in_norm;
    d.out_norm = a.out_norm;
    d.post_norm = a.post_norm;
    const int32_t E = rows.dims.n_embd;
    f.ffn_strips.title = tr("The residual add: what the FFN writes into the stream");
    add_strip(f.ffn_strips, tr("resid_mid: after attention"), engine::LayerRows::row(rows.resid_mid, r.query, E), 0);
    add_strip(f.ffn_strips, tr("+ mlp_out: the FFN writes"), engine::LayerRows::row(rows.mlp_out, r.query, E), 0);
    add_strip(f.ffn_strips, tr("= resid_post: leaving the layer"), engine::LayerRows::row(rows.resid_post, r.query, E), 0);
}

}  // namespace

LayerFigures layer_figures(const engine::Model& model, const engine::LayerRows& rows, const LayerRequest& request) {
    LayerFigures f;
    f.request = request;
    f.n_head = rows.dims.n_head;
    f.n_kv = rows.dims.n_kv;
    f.head_dim = rows.dims.head_dim;
    f.kv_head = request.head / std::max(1, rows.dims.n_head / rows.dims.n_kv);
    f.post_attn_norm = model.spec().arch.post_norms;

    const engine::ScoreStages st = engine::score_stages(model, rows, request.query, request.head);
    fill_vectors(f, rows, request);
    fill_scores(f, st, request);
    fill_mix(f, engine::mix(model, rows, st, kMixTerms), request);
    // The key of the RoPE pairs: the one the query weighs most.
    const auto strongest = std::max_element(st.weights.begin(), st.weights.end());
    const int32_t key = int32_t(strongest - st.weights.begin());
    fill_rope(f, engine::rope_demo(model, rows, request.query, key, request.head, kRopePairs, kRopeOffsets, kRopeSamples));
    fill_ffn(f, rows, request);
    const engine::StreamNorms s = engine::stream_norms(model, rows, request.query);
    f.stream.resid_pre = QVector<double>(s.resid_pre.begin(), s.resid_pre.end());
    f.stream.attn_out = QVector<double>(s.attn_out.begin(), s.attn_out.end());
    f.stream.mlp_out = QVector<double>(s.mlp_out.begin(), s.mlp_out.end());
    f.stream.layer = request.layer;
    return f;
}

}  // namespace lmscope::gui
