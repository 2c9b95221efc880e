#include "widgets/residual_stream_chart.h"

#include "widgets/format.h"
#include "widgets/trace_colors.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lmscope::widgets {
namespace {

constexpr qint32 kMaxLayerTicks = 16;  // layer numbers written on the layer axis, at most about

// 1, 2, 5, 10, 20, ...: the smallest such step that writes at most `max_ticks` of n layers.
qint32 layer_step(qint32 n, qint32 max_ticks) {
    for (qint32 scale = 1;; scale *= 10)
        for (qint32 m : {1, 2, 5})
            if (qint64(n) <= qint64(m) * scale * max_ticks) return m * scale;
}

}  // namespace

ResidualStreamChart::ResidualStreamChart(QWidget* parent) : PlotPanel(parent, 2) {
    QCustomPlot* p = plot();
    p->setMinimumSize(260, 200);
    band_ = new QCPItemRect(p);
    band_->setLayer(QStringLiteral("grid"));  // under the bars and the line
    band_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    band_->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    band_->setPen(Qt::NoPen);
    QColor accent = colors::chosen();
    accent.setAlpha(50);
    band_->setBrush(accent);
    band_->setVisible(false);

    p->xAxis->grid()->setVisible(false);
    p->xAxis->setSubTicks(false);
    p->xAxis2->grid()->setVisible(false);
    p->xAxis2->setSubTicks(false);
    p->xAxis2->setTickLength(0, 0);
    p->xAxis2->setBasePen(Qt::NoPen);
    connect(p->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), p->xAxis2, qOverload<const QCPRange&>(&QCPAxis::setRange));

    attn_ = new QCPBars(p->xAxis, p->yAxis);
    attn_->setPen(QPen(QColor(0x2f, 0x6d, 0xb5)));
    attn_->setBrush(QColor(0x9e, 0xc0, 0xe6));
    mlp_ = new QCPBars(p->xAxis, p->yAxis);
    mlp_->setPen(QPen(QColor(0x2e, 0x8b, 0x45)));
    mlp_->setBrush(QColor(0xb5, 0xdf, 0xbe));
    group_ = new QCPBarsGroup(p);
    group_->setSpacingType(QCPBarsGroup::stAbsolute);
    group_->setSpacing(1);
    for (QCPBars* b : {attn_, mlp_}) {
        b->setWidth(0.38);
        b->setBarsGroup(group_);
    }
    resid_ = p->addGraph();
    resid_->setPen(QPen(QColor(0x1a, 0x1a, 0x1a), 2));
    resid_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    // The legend lists the line first.
    p->legend->clearItems();
    for (QCPAbstractPlottable* plottable : {static_cast<QCPAbstractPlottable*>(resid_), static_cast<QCPAbstractPlottable*>(attn_),
                                            static_cast<QCPAbstractPlottable*>(mlp_)})
        plottable->addToLegend();
    put_legend_below(p, 1);
    p->legend->setWrap(2);  // two columns: readable in a narrow panel
    p->legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    retranslate();
    applyFonts();
}

void ResidualStreamChart::setData(const ResidualStreamData& stream) {
    data_ = stream;
    rebuild();
}

