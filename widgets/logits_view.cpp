#include "widgets/logits_view.h"

#include "widgets/format.h"
#include "widgets/plot_style.h"
#include "widgets/trace_colors.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace lmscope::widgets {
namespace {

QString filter_title(Stage stage) {
    switch (stage) {
    case Stage::Raw: return LogitsView::tr("raw");
    case Stage::Penalty: return LogitsView::tr("repetition penalty");
    case Stage::Temperature: return LogitsView::tr("temperature");
    case Stage::TopK: return LogitsView::tr("top-k");
    case Stage::TopP: return LogitsView::tr("top-p");
    case Stage::MinP: return LogitsView::tr("min-p");
    }
    return QStringLiteral("?");
}


// A candidate's text for its row, at most 16 characters (the table export has it whole).
QString elide_token(const QString& text) { return elided(text, 16); }

QString how_name(Choice how) {
    switch (how) {
    case Choice::Greedy: return LogitsView::tr("greedy");
    case Choice::Sampled: return LogitsView::tr("sampled");
    case Choice::Forced: return LogitsView::tr("forced");
    case Choice::Prompt: return LogitsView::tr("prompt");
    }
    return {};
}

}  // namespace

RemovalName removal_name(Stage stage) {
    if (stage == Stage::Temperature) return {QStringLiteral("greedy"), LogitsView::tr("greedy")};
    return {type_name_text(stage_name(stage)), filter_title(stage)};
}

LogitsView::LogitsView(TraceModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("logitsView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    heading_ = new QLabel(this);
    heading_->setObjectName(QStringLiteral("logitsHeading"));
    heading_->setWordWrap(true);
    layout->addWidget(heading_);
    // With and without the heads switched off, under the heading: what a switched-off head
    // changed is read first, never below the chart where a short dock would scroll it away.
    auto* compare_row = new QHBoxLayout;
    layout->addLayout(compare_row);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("logitsPlot"));
    plot_->setMinimumSize(320, 240);
    layout->addWidget(plot_, 1);
    key_ = new QLabel(this);  // what the numbers at the right of each row are
    key_->setObjectName(QStringLiteral("logitsKey"));
    key_->setWordWrap(true);
    layout->addWidget(key_);
    compare_ = new QLabel(this);  // with and without the heads switched off
    compare_->setObjectName(QStringLiteral("logitsComparison"));
    compare_->setWordWrap(true);
    compare_->setTextFormat(Qt::RichText);
    compare_->hide();
    recompute_ = new QPushButton(this);
    recompute_->setObjectName(QStringLiteral("recomputeButton"));
    compare_row->addWidget(compare_, 1);
    compare_row->addWidget(recompute_, 0, Qt::AlignTop);
    connect(recompute_, &QPushButton::clicked, this, [this] {
        if (model_->currentStep() >= 0) emit recomputeStep(model_->currentStep());
    });

    QCPAxis* ranks = plot_->yAxis;
    QCPAxis* probs = plot_->xAxis;
    ranks->setRangeReversed(true);  // the most probable on top
    ranks->grid()->setVisible(false);
    ranks->setSubTicks(false);
    ranks->setTickLength(0, 0);
    probs->setRange(0, 1);
    probs->ticker()->setTickCount(3);  // the bars share the row with the labels and numbers
    probs->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);

    chosen_marker_ = new QCPItemRect(plot_);
    chosen_marker_->setLayer(QStringLiteral("background"));
    chosen_marker_->setPen(QPen(colors::chosen(), 2));
    QColor glow = colors::chosen();
    glow.setAlpha(50);
    chosen_marker_->setBrush(glow);

    auto* group = new QCPBarsGroup(plot_);
    before_ = new QCPBars(ranks, probs);
    before_->setPen(QPen(QColor(0x8a, 0x9b, 0xb0)));
    before_->setBrush(QColor(0xc9, 0xd3, 0xdf));
    after_ = new QCPBars(ranks, probs);
    after_->setPen(QPen(QColor(0x08, 0x30, 0x6b)));
    after_->setBrush(QColor(0x31, 0x82, 0xbd));
    for (QCPBars* b : {before_, after_}) {
        b->setWidth(0.4);
        b->setBarsGroup(group);
    }
    // The numbers of each row on the right axis, so the plot makes room for them: they are
    // never cut at the edge nor drawn over a bar.
    QCPAxis* values = plot_->yAxis2;
    values->setVisible(true);
    values->setRangeReversed(true);
    values->setSubTicks(false);
    values->setTickLength(0, 0);
    values->grid()->setVisible(false);
    connect(ranks, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), values, qOverload<const QCPRange&>(&QCPAxis::setRange));
    // The legend below the bars, one entry per line: never over the data.
    put_legend_below(plot_, 1);
    plot_->legend->setFillOrder(QCPLegend::foRowsFirst);
    plot_->legend->setMargins(QMargins(4, 2, 4, 2));

    applyFonts();
    connect(plot_, &QCustomPlot::mousePress, this, &LogitsView::onMousePress);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const qint32 row = rowAt(e->position());
        if (row >= 0) QToolTip::showText(e->globalPosition().toPoint(), row_tips_[row], plot_);
        else QToolTip::hideText();
    });
    connect(model_, &TraceModel::currentStepChanged, this, &LogitsView::rebuild);
    connect(model_, &TraceModel::ablationChanged, this, &LogitsView::updateComparison);
    rebuild();
}

