#include "widgets/lens_rank_chart.h"

#include "widgets/plot_style.h"

#include <qcustomplot.h>

#include <algorithm>

namespace lmscope::widgets {
namespace {

const QColor kRank(0xc6, 0x28, 0x28);
const QColor kProb(0x15, 0x65, 0xc0);

}  // namespace

LensRankChart::LensRankChart(QWidget* parent) : PlotPanel(parent, 0) {
    QCustomPlot* p = plot();
    rank_ = p->addGraph(p->xAxis, p->yAxis);
    prob_ = p->addGraph(p->xAxis, p->yAxis2);
    rank_->setPen(QPen(kRank, 2));
    rank_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    prob_->setPen(QPen(kProb, 2, Qt::DashLine));
    p->yAxis->setScaleType(QCPAxis::stLogarithmic);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    p->yAxis->setRangeReversed(true);  // rank 1 at the top
    use_whole_ticks(p->xAxis);  // layers
    p->yAxis2->setVisible(true);
    p->yAxis2->setRange(0, 1);
    put_legend_below(p, 1);
    setMinimumWidth(fontMetrics().averageCharWidth() * 40);
    retranslate();
    applyFonts();
}

void LensRankChart::setData(const LensRankData& lens) {
    QVector<double> x;
    double worst = 10;
    for (qsizetype l = 0; l < lens.rank.size(); ++l) {
        x.append(double(l));
        worst = std::max(worst, lens.rank[l]);
    }
    rank_->setData(x, lens.rank, true);
    prob_->setData(x, lens.prob, true);  // QCustomPlot keeps the shorter length
    if (!x.isEmpty()) {
        plot()->xAxis->setRange(-0.5, double(x.size()) - 0.5);
        plot()->yAxis->setRange(0.8, worst * 1.5);
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

LensRankChart::ViewState LensRankChart::viewState() const {
    ViewState s;
    for (auto it = rank_->data()->constBegin(); it != rank_->data()->constEnd(); ++it) {
        s.layers.append(it->key);
        s.rank.append(it->value);
    }
    for (auto it = prob_->data()->constBegin(); it != prob_->data()->constEnd(); ++it) s.prob.append(it->value);
    s.rank_name = rank_->name();
    s.prob_name = prob_->name();
    s.layer_label = plot()->xAxis->label();
    s.rank_label = plot()->yAxis->label();
    s.prob_label = plot()->yAxis2->label();
    s.rank_log = plot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
    s.rank_reversed = plot()->yAxis->rangeReversed();
    s.rank_bottom = plot()->yAxis->range().upper;
    return s;
}

void LensRankChart::retranslate() {
    rank_->setName(tr("rank of the final prediction"));
    prob_->setName(tr("its probability"));
    plot()->xAxis->setLabel(tr("layer"));
    plot()->yAxis->setLabel(tr("rank (1 = top)"));
    plot()->yAxis2->setLabel(tr("probability"));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace lmscope::widgets
