#include "engine/layer_anatomy.h"

#include "analysis/distribution.h"
#include "engine/model.h"
#include "gguf/quant.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace lmscope::engine {

namespace {

void check_position(const LayerRows& rows, int32_t pos, const char* what) {
    if (pos < 0 || pos >= rows.n)
        throw UsageError(std::string("layer anatomy: ") + what + " " + std::to_string(pos) + " is not among the " +
                         std::to_string(rows.n) + " positions probed");
}

void check_head(const LayerRows& rows, int32_t head) {
    if (head < 0 || head >= rows.dims.n_head)
        throw UsageError("layer anatomy: head " + std::to_string(head) + " does not exist (0 .. " +
                         std::to_string(rows.dims.n_head - 1) + ")");
}

// Head `h` of row `pos` of a [n][heads][hd] buffer.
std::span<const float> head_row(const std::vector<float>& buf, int32_t pos, int32_t heads, int32_t h, int32_t hd) {
    return std::span<const float>(buf).subspan((size_t(pos) * size_t(heads) + size_t(h)) * size_t(hd), size_t(hd));
}

double dot(std::span<const float> a, std::span<const float> b) {
    double s = 0.0;
    for (size_t i = 0; i < a.size(); ++i) s += double(a[i]) * double(b[i]);
    return s;
}

double dot(std::span<const double> a, std::span<const double> b) {
    double s = 0.0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

// The dimensions pair i rotates.
std::pair<int32_t, int32_t> pair_dims(const model::ModelSpec& s, int32_t i) {
    return s.neox() ? std::pair{i, i + s.n_rot() / 2} : std::pair{2 * i, 2 * i + 1};
}

const std::vector<float>& inv_freq(const model::ModelSpec& s, int32_t layer) {
    return s.rope_inv_freq[size_t(s.layers[size_t(layer)].rope_table)];
}

}  // namespace

double l2_norm(std::span<const float> x) { return std::sqrt(dot(x, x)); }

ScoreStages score_stages(const Model& model, const LayerRows& rows, int32_t query, int32_t head) {
    check_position(rows, query, "query");
    check_head(rows, head);
    const model::ModelSpec& s = model.spec();
    const int32_t hd = rows.dims.head_dim, n_kv = rows.dims.n_kv, n = rows.n;
    const int32_t window = s.layers[size_t(rows.layer)].window;
    ScoreStages st;
    st.query = query;
    st.head = head;
    st.kv_head = head / (rows.dims.n_head / n_kv);
    st.scale = double(s.attn_scale);
    const std::span<const float> q = head_row(rows.q_rot, query, rows.dims.n_head, head, hd);
    st.dot.resize(size_t(n));
    st.scaled.resize(size_t(n));
    st.hidden.resize(size_t(n));
    st.masked.resize(size_t(n));
    double top = -std::numeric_limits<double>::infinity();
    for (int32_t j = 0; j < n; ++j) {
        st.dot[size_t(j)] = dot(q, head_row(rows.k_rot, j, n_kv, st.kv_head, hd));
        st.scaled[size_t(j)] = st.dot[size_t(j)] * st.scale;
        if (s.attn_softcap > 0.0f) st.scaled[size_t(j)] = s.attn_softcap * std::tanh(st.scaled[size_t(j)] / s.attn_softcap);
        st.hidden[size_t(j)] = j > query                               ? KeyHidden::Future
                               : window > 0 && query - j >= window ? KeyHidden::OutsideWindow
                                                                   : KeyHidden::No;
        st.masked[size_t(j)] = st.hidden[size_t(j)] == KeyHidden::No ? st.scaled[size_t(j)]
                                                                      : -std::numeric_limits<double>::infinity();
        top = std::max(top, st.masked[size_t(j)]);
    }
    st.weights.assign(size_t(n), 0.0);
    double sum = 0.0;
    for (int32_t j = 0; j < n; ++j)
        if (st.hidden[size_t(j)] == KeyHidden::No) sum += st.weights[size_t(j)] = std::exp(st.masked[size_t(j)] - top);
    for (double& w : st.weights) w /= sum;
    return st;
}

Mix mix(const Model& model, const LayerRows& rows, const ScoreStages& stages, int32_t top_n) {
    check_position(rows, stages.query, "query");
    check_head(rows, stages.head);
    const int32_t hd = rows.dims.head_dim, n_kv = rows.dims.n_kv, n_head = rows.dims.n_head;
    Mix m;
    std::vector<MixTerm> terms;
    m.sum.assign(size_t(hd), 0.0f);
    for (int32_t j = 0; j < int32_t(stages.weights.size()); ++j) {
        const double w = stages.weights[size_t(j)];
        if (w == 0.0) continue;
        MixTerm t{.key = j, .weight = w, .term = std::vector<float>(size_t(hd))};
        const std::span<const float> v = head_row(rows.v, j, n_kv, stages.kv_head, hd);
        for (int32_t d = 0; d < hd; ++d) t.term[size_t(d)] = float(w * double(v[size_t(d)]));
        t.norm = l2_norm(t.term);
        for (int32_t d = 0; d < hd; ++d) m.sum[size_t(d)] += t.term[size_t(d)];
        terms.push_back(std::move(t));
    }
    std::stable_sort(terms.begin(), terms.end(), [](const MixTerm& a, const MixTerm& b) { return a.norm > b.norm; });
    const size_t keep = std::min(terms.size(), size_t(std::max(0, top_n)));
    m.rest.assign(size_t(hd), 0.0f);
    for (size_t i = keep; i < terms.size(); ++i)
        for (int32_t d = 0; d < hd; ++d) m.rest[size_t(d)] += terms[i].term[size_t(d)];
    terms.resize(keep);
    m.top = std::move(terms);
    const std::span<const float> z = head_row(rows.z, stages.query, n_head, stages.head, hd);
    m.z.assign(z.begin(), z.end());

    // Wo: [n_head * hd] x n_embd rows; row e holds the weights of output e over concat(z).
    const std::vector<float> wo = gguf::dequantize(*model.weights().layers[size_t(rows.layer)].wo);
    const size_t width = size_t(n_head) * size_t(hd), E = size_t(rows.dims.n_embd);
    m.head_share.assign(size_t(n_head), 0.0);
    std::vector<double> share(E);
    for (int32_t h = 0; h < n_head; ++h) {
        const std::span<const float> zh = head_row(rows.z, stages.query, n_head, h, hd);
        double sq = 0.0;
        for (size_t e = 0; e < E; ++e) {
            share[e] = dot(std::span<const float>(wo).subspan(e * width + size_t(h) * size_t(hd), size_t(hd)), zh);
            sq += share[e] * share[e];
        }
        m.head_share[size_t(h)] = std::sqrt(sq);
        if (h == stages.head) m.share.assign(share.begin(), share.end());
    }
    return m;
}

std::vector<double> rope_rotate(const Model& model, int32_t layer, std::span<const float> head_vec, int32_t pos) {
    const model::ModelSpec& s = model.spec();
    std::vector<double> out(head_vec.begin(), head_vec.end());
    if (!s.layers[size_t(layer)].rope) return out;
    const std::vector<float>& f = inv_freq(s, layer);
    for (int32_t i = 0; i < s.n_rot() / 2; ++i) {
        const auto [a, b] = pair_dims(s, i);
        // the engine's angle: the float position times the float frequency, rounded to float
        const double angle = double(float(pos) * f[size_t(i)]);
        const double c = std::cos(angle), sn = std::sin(angle);
        const double x = head_vec[size_t(a)], y = head_vec[size_t(b)];
        out[size_t(a)] = x * c - y * sn;
        out[size_t(b)] = x * sn + y * c;
    }
    return out;
}

RopeDemo rope_demo(const Model& model, const LayerRows& rows, int32_t query, int32_t key, int32_t head,
                   int32_t pairs, int32_t max_offset, int32_t samples) {
    check_position(rows, query, "query");
    check_position(rows, key, "key");
    check_head(rows, head);
    const model::ModelSpec& s = model.spec();
    const int32_t hd = rows.dims.head_dim, n_kv = rows.dims.n_kv, n_head = rows.dims.n_head;
    const model::LayerPlan& plan = s.layers[size_t(rows.layer)];
    RopeDemo r;
    r.rope = plan.rope;
    r.neox = s.neox();
    r.base = plan.rope_table == 1 ? s.hp.rope_freq_base_swa.value_or(s.hp.rope_freq_base) : s.hp.rope_freq_base;
    r.query = query;
    r.key = key;
    r.head = head;
    r.kv_head = head / (n_head / n_kv);
    const std::span<const float> q = head_row(rows.q, query, n_head, head, hd);
    const std::span<const float> k = head_row(rows.k, key, n_kv, r.kv_head, hd);
    if (r.rope) {
        const std::vector<float>& f = inv_freq(s, rows.layer);
        r.theta.assign(f.begin(), f.end());
        const std::span<const float> qr = head_row(rows.q_rot, query, n_head, head, hd);
        const std::span<const float> kr = head_row(rows.k_rot, key, n_kv, r.kv_head, hd);
        const int32_t n_pairs = int32_t(f.size());
        const int32_t shown = std::clamp(pairs, 1, std::max(1, n_pairs));
        for (int32_t c = 0; c < shown; ++c) {
            const int32_t i = shown == 1 ? 0 : int32_t(std::lround(double(c) * (n_pairs - 1) / (shown - 1)));
            if (!r.pairs.empty() && r.pairs.back().pair == i) continue;
            const auto [a, b] = pair_dims(s, i);
            RopePair p{.pair = i, .dim_a = a, .dim_b = b, .theta = double(f[size_t(i)])};
            p.q_angle = double(query) * p.theta;
            p.k_angle = double(key) * p.theta;
            p.q_before[0] = q[size_t(a)], p.q_before[1] = q[size_t(b)];
            p.q_after[0] = qr[size_t(a)], p.q_after[1] = qr[size_t(b)];
            p.k_before[0] = k[size_t(a)], p.k_before[1] = k[size_t(b)];
            p.k_after[0] = kr[size_t(a)], p.k_after[1] = kr[size_t(b)];
            r.pairs.push_back(p);
        }
    }
    // The same q and k at positions (m, m - d): m = d + t * stride, t < samples.
    constexpr int32_t kStride = 37;
    const double scale = double(s.attn_scale);
    for (int32_t d = 0; d <= max_offset; ++d) {
        RopeOffset o{.offset = d, .min = std::numeric_limits<double>::infinity(),
                     .max = -std::numeric_limits<double>::infinity()};
        double sum = 0.0;
        for (int32_t t = 0; t < samples; ++t) {
            const int32_t m = d + t * kStride;
            double score = scale * dot(rope_rotate(model, rows.layer, q, m), rope_rotate(model, rows.layer, k, m - d));
            if (s.attn_softcap > 0.0f) score = s.attn_softcap * std::tanh(score / s.attn_softcap);
            o.min = std::min(o.min, score);
            o.max = std::max(o.max, score);
            sum += score;
            ++o.samples;
        }
        o.mean = o.samples > 0 ? sum / o.samples : 0.0;
        r.offsets.push_back(o);
    }
    return r;
}

FfnAnatomy ffn_anatomy(const LayerRows& rows, int32_t pos, int32_t top_n, int32_t bins) {
    check_position(rows, pos, "position");
    const int32_t F = rows.dims.n_ff, E = rows.dims.n_embd;
    const std::span<const float> act = LayerRows::row(rows.mlp_act, pos, F);
    FfnAnatomy f;
    std::vector<float> mag(act.size());
    std::transform(act.begin(), act.end(), mag.begin(), [](float v) { return std::fabs(v); });
    f.top = analysis::top_k(std::span<const float>(mag), top_n);
    for (int32_t i : f.top) f.top_values.push_back(double(act[size_t(i)]));
    const auto [lo_it, hi_it] = std::minmax_element(act.begin(), act.end());
    double lo = *lo_it, hi = *hi_it;
    if (hi <= lo) hi = lo + 1.0;
    const int32_t nb = std::max(1, bins);
    for (int32_t b = 0; b <= nb; ++b) f.edges.push_back(lo + (hi - lo) * b / nb);
    f.counts.assign(size_t(nb), 0);
    for (float v : act) ++f.counts[size_t(std::clamp(int32_t((double(v) - lo) / (hi - lo) * nb), 0, nb - 1))];
    f.act_norm = l2_norm(act);
    f.in_norm = l2_norm(LayerRows::row(rows.resid_mid, pos, E));
    f.out_norm = l2_norm(LayerRows::row(rows.mlp_out, pos, E));
    f.post_norm = l2_norm(LayerRows::row(rows.resid_post, pos, E));
    return f;
}

StreamNorms stream_norms(const Model& model, const LayerRows& rows, int32_t pos) {
    check_position(rows, pos, "position");
    const int32_t L = model.spec().n_layer();
    StreamNorms s;
    for (int32_t l = 0; l < L; ++l) {
        const size_t at = (size_t(pos) * size_t(L) + size_t(l)) * 3;
        s.resid_pre.push_back(rows.stream[at + size_t(StreamPart::ResidPre)]);
        s.attn_out.push_back(rows.stream[at + size_t(StreamPart::AttnOut)]);
        s.mlp_out.push_back(rows.stream[at + size_t(StreamPart::MlpOut)]);
    }
    return s;
}

}  // namespace lmscope::engine