void ResidualStreamChart::retranslate() {
    resid_->setName(tr("|resid_pre|: the stream"));
    attn_->setName(tr("|attn_out|: attention writes"));
    mlp_->setName(tr("|mlp_out|: the MLP writes"));
    plot()->xAxis->setLabel(tr("layer"));
    plot()->yAxis->setLabel(tr("norm (L2)"));
    plot()->xAxis2->setLabel(tr("logit lens: the top token after the layer"));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void ResidualStreamChart::rebuild() {
    QCustomPlot* p = plot();
    const qint32 n = qint32(std::max({data_.resid_pre.size(), data_.attn_out.size(), data_.mlp_out.size()}));
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    QVector<double> layers(n), resid = data_.resid_pre, attn = data_.attn_out, mlp = data_.mlp_out;
    for (qint32 l = 0; l < n; ++l) layers[l] = l;
    for (QVector<double>* v : {&resid, &attn, &mlp}) v->resize(n, kNaN);  // missing: not drawn
    resid_->setData(layers, resid, true);
    double top = 0.0;
    for (auto [bars, values] : {std::pair{attn_, &attn}, std::pair{mlp_, &mlp}}) {
        QVector<double> k, v;
        for (qint32 l = 0; l < n; ++l)
            if (std::isfinite((*values)[l])) k.push_back(l), v.push_back((*values)[l]);
        bars->setData(k, v, true);
    }
    for (const QVector<double>* v : {&resid, &attn, &mlp})
        for (double x : *v)
            if (std::isfinite(x)) top = std::max(top, x);
    p->yAxis->setRange(0.0, top > 0 ? top * 1.1 : 1.0);

    // The layer axis: every layer while few, else every step-th.
    auto layer_ticks = QSharedPointer<QCPAxisTickerText>::create();
    const qint32 step = layer_step(n, kMaxLayerTicks);
    for (qint32 l = 0; l < n; l += step) layer_ticks->addTick(l, QString::number(l));
    p->xAxis->setTicker(layer_ticks);
    p->xAxis->setRange(-0.6, std::max<qint32>(1, n) - 0.4);

    // The lens' tokens above: each layer's while there is room, else the selected layer's.
    const qint32 selected = data_.layer >= 0 && data_.layer < n ? data_.layer : -1;
    lens_shown_ = QStringList(n, QString());
    auto lens_ticks = QSharedPointer<QCPAxisTickerText>::create();
    for (qint32 l = 0; l < n && l < data_.lens_top.size(); ++l) {
        if (data_.lens_top[l].isEmpty() || (n > kMaxLensLabels && l != selected)) continue;
        lens_shown_[l] = elided(data_.lens_top[l], kMaxLensChars);
        lens_ticks->addTick(l, lens_shown_[l]);
    }
    p->xAxis2->setTicker(lens_ticks);
    p->xAxis2->setTickLabelRotation(n > kAcrossLensLabels && n <= kMaxLensLabels ? -90 : 0);
    p->xAxis2->setVisible(!lens_ticks->ticks().isEmpty());

    band_->setVisible(selected >= 0);
    band_->topLeft->setCoords(selected - 0.5, 0.0);
    band_->bottomRight->setCoords(selected + 0.5, 1.0);
    applyFonts();
    p->replot(QCustomPlot::rpQueuedReplot);
}

ResidualStreamChart::ViewState ResidualStreamChart::viewState() const {
    ViewState s;
    const QCustomPlot* p = plot();
    const qint32 n = qint32(std::max({data_.resid_pre.size(), data_.attn_out.size(), data_.mlp_out.size()}));
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    for (QVector<double>* v : {&s.resid_pre, &s.attn_out, &s.mlp_out}) *v = QVector<double>(n, kNaN);
    for (auto it = resid_->data()->constBegin(); it != resid_->data()->constEnd(); ++it) {
        const qint32 l = qint32(std::lround(it->key));
        if (l >= 0 && l < n) s.resid_pre[l] = it->value;
    }
    for (auto [bars, values] : {std::pair{attn_, &s.attn_out}, std::pair{mlp_, &s.mlp_out}})
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
            const qint32 l = qint32(std::lround(it->key));
            if (l >= 0 && l < n) (*values)[l] = it->value;
        }
    s.selected = band_->visible() ? qint32(std::lround(band_->topLeft->coords().x() + 0.5)) : -1;
    s.lens_labels = QStringList(n, QString());
    if (p->xAxis2->visible())
        if (auto text = p->xAxis2->ticker().dynamicCast<QCPAxisTickerText>())
            for (auto it = text->ticks().constBegin(); it != text->ticks().constEnd(); ++it) {
                const qint32 l = qint32(std::lround(it.key()));
                if (l >= 0 && l < n) s.lens_labels[l] = it.value();
            }
    s.lens_upright = p->xAxis2->tickLabelRotation() != 0;
    for (int i = 0; i < p->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(p->legend->item(i))) s.legend << item->plottable()->name();
    s.layer_label = p->xAxis->label();
    s.norm_label = p->yAxis->label();
    s.lens_label = p->xAxis2->visible() ? p->xAxis2->label() : QString();
    s.norm_high = p->yAxis->range().upper;
    return s;
}

}  // namespace lmscope::widgets
