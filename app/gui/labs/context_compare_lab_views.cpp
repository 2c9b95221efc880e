// What the Context compare lab draws from its two runs: the attention rows of the chosen
// (layer, head), the layer x head grids of the chosen measure, the next-token top-k and KL.
#include "gui/labs/context_compare_lab.h"

#include "analysis/distribution.h"

#include "tokenizer/tokenizer.h"
#include "widgets/format.h"
#include "widgets/head_grid.h"
#include "widgets/labelled_bars.h"
#include "widgets/trace_model.h"

#include <QLabel>
#include <QSpinBox>
#include <QStringDecoder>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace lmscope::gui::labs {

using widgets::HeadGrid;

namespace {

constexpr qsizetype kMaxLabelChars = 12;

QString short_label(const QString& text) {
    return widgets::elided(widgets::display_text(text), kMaxLabelChars);
}

// A candidate's text: its bytes when they are whole UTF-8 characters, else its vocabulary entry.
QString candidate_text(const tok::Tokenizer& tokenizer, int32_t id) {
    const std::string bytes = tokenizer.token_bytes(id, true);
    QStringDecoder decode(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decode(QByteArray::fromStdString(bytes));
    return decode.hasError() ? QString::fromStdString(tokenizer.piece(id)) : text;
}

}  // namespace

void ContextCompareLab::showRows() {
    for (HeadGrid* g : {sides_[0].grid, sides_[1].grid, diff_grid_}) g->setSelected(layer(), head());
    for (int s = 0; s < kSides; ++s) {
        Side& side = sides_[size_t(s)];
        const qint32 pos = pickedPosition(s);
        if (!side.result || pos < 0) {
            side.row->setData({.title = tr("%1: attention row (no run yet)").arg(sideName(s))});
            continue;
        }
        const std::vector<float> row = context_compare::attention_row(*side.result, layer(), head(), pos);
        widgets::LabelledBarsData bars;
        for (qint32 k = 0; k < qint32(row.size()) && k < side.tokens->sequenceLength(); ++k) {
            bars.labels << short_label(side.tokens->sequence()[k].text);
            bars.values << double(row[size_t(k)]);
            bars.highlight << (k == pos);  // the query itself
        }
        bars.title = tr("%1: what '%2' (position %3) reads\nlayer %4, head %5")
                         .arg(sideName(s), widgets::display_text(pickedText(s)))
                         .arg(pos)
                         .arg(layer())
                         .arg(head());
        bars.value_label = tr("attention weight");
        bars.min_top = 0.05;
        side.row->setData(bars);
    }
}

void ContextCompareLab::showGrids() {
    const context_compare::HeadMeasure m = measure();
    const bool entropy = m == context_compare::HeadMeasure::Entropy;
    const QString unit = entropy ? tr("nats") : tr("weight");
    std::array<std::vector<float>, kSides> grids;
    double top = 0.0;
    for (int s = 0; s < kSides; ++s) {
        const Side& side = sides_[size_t(s)];
        if (side.result && pickedPosition(s) >= 0)
            grids[size_t(s)] = context_compare::measure_grid(*side.result, pickedPosition(s), m);
        for (const float v : grids[size_t(s)])
            if (std::isfinite(v)) top = std::max(top, double(v));
    }
    if (!entropy) top = 1.0;  // weights: always the full 0..1 scale
    for (int s = 0; s < kSides; ++s) {
        const Side& side = sides_[size_t(s)];
        const QVector<double> values(grids[size_t(s)].begin(), grids[size_t(s)].end());
        const qint32 layers = side.result ? side.result->n_layer : 0, heads = side.result ? side.result->n_head : 0;
        side.grid->setData({.title = side.result ? tr("%1: '%2'").arg(sideName(s), widgets::display_text(pickedText(s)))
                                                 : tr("%1: no run yet").arg(sideName(s)),
                            .n_layer = layers,
                            .n_head = heads,
                            .values = values,
                            .low = 0.0,
                            .high = top > 0.0 ? top : 1.0,
                            .diverging = false,
                            .scale_label = unit});
    }
    QVector<double> diff;
    double spread = 0.0;
    const bool same_shape = sides_[0].result && sides_[1].result && grids[0].size() == grids[1].size();
    if (same_shape)
        for (size_t i = 0; i < grids[0].size(); ++i) {
            diff << double(grids[0][i]) - double(grids[1][i]);
            if (std::isfinite(diff.back())) spread = std::max(spread, std::fabs(diff.back()));
        }
    if (spread <= 0.0) spread = 1.0;
    diff_grid_->setData({.title = tr("A − B"),
                         .n_layer = same_shape ? sides_[0].result->n_layer : 0,
                         .n_head = same_shape ? sides_[0].result->n_head : 0,
                         .values = diff,
                         .low = -spread,
                         .high = spread,
                         .diverging = true,
                         .scale_label = unit});
    for (HeadGrid* g : {sides_[0].grid, sides_[1].grid, diff_grid_}) g->setSelected(layer(), head());
}

void ContextCompareLab::showNextTokens() {
    const LabModelPtr m = model();
    const auto& a = sides_[0].result;
    const auto& b = sides_[1].result;
    // Both runs are made together (run()): either both are here or neither.
    std::optional<analysis::DistributionComparison> compared;
    if (m && a && b && a->n_vocab == b->n_vocab && pickedPosition(0) >= 0 && pickedPosition(1) >= 0)
        compared = analysis::compare_distributions(a->logits_at(pickedPosition(0)), b->logits_at(pickedPosition(1)), kTopK);
    std::array<std::vector<analysis::TokenProbs>, kSides> tops;  // A's top and B's
    if (compared) tops = {compared->top_a, compared->top_b};
    for (int s = 0; s < kSides; ++s) {
        Side& side = sides_[size_t(s)];
        side.next_ids.clear();
        if (tops[size_t(s)].empty()) {
            side.next->setData({.title = tr("%1: next token (no run yet)").arg(sideName(s))});
            continue;
        }
        const auto& other = tops[size_t(1 - s)];
        widgets::LabelledBarsData bars;
        for (const analysis::TokenProbs& e : tops[size_t(s)]) {
            side.next_ids << e.id;
            bars.labels << QStringLiteral("'%1'").arg(short_label(candidate_text(*m->tokenizer, e.id)));
            bars.values << (s == 0 ? e.p_a : e.p_b);
            bars.highlight << std::any_of(other.begin(), other.end(), [&](const auto& o) { return o.id == e.id; });
        }
        bars.title = tr("%1: next token after '%2'").arg(sideName(s), widgets::display_text(pickedText(s)));
        bars.value_label = tr("probability");
        side.next->setData(bars);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    kl_shown_ = {nan, nan};
    if (!compared) {
        kl_->setText(tr("Next-token distributions: run both prompts to compare them."));
        return;
    }
    kl_shown_ = {compared->kl_ab, compared->kl_ba};
    kl_->setText(tr("Next-token distributions after the picked tokens (top %1; orange: in both lists). "
                    "KL(A‖B) = %2 nats, KL(B‖A) = %3 nats (0: the same prediction).")
                     .arg(kTopK)
                     .arg(kl_shown_[0], 0, 'f', 4)
                     .arg(kl_shown_[1], 0, 'f', 4));
}

}  // namespace lmscope::gui::labs