void LogitsView::setComparison(const AblationComparisonView& comparison) {
    comparison_ = comparison;
    updateComparison();
}

void LogitsView::setRecomputeEnabled(bool on) {
    recompute_enabled_ = on;
    updateComparison();
}

namespace {
QString head_list(const QVector<LayerHead>& heads) {
    QStringList names;
    for (const LayerHead& h : heads) names << LogitsView::tr("L%1 H%2").arg(h.layer).arg(h.head);
    return names.join(QStringLiteral(", "));
}
}  // namespace

void LogitsView::updateComparison() {
    const StepView* s = model_->current();
    recompute_->setText(tr("Recompute this step"));
    recompute_->setToolTip(tr("Rewind to the step before this one and run this step again with the heads switched off now "
                              "(%1); the old result stays as another branch")
                               .arg(model_->ablation().isEmpty() ? tr("none") : head_list(model_->ablation())));
    // Only while it would change something: the heads off now are not those the step ran without.
    recompute_->setVisible(recompute_enabled_ && s && s->ablated != model_->ablation());
    const bool shown = s && !s->ablated.isEmpty() && comparison_.step == s->index &&
                       comparison_.state != AblationComparisonView::State::None;
    compare_->setVisible(shown);
    if (!shown) {
        compare_->clear();
        return;
    }
    QString text = QStringLiteral("<b>") + tr("Heads switched off: %1").arg(head_list(s->ablated).toHtmlEscaped()) +
                   QStringLiteral("</b><br>");
    switch (comparison_.state) {
    case AblationComparisonView::State::None: break;
    case AblationComparisonView::State::Computing:
        text += tr("Computing the distribution without switching them off…");
        break;
    case AblationComparisonView::State::Failed:
        text += tr("The distribution without them could not be computed: %1").arg(comparison_.error.toHtmlEscaped());
        break;
    case AblationComparisonView::State::Ready: {
        text += tr("KL(with ‖ without) = %1 nats: how far switching them off moved the next-token distribution")
                    .arg(comparison_.kl, 0, 'f', 4);
        text += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\"><tr><th align=\"left\">%1</th>"
                               "<th align=\"right\">%2</th><th align=\"right\">%3</th></tr>")
                    .arg(tr("token"), tr("p with them off"), tr("p with every head on"));
        for (const AblationComparisonView::Row& r : comparison_.top)
            text += QStringLiteral("<tr><td>'%1'</td><td align=\"right\">%2</td><td align=\"right\">%3</td></tr>")
                        .arg(display_text(r.text).toHtmlEscaped())
                        .arg(r.with, 0, 'f', 4)
                        .arg(r.without, 0, 'f', 4);
        text += QStringLiteral("</table>");
        break;
    }
    }
    compare_->setText(text);
}

