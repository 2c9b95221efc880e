#include "widgets/cache_kl_chart.h"

#include <qcustomplot.h>

#include <algorithm>

namespace lmscope::widgets {

CacheKlChart::CacheKlChart(QWidget* parent) : PlotPanel(parent, 0) {
    QCustomPlot* p = plot();
    p->setMinimumHeight(160);
    p->yAxis->setScaleType(QCPAxis::stLogarithmic);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    p->yAxis->setNumberFormat(QStringLiteral("eb"));
    p->yAxis->setNumberPrecision(0);
    const QColor colors[2] = {QColor(0x2f, 0x6d, 0xb5), QColor(0xc0, 0x39, 0x2b)};
    for (int i = 0; i < 2; ++i) {
        graphs_[i] = p->addGraph();
        graphs_[i]->setPen(QPen(colors[i], 2));
        graphs_[i]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    }
    decode_line_ = new QCPItemStraightLine(p);
    decode_line_->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    decode_line_->setVisible(false);
    put_legend_below(p, 1);  // in its own row: a curve near the top stays readable
    p->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    p->legend->setWrap(2);
    retranslate();
    applyFonts();
}

void CacheKlChart::setData(const CacheKlData& chart) {
    double y_min = 1.0, y_max = 1e-6;
    bool any = false;
    for (int i = 0; i < 2; ++i) {
        const CacheKlSeries& s = chart.series[i];
        caches_[i] = s.cache;
        QVector<double> xs;
        for (qsizetype r = 0; r < s.kl.size(); ++r) {
            xs.push_back(double(r));
            if (s.kl[r] > 0) y_min = std::min(y_min, s.kl[r]), y_max = std::max(y_max, s.kl[r]);
        }
        graphs_[i]->setData(xs, s.kl, true);
        any = any || !s.kl.isEmpty();
    }
    retranslate();  // the legend names the caches
    const double decode_x = double(chart.prompt_rows) - 0.5;  // rows from here on: decode steps
    decode_line_->point1->setCoords(decode_x, 1);
    decode_line_->point2->setCoords(decode_x, 2);
    decode_line_->setVisible(any && chart.decode_rows > 0);
    if (any) {
        plot()->xAxis->setRange(-0.5, double(chart.prompt_rows + chart.decode_rows) - 0.5);
        plot()->yAxis->setRange(std::min(y_min, y_max) / 2, y_max * 2);
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

CacheKlChart::ViewState CacheKlChart::viewState() const {
    ViewState s;
    for (int i = 0; i < 2; ++i) {
        for (auto it = graphs_[i]->data()->constBegin(); it != graphs_[i]->data()->constEnd(); ++it)
            s.kl[i].append(it->value);
        s.names[i] = graphs_[i]->name();
    }
    s.row_label = plot()->xAxis->label();
    s.kl_label = plot()->yAxis->label();
    s.kl_log = plot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
    s.decode_line = decode_line_->visible();
    s.decode_x = decode_line_->point1->coords().x();
    s.kl_low = plot()->yAxis->range().lower;
    s.kl_high = plot()->yAxis->range().upper;
    return s;
}

void CacheKlChart::retranslate() {
    for (int i = 0; i < 2; ++i) graphs_[i]->setName(tr("KL, %1 vs fp16").arg(caches_[i]));
    plot()->xAxis->setLabel(tr("position (the prompt, then the decode steps after the dashed line)"));
    plot()->yAxis->setLabel(tr("KL (nats)"));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace lmscope::widgets
