#include "widgets/kv_growth_chart.h"

#include <QLocale>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lmscope::widgets {
namespace {

// "40 GB", "1.5 MB", "512 B": a tick label in decimal units, at most three significant digits.
QString tick_bytes(double bytes) {
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    int unit = 0;
    while (bytes >= 1000.0 && unit < 5) bytes /= 1000.0, ++unit;
    return QStringLiteral("%1 %2").arg(QLocale().toString(bytes, 'g', 3), QLatin1String(units[unit]));
}

// Byte ticks labelled in decimal units ("40 GB"), on a linear axis.
class LinearBytesTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick < 0 ? QString() : tick_bytes(tick);
    }
};
// The same on a logarithmic axis (ticks at powers of ten).
class LogBytesTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick <= 0 ? QString() : tick_bytes(tick);
    }
};
// Token counts at powers of ten, "100,000".
class LogCountTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick < 1 ? QString() : QLocale().toString(qlonglong(std::llround(tick)));
    }
};

QColor family_color(qint32 family) {
    static const QColor colors[3] = {QColor(0xc0, 0x39, 0x2b), QColor(0x2f, 0x6d, 0xb5), QColor(0x2e, 0x8b, 0x45)};
    return family >= 0 && family < 3 ? colors[family] : QColor(Qt::black);
}

Qt::PenStyle type_style(KvType type) {
    switch (type) {
        case KvType::F16: return Qt::SolidLine;
        case KvType::Q8_0: return Qt::DashLine;
        case KvType::Q4_0: return Qt::DotLine;
    }
    return Qt::SolidLine;
}

KvGrowthCurve curve_of(const QCPGraph* g) {
    KvGrowthCurve c;
    c.name = g->name();
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
        c.tokens.append(it->key);
        c.bytes.append(it->value);
    }
    return c;
}

}  // namespace

KvGrowthChart::KvGrowthChart(QWidget* parent) : PlotPanel(parent, 0) {
    QCustomPlot* p = plot();
    p->setMinimumSize(320, kMinHeight);
    p->setAutoAddPlottableToLegend(false);  // relegend() lists the visible graphs in order
    for (qint32 family = 0; family < 3; ++family)
        for (KvType type : kKvTypes) {
            QCPGraph* g = p->addGraph();
            g->setPen(QPen(family_color(family), type == KvType::F16 ? 3 : 2, type_style(type)));
            g->setVisible(false);
            curves_[family][size_t(type)] = g;
        }
    budget_ = p->addGraph();
    budget_->setPen(QPen(QColor(0x33, 0x33, 0x33), 2));
    kv_space_ = p->addGraph();
    kv_space_->setPen(QPen(QColor(0x88, 0x55, 0x00), 2, Qt::DashDotLine));
    measured_ = p->addGraph();
    measured_->setPen(QPen(QColor(0xd2, 0x6a, 0x00), 3));
    measured_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    p->legend->setBrush(QColor(255, 255, 255, 220));
    put_legend_below(p, 1);  // where it hides no curve
    retranslate();
    applyFonts();
}

void KvGrowthChart::setData(const KvGrowthData& chart) {
    for (auto& row : curves_)
        for (QCPGraph* g : row) g->setVisible(false), g->data()->clear();
    for (const KvGrowthCurve& c : chart.curves) {
        if (c.family < 0 || c.family >= 3) continue;
        QCPGraph* g = curves_[c.family][size_t(c.type)];
        g->setData(c.tokens, c.bytes, true);
        g->setName(c.name);
        g->setVisible(true);
    }
    const double x0 = chart.first_tokens, x1 = chart.last_tokens;
    budget_->setData({x0, x1}, {chart.budget.bytes, chart.budget.bytes}, true);
    budget_->setName(chart.budget.name);
    kv_space_->setVisible(chart.kv_space.has_value());
    kv_space_->data()->clear();
    if (chart.kv_space) {
        kv_space_->setData({x0, x1}, {chart.kv_space->bytes, chart.kv_space->bytes}, true);
        kv_space_->setName(chart.kv_space->name);
    }
    measured_->setData(chart.measured.tokens, chart.measured.bytes, true);
    measured_->setVisible(!chart.measured.tokens.isEmpty());
    measured_->setName(chart.measured.name);
    relegend();
    rescale(chart.log_scale);
}