void LogitsView::rebuild() {
    rows_.clear();
    after_probs_.clear();
    row_tips_.clear();
    const StepView* s = model_->current();
    const LogitsData empty;
    const LogitsData& lg = s ? s->logits : empty;
    chosen_ = lg.chosen;

    // Rows: the raw top candidates, then any survivor the raw list lacks.
    rows_ = lg.before();
    for (const CandidateView& c : lg.after())
        if (std::none_of(rows_.begin(), rows_.end(), [&](const CandidateView& r) { return r.id == c.id; })) rows_.push_back(c);
    QVector<double> keys, before, after;
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    auto numbers = QSharedPointer<QCPAxisTickerText>::create();
    double top = 0.0;
    for (qint32 i = 0; i < rows_.size(); ++i) {
        const CandidateView& c = rows_[i];
        double raw = qQNaN(), filtered = qQNaN();
        for (const CandidateView& b : lg.before())
            if (b.id == c.id) raw = b.prob;
        for (const CandidateView& a : lg.after())
            if (a.id == c.id) filtered = a.prob;
        after_probs_.push_back(filtered);
        keys.push_back(i);
        before.push_back(std::isnan(raw) ? 0.0 : raw);
        after.push_back(std::isnan(filtered) ? 0.0 : filtered);
        top = std::max({top, before.back(), after.back()});
        ticks->addTick(i, (c.id == chosen_ ? QStringLiteral("▶ ") : QString()) +
                              QStringLiteral("'%1'").arg(elide_token(display_text(c.text))));
        const qsizetype removed_by = std::isnan(filtered) ? lg.removedBy(c.id) : -1;
        const QString filter = removed_by > 0 ? removal_name(lg.stages[removed_by].stage).title : QString();
        const QString token = QStringLiteral("'%1'").arg(display_text(c.text));
        QString numbers_text, tip;
        if (!std::isnan(filtered)) {
            numbers_text = tr("%1 → %2").arg(raw, 0, 'f', 3).arg(filtered, 0, 'f', 3);
            tip = tr("%1: probability %2 before the filters, %3 after them; logit %4")
                      .arg(token).arg(raw, 0, 'f', 4).arg(filtered, 0, 'f', 4).arg(c.logit, 0, 'f', 3);
        } else if (!filter.isEmpty()) {
            numbers_text = tr("%1 ✗ %2").arg(raw, 0, 'f', 3).arg(filter);
            tip = tr("%1: probability %2 before the filters, removed by %3; logit %4")
                      .arg(token).arg(raw, 0, 'f', 4).arg(filter).arg(c.logit, 0, 'f', 3);
        } else {
            numbers_text = tr("%1 ✗").arg(raw, 0, 'f', 3);
            tip = tr("%1: probability %2 before the filters, filtered out; logit %3")
                      .arg(token).arg(raw, 0, 'f', 4).arg(c.logit, 0, 'f', 3);
        }
        row_tips_.push_back(tip);
        numbers->addTick(i, numbers_text);
    }
    before_->setData(keys, before, true);
    after_->setData(keys, after, true);
    plot_->yAxis->setTicker(ticks);
    plot_->yAxis2->setTicker(numbers);
    key_->setText(tr("Right: probability before → after the filters, or ✗ and the filter that removed the token. "
                     "Hover a row for its logit."));
    plot_->yAxis->setRange(-0.6, std::max<qsizetype>(1, rows_.size()) - 0.4);
    plot_->xAxis->setRange(0, std::min(1.0, top * 1.1 + 0.02));

    const qint32 row = chosenRow();
    chosen_marker_->setVisible(row >= 0);
    chosen_marker_->topLeft->setCoords(plot_->xAxis->range().lower, row - 0.45);
    chosen_marker_->bottomRight->setCoords(plot_->xAxis->range().upper, row + 0.45);

    plot_->xAxis->setLabel(tr("probability"));
    before_->setName(tr("before the filters"));
    if (lg.empty()) {
        after_->setName(tr("after the filters"));
        heading_->setText(tr("No distribution yet: run a step"));
    } else {
        QStringList filters;
        for (qsizetype i = 1; i < lg.stages.size(); ++i) filters << filter_title(lg.stages[i].stage);
        after_->setName(filters.isEmpty() ? tr("after the filters (none)")
                                          : tr("after %1 (%n token(s) left)", nullptr, int(lg.stages.back().survivors))
                                                .arg(filters.join(QStringLiteral(", "))));
        heading_->setText(tr("Next token <b>'%1'</b> (%2), p = %3 → %4 · entropy %5 nats")
                              .arg(display_text(lg.chosen_text).toHtmlEscaped(), how_name(lg.how))
                              .arg(lg.chosen_prob, 0, 'f', 3)
                              .arg(lg.chosen_prob_after, 0, 'f', 3)
                              .arg(lg.entropy, 0, 'f', 2));
    }
    updateComparison();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LogitsView::applyFonts() {
    QFont heading = font();
    heading.setPointSizeF(font().pointSizeF() * 1.3);
    heading_->setFont(heading);
    apply_plot_fonts(plot_, font());
    QFont tokens = font();
    tokens.setPointSizeF(font().pointSizeF() * 1.25);  // the candidates, the panel's point
    plot_->yAxis->setTickLabelFont(tokens);
    // Room for the ten candidates a step records, a line each, above the axis and the legend.
    constexpr int kRows = 10;
    const QFontMetrics rows(tokens), rest(font());
    plot_->setMinimumHeight(int(kRows * rows.height() * 1.2) + 5 * rest.height());
}

void LogitsView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        applyFonts();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    } else if (e->type() == QEvent::LanguageChange) {
        rebuild();  // every text is set there
    }
}

