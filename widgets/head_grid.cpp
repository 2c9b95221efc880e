#include "widgets/head_grid.h"

#include "widgets/trace_colors.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lmscope::widgets {

HeadGrid::HeadGrid(QWidget* parent) : PlotPanel(parent, 2) {
    QCustomPlot* p = plot();
    p->setMinimumSize(200, 160);
    title_ = add_plot_title(p);
    p->yAxis->setRangeReversed(true);  // head 0 on top
    for (QCPAxis* a : {p->xAxis, p->yAxis}) {
        a->grid()->setVisible(false);
        a->setSubTicks(false);
    }
    scale_ = new QCPColorScale(p);
    p->plotLayout()->addElement(1, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    auto* rows = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    map_ = new QCPColorMap(p->xAxis, p->yAxis);  // layers along x, heads along y
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    map_->setColorScale(scale_);
    set_color_ramp(map_, ColorRamp::Weight);
    marker_ = new QCPItemRect(p);
    marker_->setPen(QPen(colors::selection(), 3));
    marker_->setBrush(Qt::NoBrush);
    marker_->setVisible(false);
    retranslate();
    applyFonts();
    connect(p, &QCustomPlot::mousePress, this, &HeadGrid::onMousePress);
}

void HeadGrid::retranslate() {
    plot()->xAxis->setLabel(tr("layer"));
    plot()->yAxis->setLabel(tr("head"));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void HeadGrid::setData(const HeadGridData& grid) {
    n_layer_ = std::max(0, grid.n_layer);
    n_head_ = std::max(0, grid.n_head);
    diverging_ = grid.diverging;
    title_->setText(grid.title);
    QCPColorMapData* cells = map_->data();
    cells->setSize(std::max(n_layer_, 1), std::max(n_head_, 1));
    cells->setRange(QCPRange(0, std::max(n_layer_ - 1, 0)), QCPRange(0, std::max(n_head_ - 1, 0)));
    cells->fill(std::numeric_limits<double>::quiet_NaN());
    for (qint32 l = 0; l < n_layer_; ++l)
        for (qint32 h = 0; h < n_head_; ++h) {
            const qsizetype i = qsizetype(l) * n_head_ + h;
            if (i < grid.values.size()) cells->setCell(l, h, grid.values[i]);
        }
    set_color_ramp(map_, grid.diverging ? ColorRamp::Diverging : ColorRamp::Weight);
    map_->setDataRange(QCPRange(grid.low, grid.high > grid.low ? grid.high : grid.low + 1e-6));
    scale_->setLabel(grid.scale_label);
    plot()->xAxis->setRange(-0.5, std::max(n_layer_, 1) - 0.5);
    plot()->yAxis->setRange(-0.5, std::max(n_head_, 1) - 0.5);
    applyFonts();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void HeadGrid::setSelected(qint32 layer, qint32 head) {
    const bool inside = layer >= 0 && layer < n_layer_ && head >= 0 && head < n_head_;
    selected_layer_ = inside ? layer : -1;
    selected_head_ = inside ? head : -1;
    marker_->setVisible(inside);
    marker_->topLeft->setCoords(layer - 0.5, head - 0.5);
    marker_->bottomRight->setCoords(layer + 0.5, head + 0.5);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

HeadGrid::ViewState HeadGrid::viewState() const {
    ViewState s;
    s.title = title_->text();
    s.layers = n_layer_;
    s.heads = n_head_;
    for (qint32 l = 0; l < n_layer_; ++l)
        for (qint32 h = 0; h < n_head_; ++h) s.cells.push_back(map_->data()->cell(l, h));
    s.low = map_->dataRange().lower;
    s.high = map_->dataRange().upper;
    s.diverging = diverging_;
    s.layer_label = plot()->xAxis->label();
    s.head_label = plot()->yAxis->label();
    s.scale_label = scale_->label();
    s.selected_layer = selected_layer_;
    s.selected_head = selected_head_;
    return s;
}

QPoint HeadGrid::cellCenter(qint32 layer, qint32 head) const {
    return QPoint(int(plot()->xAxis->coordToPixel(layer)), int(plot()->yAxis->coordToPixel(head)));
}

void HeadGrid::onMousePress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !plot()->axisRect()->rect().contains(event->position().toPoint())) return;
    const qint32 layer = qint32(std::lround(plot()->xAxis->pixelToCoord(event->position().x())));
    const qint32 head = qint32(std::lround(plot()->yAxis->pixelToCoord(event->position().y())));
    if (layer >= 0 && layer < n_layer_ && head >= 0 && head < n_head_) emit cellClicked(layer, head);
}

}  // namespace lmscope::widgets
