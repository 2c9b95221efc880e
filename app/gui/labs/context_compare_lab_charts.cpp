#include "gui/labs/context_compare_lab_charts.h"

#include "widgets/plot_style.h"
#include "widgets/trace_colors.h"

#include <QEvent>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lmscope::gui::labs::context_compare {
namespace {

constexpr qint32 kMaxValueTexts = 16;  // more bars than this: no number written at each

QCPColorGradient gradient(bool diverging) {
    QCPColorGradient g;
    g.clearColorStops();
    if (diverging) {
        g.setColorStopAt(0.0, QColor(0x21, 0x66, 0xac));
        g.setColorStopAt(0.5, Qt::white);
        g.setColorStopAt(1.0, QColor(0xb2, 0x18, 0x2b));
    } else {
        for (const auto& [at, color] : widgets::colors::weight_ramp()) g.setColorStopAt(at, color);
    }
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

QCustomPlot* make_plot(QWidget* owner, QCPTextElement** title) {
    auto* layout = new QVBoxLayout(owner);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* plot = new QCustomPlot(owner);
    plot->setMinimumSize(200, 160);
    layout->addWidget(plot);
    plot->plotLayout()->insertRow(0);
    *title = new QCPTextElement(plot);
    plot->plotLayout()->addElement(0, 0, *title);
    return plot;
}

}  // namespace

LabelledBars::LabelledBars(Orientation orientation, QWidget* parent) : QWidget(parent), orientation_(orientation) {
    plot_ = make_plot(this, &title_);
    const bool rows = orientation_ == Orientation::Rows;
    QCPAxis* keys = rows ? plot_->yAxis : plot_->xAxis;
    QCPAxis* vals = rows ? plot_->xAxis : plot_->yAxis;
    keys->grid()->setVisible(false);
    keys->setSubTicks(false);
    keys->setTickLength(0, 0);
    if (rows) keys->setRangeReversed(true);
    else keys->setTickLabelRotation(-50);
    plain_ = new QCPBars(keys, vals);
    plain_->setPen(QPen(QColor(0x2f, 0x6d, 0xb5)));
    plain_->setBrush(QColor(0x9e, 0xc0, 0xe6));
    accent_ = new QCPBars(keys, vals);
    accent_->setPen(QPen(widgets::colors::chosen()));
    accent_->setBrush(QColor(0xf6, 0xb2, 0x6b));
    for (QCPBars* b : {plain_, accent_}) b->setWidth(0.7);
    applyFonts();
}

void LabelledBars::setBars(const QString& title, const QStringList& labels, const QVector<double>& values,
                           const QVector<bool>& highlight, const QString& value_label, double min_top) {
    plot_->clearItems();
    labels_ = labels;
    highlight_ = highlight;
    highlight_.resize(labels.size());
    title_->setText(title);
    const bool rows = orientation_ == Orientation::Rows;
    QCPAxis* keys = rows ? plot_->yAxis : plot_->xAxis;
    QCPAxis* vals = rows ? plot_->xAxis : plot_->yAxis;
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> pk, pv, ak, av;
    double top = min_top;
    const bool write = labels.size() <= kMaxValueTexts;
    for (qint32 i = 0; i < labels.size(); ++i) {
        const double v = i < values.size() ? values[i] : 0.0;
        ticks->addTick(i, labels[i]);
        (highlight_[i] ? ak : pk).push_back(i);
        (highlight_[i] ? av : pv).push_back(v);
        top = std::max(top, v);
        if (!write) continue;
        auto* text = new QCPItemText(plot_);
        text->position->setType(QCPItemPosition::ptPlotCoords);  // on xAxis, yAxis
        text->position->setCoords(rows ? v : i, rows ? i : v);
        text->setPositionAlignment(rows ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignHCenter | Qt::AlignBottom);
        text->setPadding(QMargins(4, 0, 0, 2));
        text->setText(QString::number(v, 'f', v < 0.01 ? 4 : 3));
    }
    plain_->setData(pk, pv, true);
    accent_->setData(ak, av, true);
    keys->setTicker(ticks);
    keys->setRange(-0.6, std::max<qsizetype>(1, labels.size()) - 0.4);
    vals->setRange(0.0, top > 0.0 ? top * (write ? 1.3 : 1.05) : 1.0);
    vals->setLabel(value_label);
    applyFonts();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LabelledBars::clearBars(const QString& title) { setBars(title, {}, {}, {}, QString()); }

QVector<double> LabelledBars::values() const {
    QVector<double> out(labels_.size(), 0.0);
    for (const QCPBars* b : {plain_, accent_})
        for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it) {
            const qint32 i = qint32(std::lround(it->key));
            if (i >= 0 && i < out.size()) out[i] = it->value;
        }
    return out;
}

void LabelledBars::applyFonts() {
    widgets::apply_plot_fonts(plot_, font());
    QFont tokens = font();
    tokens.setPointSizeF(font().pointSizeF() * 1.2);
    (orientation_ == Orientation::Rows ? plot_->yAxis : plot_->xAxis)->setTickLabelFont(tokens);
}

void LabelledBars::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

HeadGrid::HeadGrid(QWidget* parent) : QWidget(parent) {
    plot_ = make_plot(this, &title_);
    QCPAxis* layers = plot_->xAxis;
    QCPAxis* heads = plot_->yAxis;
    heads->setRangeReversed(true);  // head 0 on top
    for (QCPAxis* a : {heads, layers}) {
        a->grid()->setVisible(false);
        a->setSubTicks(false);
    }
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(1, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    auto* rows = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    map_ = new QCPColorMap(layers, heads);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    map_->setColorScale(scale_);
    map_->setGradient(gradient(false));
    marker_ = new QCPItemRect(plot_);
    marker_->setPen(QPen(widgets::colors::selection(), 3));
    marker_->setBrush(Qt::NoBrush);
    marker_->setVisible(false);
    widgets::apply_plot_fonts(plot_, font());
    connect(plot_, &QCustomPlot::mousePress, this, &HeadGrid::onMousePress);
}

void HeadGrid::setGrid(const QString& title, qint32 n_layer, qint32 n_head, const QVector<double>& values, double low,
                       double high, bool diverging, const QString& scale_label) {
    n_layer_ = std::max(0, n_layer);
    n_head_ = std::max(0, n_head);
    title_->setText(title);
    QCPColorMapData* cells = map_->data();
    cells->setSize(std::max(n_layer_, 1), std::max(n_head_, 1));
    cells->setRange(QCPRange(0, std::max(n_layer_ - 1, 0)), QCPRange(0, std::max(n_head_ - 1, 0)));
    cells->fill(std::numeric_limits<double>::quiet_NaN());
    for (qint32 l = 0; l < n_layer_; ++l)
        for (qint32 h = 0; h < n_head_; ++h) {
            const qsizetype i = qsizetype(l) * n_head_ + h;
            if (i < values.size()) cells->setCell(l, h, values[i]);
        }
    map_->setGradient(gradient(diverging));
    map_->setDataRange(QCPRange(low, high > low ? high : low + 1e-6));
    scale_->setLabel(scale_label);
    plot_->xAxis->setLabel(tr("layer"));
    plot_->yAxis->setLabel(tr("head"));
    plot_->xAxis->setRange(-0.5, std::max(n_layer_, 1) - 0.5);
    plot_->yAxis->setRange(-0.5, std::max(n_head_, 1) - 0.5);
    widgets::apply_plot_fonts(plot_, font());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void HeadGrid::setSelected(qint32 layer, qint32 head) {
    const bool inside = layer >= 0 && layer < n_layer_ && head >= 0 && head < n_head_;
    marker_->setVisible(inside);
    marker_->topLeft->setCoords(layer - 0.5, head - 0.5);
    marker_->bottomRight->setCoords(layer + 0.5, head + 0.5);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

double HeadGrid::value(qint32 layer, qint32 head) const {
    if (layer < 0 || layer >= n_layer_ || head < 0 || head >= n_head_) return std::numeric_limits<double>::quiet_NaN();
    return map_->data()->cell(layer, head);
}

QPoint HeadGrid::cellCenter(qint32 layer, qint32 head) const {
    return QPoint(int(plot_->xAxis->coordToPixel(layer)), int(plot_->yAxis->coordToPixel(head)));
}

void HeadGrid::onMousePress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !plot_->axisRect()->rect().contains(event->position().toPoint())) return;
    const qint32 layer = qint32(std::lround(plot_->xAxis->pixelToCoord(event->position().x())));
    const qint32 head = qint32(std::lround(plot_->yAxis->pixelToCoord(event->position().y())));
    if (layer >= 0 && layer < n_layer_ && head >= 0 && head < n_head_) emit cellClicked(layer, head);
}

void HeadGrid::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        widgets::apply_plot_fonts(plot_, font());
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

}  // namespace lmscope::gui::labs::context_compare
