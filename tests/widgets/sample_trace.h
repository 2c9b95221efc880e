// A hand-built view model for the loop-panel tests: a 3-layer model with 4 query heads sharing
// 2 KV heads (GQA, groups {0,1} and {2,3}), a 4-token prompt prefilled at step 0, then two
// decode steps (a greedy token, then a forced byte token) = 6 tokens. Optionally a branch:
// step 3 continues step 1 with a sampled token instead.
//
// Attention weights are known in closed form: row q of (layer l, head h) gives key k <= q a
// weight proportional to (k + 1)^(1 + l + h), so each head looks further right the higher it is.
#pragma once

#include "widgets/trace_view.h"

#include <cmath>

namespace lmscope::test {

using namespace lmscope::widgets;

constexpr qint32 kLayers = 3, kHeads = 4, kKvHeads = 2, kHeadDim = 8, kTokens = 6;

// The exact weight (before the view model's half-precision storage).
inline double exact_weight(qint32 l, qint32 h, qint32 q, qint32 k) {
    if (k > q) return 0.0;
    double sum = 0.0;
    for (qint32 j = 0; j <= q; ++j) sum += std::pow(j + 1.0, 1.0 + l + h);
    return std::pow(k + 1.0, 1.0 + l + h) / sum;
}
// As stored (half precision).
inline float stored_weight(qint32 l, qint32 h, qint32 q, qint32 k) {
    return float(qfloat16(float(exact_weight(l, h, q, k))));
}

inline ModelView sample_model_view() {
    ModelView m;
    m.name = QStringLiteral("test-gqa");
    m.n_layer = kLayers;
    m.n_head = kHeads;
    m.n_head_kv = kKvHeads;
    m.head_dim = kHeadDim;
    return m;
}

inline TokenView token(qint32 id, const QString& text, Choice origin, bool byte = false) {
    TokenView t;
    t.id = id;
    t.text = text;
    t.piece = byte ? text : QString(text).replace(QLatin1Char(' '), QStringLiteral("▁"));
    t.origin = origin;
    t.byte_fallback = byte;
    t.n_bytes = byte ? 1 : qint32(text.toUtf8().size());
    return t;
}

inline CandidateView candidate(qint32 id, const QString& text, float logit, float prob) {
    return CandidateView{id, text, logit, prob};
}

// KV bytes held after `tokens` positions: per layer 2 (K, V) x 2 kv heads x 8 dims x 2 bytes.
inline quint64 kv_layer_bytes(qint32 tokens) { return quint64(tokens) * 2 * kKvHeads * kHeadDim * 2; }

// `weight(l, h, q, k)` gives the attention planes (exact_weight unless another is given).
inline StepView make_step(qint32 index, qint32 parent, Phase phase, qint32 first_pos,
                          QVector<TokenView> tokens, double ms,
                          double (*weight)(qint32, qint32, qint32, qint32) = exact_weight) {
    StepView s;
    s.index = index;
    s.parent = parent;
    s.phase = phase;
    s.first_pos = first_pos;
    s.tokens = std::move(tokens);
    s.forward_ms = ms;
    s.sample_ms = 0.25;
    s.n_layer = kLayers;
    s.n_head = kHeads;
    const qint32 rows = qint32(s.tokens.size()), keys = first_pos + rows;
    for (qint32 l = 0; l < kLayers; ++l) {
        s.layer_ms.push_back(ms / kLayers);
        for (qint32 h = 0; h < kHeads; ++h) {
            QVector<float> m(rows * keys, 0.0f);  // [row][key]
            for (qint32 r = 0; r < rows; ++r)
                for (qint32 k = 0; k < keys; ++k) m[r * keys + k] = float(weight(l, h, first_pos + r, k));
            s.planes.push_back(AttentionPlaneView::from_matrix(l, h, first_pos, rows, m));
        }
    }
    for (qint32 l = 0; l < kLayers; ++l)
        for (qint32 h = 0; h < kHeads; ++h)
            for (qint32 r = 0; r < rows; ++r)
                s.summaries.push_back({1.0f, float(weight(l, h, first_pos + r, first_pos + r)), first_pos + r});
    s.kv.tokens = keys;
    s.kv.type = KvType::F16;
    for (qint32 l = 0; l < kLayers; ++l) s.kv.bytes_per_layer.push_back(kv_layer_bytes(keys));
    s.kv.bytes_total = kv_layer_bytes(keys) * kLayers;
    s.kv.formula_bytes = s.kv.bytes_total;
    return s;
}

inline void set_logits(StepView& s, qint32 chosen, Choice how, QVector<CandidateView> before,
                       QVector<CandidateView> after) {
    s.logits.stages = {FilterStageView{Stage::Raw, 49152, std::move(before)},
                       FilterStageView{Stage::TopK, after.size(), std::move(after)}};
    s.logits.entropy = 1.25f;
    s.logits.chosen = chosen;
    s.logits.how = how;
    for (const CandidateView& c : s.logits.stages.front().top)
        if (c.id == chosen) s.logits.chosen_prob = c.prob, s.logits.chosen_text = c.text;
    for (const CandidateView& c : s.logits.stages.back().top)
        if (c.id == chosen) s.logits.chosen_prob_after = c.prob;
}

inline QVector<StepView> sample_steps(bool with_branch = false) {
    QVector<StepView> steps;
    StepView s0 = make_step(0, -1, Phase::Prefill, 0,
                            {token(504, QStringLiteral("The"), Choice::Prompt),
                             token(7539, QStringLiteral(" river"), Choice::Prompt),
                             token(6356, QStringLiteral(" bank"), Choice::Prompt),
                             token(198, QStringLiteral("\n"), Choice::Prompt)},
                            12.5);
    set_logits(s0, 436, Choice::Greedy,
               {candidate(436, QStringLiteral(" was"), 14.0f, 0.5f), candidate(314, QStringLiteral(" is"), 13.3f, 0.25f),
                candidate(11, QStringLiteral(","), 12.6f, 0.125f), candidate(30, QStringLiteral("!"), 11.9f, 0.0625f)},
               {candidate(436, QStringLiteral(" was"), 14.0f, 0.6875f), candidate(314, QStringLiteral(" is"), 13.3f, 0.3125f)});
    steps.push_back(s0);

    StepView s1 = make_step(1, 0, Phase::Decode, 4, {token(436, QStringLiteral(" was"), Choice::Greedy)}, 3.0);
    set_logits(s1, 14, Choice::Forced,
               {candidate(2148, QStringLiteral(" wide"), 9.0f, 0.375f), candidate(1451, QStringLiteral(" full"), 8.5f, 0.25f),
                candidate(14, QStringLiteral("<0xE6>"), 6.0f, 0.0625f)},
               {candidate(2148, QStringLiteral(" wide"), 9.0f, 0.6f), candidate(1451, QStringLiteral(" full"), 8.5f, 0.4f)});
    steps.push_back(s1);

    StepView s2 = make_step(2, 1, Phase::Decode, 5,
                            {token(14, QStringLiteral("<0xE6>"), Choice::Forced, true)}, 3.25);
    set_logits(s2, 30, Choice::Sampled, {candidate(30, QStringLiteral("!"), 5.0f, 0.75f)},
               {candidate(30, QStringLiteral("!"), 5.0f, 1.0f)});
    steps.push_back(s2);

    if (with_branch) {
        StepView s3 = make_step(3, 1, Phase::Decode, 5,
                                {token(2148, QStringLiteral(" wide"), Choice::Sampled)}, 2.75);
        set_logits(s3, 11, Choice::Greedy, {candidate(11, QStringLiteral(","), 7.0f, 0.5f)},
                   {candidate(11, QStringLiteral(","), 7.0f, 1.0f)});
        steps.push_back(s3);
    }
    return steps;
}

// A PNG of the widget for a person to look at (the path is printed).
inline QString snapshot_path(const QString& name) { return QStringLiteral("/tmp/lmscope_%1.png").arg(name); }

}  // namespace lmscope::test