void KvGrowthChart::relegend() {
    plot()->legend->clearItems();
    for (auto& row : curves_)
        for (QCPGraph* g : row)
            if (g->visible()) g->addToLegend();
    for (QCPGraph* g : {budget_, kv_space_, measured_})
        if (g->visible()) g->addToLegend();
    fitLegend();
}

void KvGrowthChart::fitLegend() {
    QCustomPlot* p = plot();
    fit_legend_columns(p, int(kKvTypes.size()));  // a variant's cache types a row, where they fit
    // However many rows that takes, the chart asks for them below a readable data area (and the
    // axes' ticks and labels), rather than letting the legend squeeze into the data.
    const int axes = 3 * QFontMetrics(p->xAxis->tickLabelFont()).height() + 24;
    p->setMinimumHeight(std::max(kMinHeight, p->legend->minimumOuterSizeHint().height() + kMinDataHeight + axes));
}

void KvGrowthChart::applyFonts() {
    PlotPanel::applyFonts();
    fitLegend();
}

void KvGrowthChart::resizeEvent(QResizeEvent* e) {
    PlotPanel::resizeEvent(e);
    fitLegend();
}

void KvGrowthChart::rescale(bool log) {
    QCustomPlot* p = plot();
    double x_max = 1, y_min = 0, y_max = 0;
    for (int i = 0; i < p->graphCount(); ++i) {
        QCPGraph* g = p->graph(i);
        if (!g->visible() || g->data()->isEmpty()) continue;
        bool found = false;
        const QCPRange keys = g->data()->keyRange(found);
        if (found) x_max = std::max(x_max, keys.upper);
        if (g == budget_ || g == kv_space_) continue;  // the lines join the range below
        const QCPRange values = g->data()->valueRange(found, QCP::sdPositive);
        if (!found) continue;
        y_min = y_min > 0 ? std::min(y_min, values.lower) : values.lower;
        y_max = std::max(y_max, values.upper);
    }
    // A budget far above the curves would flatten them on a linear axis: it joins the range
    // when the scale is logarithmic or when it is within twice the largest curve.
    for (QCPGraph* line : {budget_, kv_space_}) {
        if (!line->visible() || line->data()->isEmpty()) continue;
        const double y = line->data()->begin()->value;
        if (log || y_max <= 0 || y <= 2 * y_max) y_max = std::max(y_max, y), y_min = y_min > 0 ? std::min(y_min, y) : y;
    }
    if (y_max <= 0) y_max = 1;
    if (y_min <= 0) y_min = y_max / 1e6;
    for (QCPAxis* axis : {p->xAxis, p->yAxis}) axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log) {
        p->xAxis->setTicker(QSharedPointer<LogCountTicker>::create());
        p->yAxis->setTicker(QSharedPointer<LogBytesTicker>::create());
        p->xAxis->setRange(1, x_max * 1.5);
        p->yAxis->setRange(y_min / 2, y_max * 3);
    } else {
        p->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        p->yAxis->setTicker(QSharedPointer<LinearBytesTicker>::create());
        p->xAxis->setRange(0, x_max * 1.02);
        p->yAxis->setRange(0, y_max * 1.1);
    }
    p->replot(QCustomPlot::rpQueuedReplot);
}

std::optional<KvGrowthLine> KvGrowthChart::lineOf(const QCPGraph* g) {
    if (!g->visible() || g->data()->isEmpty()) return std::nullopt;
    return KvGrowthLine{g->name(), g->data()->constBegin()->value};
}

KvGrowthChart::ViewState KvGrowthChart::viewState() const {
    ViewState s;
    for (qint32 family = 0; family < 3; ++family)
        for (KvType type : kKvTypes) {
            const QCPGraph* g = curves_[family][size_t(type)];
            if (!g->visible()) continue;
            KvGrowthCurve c = curve_of(g);
            c.family = family;
            c.type = type;
            s.curves.append(c);
        }
    s.budget = lineOf(budget_);
    s.kv_space = lineOf(kv_space_);
    if (measured_->visible()) s.measured = curve_of(measured_);
    for (int i = 0; i < plot()->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot()->legend->item(i))) s.legend << item->plottable()->name();
    s.tokens_label = plot()->xAxis->label();
    s.bytes_label = plot()->yAxis->label();
    s.log_scale = plot()->xAxis->scaleType() == QCPAxis::stLogarithmic && plot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
    return s;
}

void KvGrowthChart::retranslate() {
    plot()->xAxis->setLabel(tr("context length (tokens)"));
    plot()->yAxis->setLabel(tr("KV cache bytes"));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace lmscope::widgets