qint32 LogitsView::chosenRow() const {
    for (qint32 i = 0; i < rows_.size(); ++i)
        if (rows_[i].id == chosen_) return i;
    return -1;
}

QPointF LogitsView::rowCenter(qint32 row) const {
    return {plot_->xAxis->coordToPixel(plot_->xAxis->range().center()), plot_->yAxis->coordToPixel(row)};
}

qint32 LogitsView::rowAt(const QPointF& pixel) const {
    // A row is its bars, its token label at their left and its numbers at their right.
    const QRect bars = plot_->axisRect()->rect();
    if (pixel.y() < bars.top() || pixel.y() > bars.bottom()) return -1;
    const qint32 row = qint32(std::lround(plot_->yAxis->pixelToCoord(pixel.y())));
    return row >= 0 && row < rows_.size() ? row : -1;
}

void LogitsView::onMousePress(QMouseEvent* e) {
    // A row's bars and its token label (left of the bars) both force it.
    if (e->button() != Qt::LeftButton || e->position().x() > plot_->axisRect()->rect().right()) return;
    if (const qint32 row = rowAt(e->position()); row >= 0) emit forceToken(rows_[row].id);
}

LogitsView::ViewState LogitsView::viewState() const {
    const auto values = [](const QCPBars* bars) {
        QVector<double> out;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) out.append(it->value);
        return out;
    };
    ViewState s;
    s.labels = plot_->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().values();
    s.before = values(before_);
    s.after = values(after_);
    s.numbers = plot_->yAxis2->ticker().dynamicCast<QCPAxisTickerText>()->ticks().values();
    s.tips = row_tips_;
    if (chosen_marker_->visible()) s.marked_row = qint32(std::lround(chosen_marker_->topLeft->coords().y() + 0.45));
    s.before_name = before_->name();
    s.after_name = after_->name();
    s.probability_label = plot_->xAxis->label();
    s.probability_top = plot_->xAxis->range().upper;
    s.heading = heading_->text();
    s.comparison_shown = !compare_->isHidden();
    s.recompute_enabled = !recompute_->isHidden();
    if (s.comparison_shown) {
        s.comparison_heading = compare_->text();
        if (comparison_.state == AblationComparisonView::State::Ready) {
            s.kl = comparison_.kl;
            for (const AblationComparisonView::Row& r : comparison_.top) {
                s.comparison_tokens << r.text;
                s.with << r.with;
                s.without << r.without;
            }
        }
    }
    return s;
}

ChartTable LogitsView::table() const {
    ChartTable t;
    t.title = tr("Next-token candidates");
    t.columns = {QStringLiteral("id"), QStringLiteral("token"), QStringLiteral("logit"), QStringLiteral("prob_before"),
                 QStringLiteral("prob_after"), QStringLiteral("chosen"), QStringLiteral("removed_by")};
    const StepView* s = model_->current();
    for (qint32 i = 0; i < rows_.size(); ++i) {
        const CandidateView& c = rows_[i];
        const qsizetype removed_by = s && std::isnan(after_probs_[i]) ? s->logits.removedBy(c.id) : -1;
        t.rows.push_back({c.id, c.text, double(c.logit), before_->data()->at(i)->value,
                          std::isnan(after_probs_[i]) ? QVariant() : QVariant(after_probs_[i]), c.id == chosen_,
                          removed_by > 0 ? QVariant(removal_name(s->logits.stages[removed_by].stage).id) : QVariant()});
    }
    return t;
}

}  // namespace lmscope::widgets
