#include "widgets/prefill_chart.h"

#include <qcustomplot.h>

#include <algorithm>

namespace lmscope::widgets {
namespace {

const QColor kWith(0x2e, 0x7d, 0x32);     // with prefix reuse
const QColor kWithout(0xe6, 0x51, 0x00);  // without

QVector<double> values_of(const QCPDataContainer<QCPBarsData>& bars) {
    QVector<double> out;
    for (auto it = bars.constBegin(); it != bars.constEnd(); ++it) out.append(it->value);
    return out;
}

QVector<double> values_of(const QCPDataContainer<QCPGraphData>& graph) {
    QVector<double> out;
    for (auto it = graph.constBegin(); it != graph.constEnd(); ++it) out.append(it->value);
    return out;
}

}  // namespace

PrefillChart::PrefillChart(QWidget* parent) : PlotPanel(parent, 0) {
    QCustomPlot* p = plot();
    with_bars_ = new QCPBars(p->xAxis, p->yAxis);
    without_bars_ = new QCPBars(p->xAxis, p->yAxis);
    auto* group = new QCPBarsGroup(p);
    for (QCPBars* b : {with_bars_, without_bars_}) {
        b->setWidth(0.35);
        b->setBarsGroup(group);
    }
    with_bars_->setBrush(kWith);
    with_bars_->setPen(QPen(kWith.darker(130)));
    without_bars_->setBrush(kWithout);
    without_bars_->setPen(QPen(kWithout.darker(130)));
    p->yAxis2->setVisible(true);
    with_total_ = p->addGraph(p->xAxis, p->yAxis2);
    without_total_ = p->addGraph(p->xAxis, p->yAxis2);
    with_total_->setPen(QPen(kWith, 2, Qt::DashLine));
    without_total_->setPen(QPen(kWithout, 2, Qt::DashLine));
    for (QCPGraph* g : {with_total_, without_total_}) g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    put_legend_below(p, 1);  // under the bars, two columns where they fit, else one
    // The data area at least 160x100 beside its axes' texts and above the legend: QCustomPlot's
    // least size is its layout's, which changes with the legend's rows.
    p->axisRect()->setMinimumSize(160, 100);
    connect(p, &QCustomPlot::beforeReplot, this, [p] {  // the width or the fonts changed
        fit_legend_columns(p, 2);
        p->updateGeometry();
    });
    p->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    retranslate();  // draws the (empty) chart
    applyFonts();
}

void PrefillChart::setData(const QVector<PrefillTurn>& turns) {
    turns_ = turns;
    QVector<double> x, with, without, with_total, without_total;
    auto ticker = plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    double cum_with = 0, cum_without = 0, top = 10;
    for (qsizetype i = 0; i < turns.size(); ++i) {
        const PrefillTurn& t = turns[i];
        x.append(double(i + 1));
        with.append(t.with_reuse);
        without.append(t.without_reuse);
        cum_with += t.with_reuse + t.generated;
        cum_without += t.without_reuse + t.generated;
        with_total.append(cum_with);
        without_total.append(cum_without);
        top = std::max(top, t.without_reuse);
        ticker->addTick(double(i + 1), tr("turn %1").arg(i + 1));
    }
    with_bars_->setData(x, with, true);
    without_bars_->setData(x, without, true);
    with_total_->setData(x, with_total, true);
    without_total_->setData(x, without_total, true);
    plot()->xAxis->setRange(0.4, double(std::max<qsizetype>(turns.size(), 1)) + 0.6);
    plot()->yAxis->setRange(0, top * 1.15);
    plot()->yAxis2->setRange(0, std::max(10.0, cum_without) * 1.15);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

PrefillChart::ViewState PrefillChart::viewState() const {
    ViewState s;
    const auto ticker = plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    s.turns = ticker->ticks().values();
    s.with_reuse = values_of(*with_bars_->data());
    s.without_reuse = values_of(*without_bars_->data());
    s.with_total = values_of(*with_total_->data());
    s.without_total = values_of(*without_total_->data());
    s.names = {with_bars_->name(), without_bars_->name(), with_total_->name(), without_total_->name()};
    s.turn_label = plot()->xAxis->label();
    s.prefill_label = plot()->yAxis->label();
    s.total_label = plot()->yAxis2->label();
    return s;
}

void PrefillChart::retranslate() {
    with_bars_->setName(tr("prefilled with prefix reuse"));
    without_bars_->setName(tr("prefilled without (whole history)"));
    with_total_->setName(tr("running total with reuse (incl. generated)"));
    without_total_->setName(tr("running total without reuse"));
    plot()->xAxis->setLabel(tr("turn"));
    plot()->yAxis->setLabel(tr("tokens per turn"));
    plot()->yAxis2->setLabel(tr("tokens so far"));
    setData(turns_);  // the turns' tick labels
}

}  // namespace lmscope::widgets
