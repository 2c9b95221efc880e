#include "widgets/logits_view.h"

#include "widgets/plot_style.h"
#include "widgets/trace_colors.h"

#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace lmscope::widgets {
namespace {

QString filter_title(const QString& id) {
    if (id == QLatin1String("raw")) return LogitsView::tr("raw");
    if (id == QLatin1String("penalty")) return LogitsView::tr("repetition penalty");
    if (id == QLatin1String("temperature")) return LogitsView::tr("temperature");
    if (id == QLatin1String("top_k")) return LogitsView::tr("top-k");
    if (id == QLatin1String("top_p")) return LogitsView::tr("top-p");
    if (id == QLatin1String("min_p")) return LogitsView::tr("min-p");
    return id;
}

QString how_name(TokenOrigin how) {
    switch (how) {
    case TokenOrigin::Greedy: return LogitsView::tr("greedy");
    case TokenOrigin::Sampled: return LogitsView::tr("sampled");
    case TokenOrigin::Forced: return LogitsView::tr("forced");
    case TokenOrigin::Prompt: return LogitsView::tr("prompt");
    }
    return {};
}

}  // namespace

LogitsView::LogitsView(TraceModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("logitsView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    heading_ = new QLabel(this);
    heading_->setObjectName(QStringLiteral("logitsHeading"));
    heading_->setWordWrap(true);
    layout->addWidget(heading_);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("logitsPlot"));
    plot_->setMinimumSize(320, 240);
    layout->addWidget(plot_, 1);

    QCPAxis* ranks = plot_->yAxis;
    QCPAxis* probs = plot_->xAxis;
    ranks->setRangeReversed(true);  // the most probable on top
    ranks->grid()->setVisible(false);
    ranks->setSubTicks(false);
    ranks->setTickLength(0, 0);
    probs->setRange(0, 1);

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
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);

    applyFonts();
    connect(plot_, &QCustomPlot::mousePress, this, &LogitsView::onMousePress);
    connect(model_, &TraceModel::currentStepChanged, this, &LogitsView::rebuild);
    rebuild();
}

void LogitsView::rebuild() {
    for (int i = plot_->itemCount() - 1; i >= 0; --i)
        if (plot_->item(i) != chosen_marker_) plot_->removeItem(i);
    rows_.clear();
    after_probs_.clear();
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
        ticks->addTick(i, (c.id == chosen_ ? QStringLiteral("▶ ") : QString()) + QStringLiteral("'%1'").arg(display_text(c.text)));

        auto* label = new QCPItemText(plot_);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(std::max(before.back(), after.back()), i);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(6, 0, 0, 0));
        const qsizetype removed_by = std::isnan(filtered) ? lg.removedBy(c.id) : -1;
        if (removed_by > 0)
            label->setText(tr("%1 · logit %2 · removed by %3")
                               .arg(raw, 0, 'f', 3)
                               .arg(c.logit, 0, 'f', 2)
                               .arg(filter_title(lg.stages[removed_by].filter)));
        else if (std::isnan(filtered))
            label->setText(tr("%1 · logit %2 · filtered out").arg(raw, 0, 'f', 3).arg(c.logit, 0, 'f', 2));
        else
            label->setText(tr("%1 → %2 · logit %3").arg(raw, 0, 'f', 3).arg(filtered, 0, 'f', 3).arg(c.logit, 0, 'f', 2));
    }
    applyFonts();  // the new value labels
    before_->setData(keys, before, true);
    after_->setData(keys, after, true);
    plot_->yAxis->setTicker(ticks);
    plot_->yAxis->setRange(-0.6, std::max<qsizetype>(1, rows_.size()) - 0.4);
    plot_->xAxis->setRange(0, std::min(1.0, top * 1.45 + 0.05));

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
        for (qsizetype i = 1; i < lg.stages.size(); ++i) filters << filter_title(lg.stages[i].filter);
        after_->setName(filters.isEmpty() ? tr("after the filters (none)")
                                          : tr("after %1 (%n token(s) left)", nullptr, int(lg.stages.back().survivors))
                                                .arg(filters.join(QStringLiteral(", "))));
        heading_->setText(tr("Next token <b>'%1'</b> (%2), p = %3 → %4 · entropy %5 nats")
                              .arg(display_text(lg.chosen_text).toHtmlEscaped(), how_name(lg.how))
                              .arg(lg.chosen_prob, 0, 'f', 3)
                              .arg(lg.chosen_prob_after, 0, 'f', 3)
                              .arg(lg.entropy, 0, 'f', 2));
    }
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

void LogitsView::onMousePress(QMouseEvent* e) {
    // A row's bars and its token label (left of the bars) both force it.
    const QRect bars = plot_->axisRect()->rect();
    const QPoint p = e->position().toPoint();
    if (e->button() != Qt::LeftButton || p.x() > bars.right() || p.y() < bars.top() || p.y() > bars.bottom()) return;
    const qint32 row = qint32(std::lround(plot_->yAxis->pixelToCoord(e->position().y())));
    if (row >= 0 && row < rows_.size()) emit forceToken(rows_[row].id);
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
                          removed_by > 0 ? QVariant(s->logits.stages[removed_by].filter) : QVariant()});
    }
    return t;
}

}  // namespace lmscope::widgets
