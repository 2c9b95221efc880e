#include "widgets/rope_view.h"

#include "widgets/plot_style.h"
#include "widgets/trace_colors.h"

#include <QEvent>
#include <QResizeEvent>
#include <QScrollArea>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace lmscope::widgets {
namespace {

constexpr int kMaxPairColumns = 4;     // pair plots per row, when the view is wide enough
constexpr int kPairWidth = 240;        // the room of one pair plot: its 160 px square and axes
constexpr double kFlat = 1e-4;         // the offset plot is flat when max - min stays within this
constexpr int kMaxSquarePasses = 3;    // replots in a row to give the pair plots equal scales
const QColor kQuery(0x2f, 0x6d, 0xb5);  // q: blue (the prompt's outline)
const QColor kTheta(0x2f, 0x6d, 0xb5);
const QColor kScore(0x2e, 0x8b, 0x45);

double length(const QPointF& p) { return std::hypot(p.x(), p.y()); }

QFont scaled(const QFont& base, double factor, bool bold = false) {
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * factor);
    f.setBold(bold);
    return f;
}

QCPItemLine* arrow(QCustomPlot* plot, QCPAxisRect* rect, const QPointF& tip, const QColor& color, bool dashed) {
    auto* line = new QCPItemLine(plot);
    line->setClipAxisRect(rect);
    for (QCPItemPosition* p : {line->start, line->end}) {
        p->setType(QCPItemPosition::ptPlotCoords);
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    }
    line->start->setCoords(0.0, 0.0);
    line->end->setCoords(tip);
    line->setPen(QPen(color, dashed ? 1.5 : 2.5, dashed ? Qt::DashLine : Qt::SolidLine));
    line->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 9, 11));
    return line;
}

QVector<double> values(const QCPGraph* g) {
    QVector<double> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.append(it->value);
    return out;
}

QVector<double> keys(const QCPGraph* g) {
    QVector<double> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.append(it->key);
    return out;
}

constexpr int kPairRowHeight = 260;  // a row of pair plots: three title lines and a square of 160 px
constexpr int kChartHeight = 300;  // the spectrum and the offsets: title, data, axes, legend

}  // namespace

RopeView::RopeView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    message_ = new QLabel(this);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    message_->setMargin(12);
    message_->hide();
    layout->addWidget(message_, 3);
    // The figures one under another, each at a height a class can read, scrolling when the
    // panel is lower (at 1280x720 side by side they were squashed and their titles clipped).
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("ropeScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget(scroll);
    auto* figures = new QVBoxLayout(content);
    figures->setContentsMargins(0, 0, 0, 0);
    key_ = new QLabel(content);
    key_->setWordWrap(true);
    figures->addWidget(key_);
    pairs_plot_ = new QCustomPlot(content);
    pairs_plot_->setMinimumSize(kPairWidth, kPairRowHeight);
    figures->addWidget(pairs_plot_, 3);
    spectrum_plot_ = new QCustomPlot(content);
    offset_plot_ = new QCustomPlot(content);
    for (QCustomPlot* p : {spectrum_plot_, offset_plot_}) {
        p->setMinimumSize(240, kChartHeight);
        figures->addWidget(p, 2);
    }
    caption_ = new QLabel(content);
    caption_->setWordWrap(true);
    figures->addWidget(caption_);
    scroll->setWidget(content);
    layout->addWidget(scroll, 3);

    // Spectrum: θ per pair on a log axis, the wavelength 2π/θ on the right one.
    QCustomPlot* s = spectrum_plot_;
    spectrum_title_ = add_plot_title(s);
    spectrum_ = s->addGraph(s->xAxis, s->yAxis);
    spectrum_->setPen(QPen(kTheta, 1.5));
    spectrum_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kTheta, 5));
    marked_ = s->addGraph(s->xAxis, s->yAxis);
    marked_->setLineStyle(QCPGraph::lsNone);
    marked_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colors::chosen(), 2.5), Qt::NoBrush, 12));
    for (QCPAxis* axis : {s->yAxis, s->yAxis2}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        axis->setNumberFormat(QStringLiteral("gb"));
    }
    s->yAxis2->setVisible(true);
    s->yAxis2->setRangeReversed(true);  // the wavelength falls as θ rises
    s->xAxis->grid()->setVisible(false);
    put_legend_below(s, 2);

    // Relative position: the band between the lowest and the highest score, and its middle.
    QCustomPlot* o = offset_plot_;
    offset_title_ = add_plot_title(o);
    min_ = o->addGraph(o->xAxis, o->yAxis);
    max_ = o->addGraph(o->xAxis, o->yAxis);
    middle_ = o->addGraph(o->xAxis, o->yAxis);
    for (QCPGraph* g : {min_, max_}) g->setPen(QPen(kScore, 1.5));
    QColor band = kScore;
    band.setAlpha(50);
    max_->setBrush(band);
    max_->setChannelFillGraph(min_);
    middle_->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
    middle_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    put_legend_below(o, 2);

    connect(pairs_plot_, &QCustomPlot::afterLayout, this, &RopeView::squarePairs);
    rebuild();
}

void RopeView::setData(const RopeData& rope) {
    data_ = rope;
    rebuild();
}

void RopeView::setLayer(qint32 layer) {
    layer_ = layer;
    rebuild();
}

void RopeView::rebuild() {
    const bool rope = data_.rope;
    message_->setVisible(!rope);
    key_->setVisible(rope && !data_.pairs.isEmpty());  // it says what the pairs' arrows are
    pairs_plot_->setVisible(rope);
    spectrum_plot_->setVisible(rope);
    if (rope) {
        message_->clear();
    } else {
        const QString rest = tr("q and k are not rotated; position reaches this layer only through the causal mask "
                                "and the residual stream");
        message_->setText(layer_ >= 0 ? tr("Layer %1 uses no RoPE (NoPE): %2").arg(layer_).arg(rest)
                                      : tr("This layer uses no RoPE (NoPE): %1").arg(rest));
    }
    key_->setText(tr("q blue, k orange; dashed: before the rotation, solid: after it (q at position %1, k at "
                     "position %2); each pair turns by angle = position × θ")
                      .arg(data_.query_pos)
                      .arg(data_.key_pos));
    buildPairs();
    buildSpectrum();
    buildOffsets();
    applyFonts();
    for (QCustomPlot* p : {pairs_plot_, spectrum_plot_, offset_plot_}) p->replot(QCustomPlot::rpQueuedReplot);
}

void RopeView::buildPairs() {
    QCustomPlot* p = pairs_plot_;
    p->clearItems();
    p->clearPlottables();
    p->plotLayout()->clear();  // the pair plots of the last data (and the default axis rect)
    pair_items_.clear();
    square_passes_ = 0;
    const qsizetype n = data_.rope ? data_.pairs.size() : 0;
    const qsizetype rows = (n + pair_columns_ - 1) / pair_columns_;
    p->setMinimumHeight(int(std::max<qsizetype>(1, rows)) * kPairRowHeight);
    for (qsizetype i = 0; i < n; ++i) {
        const RopePairView& pair = data_.pairs[i];
        auto* cell = new QCPLayoutGrid;
        p->plotLayout()->addElement(int(i / pair_columns_), int(i % pair_columns_), cell);
        PairItems items;
        items.title = new QCPTextElement(p);
        items.title->setText(tr("pair %1 (dims %2)\nθ = %3\nangle = %4°")
                                 .arg(pair.pair)
                                 .arg(pair.dims)
                                 .arg(pair.theta, 0, 'g', 4)
                                 .arg(pair.angle * 180.0 / std::numbers::pi, 0, 'f', 1));
        cell->addElement(0, 0, items.title);
        items.rect = new QCPAxisRect(p);
        cell->addElement(1, 0, items.rect);
        cell->setRowStretchFactor(0, 0.001);
        const double longest =
            std::max({length(pair.q_before), length(pair.q_after), length(pair.k_before), length(pair.k_after)});
        items.extent = longest > 0.0 && std::isfinite(longest) ? longest * 1.15 : 1.0;
        for (QCPAxis* axis : {items.rect->axis(QCPAxis::atBottom), items.rect->axis(QCPAxis::atLeft)}) {
            axis->setRange(-items.extent, items.extent);
            axis->ticker()->setTickCount(3);
        }
        items.q_before = arrow(p, items.rect, pair.q_before, kQuery, true);
        items.q_after = arrow(p, items.rect, pair.q_after, kQuery, false);
        items.k_before = arrow(p, items.rect, pair.k_before, colors::chosen(), true);
        items.k_after = arrow(p, items.rect, pair.k_after, colors::chosen(), false);
        pair_items_.push_back(items);
    }
}

// Each pair plot gets the same scale on both axes (a rotation looks like one), the origin in
// the middle: the shorter side spans ±extent, the longer one as much more as it is longer. The
// sizes are known only after the layout, so a change takes one more replot.
void RopeView::squarePairs() {
    bool changed = false;
    for (const PairItems& items : pair_items_) {
        const double w = items.rect->width(), h = items.rect->height();
        if (w <= 0 || h <= 0) continue;
        const double x = w >= h ? items.extent * w / h : items.extent;
        const double y = w >= h ? items.extent : items.extent * h / w;
        QCPAxis* xa = items.rect->axis(QCPAxis::atBottom);
        QCPAxis* ya = items.rect->axis(QCPAxis::atLeft);
        if (std::abs(xa->range().upper - x) > 0.01 * x || std::abs(ya->range().upper - y) > 0.01 * y) {
            xa->setRange(-x, x);
            ya->setRange(-y, y);
            changed = true;
        }
    }
    if (changed && square_passes_ < kMaxSquarePasses) {
        ++square_passes_;
        pairs_plot_->replot(QCustomPlot::rpQueuedReplot);
    } else {
        square_passes_ = 0;
    }
}

void RopeView::buildSpectrum() {
    QCustomPlot* s = spectrum_plot_;
    spectrum_title_->setText(tr("Frequency of each pair: base %1").arg(data_.base, 0, 'g', 10));
    QVector<double> x, y;
    double lo = 0.0, hi = 0.0;
    if (data_.rope)
        for (qsizetype i = 0; i < data_.theta.size(); ++i) {
            const double t = data_.theta[i];
            if (!(t > 0.0) || !std::isfinite(t)) continue;  // a log axis has no place for it
            x.push_back(double(i));
            y.push_back(t);
            lo = x.size() == 1 ? t : std::min(lo, t);
            hi = std::max(hi, t);
        }
    spectrum_->setData(x, y, true);
    QVector<double> mx, my;
    if (data_.rope)
        for (const RopePairView& pair : data_.pairs)
            if (pair.theta > 0.0 && std::isfinite(pair.theta)) {
                mx.push_back(pair.pair);
                my.push_back(pair.theta);
                lo = lo > 0.0 ? std::min(lo, pair.theta) : pair.theta;
                hi = std::max(hi, pair.theta);
            }
    marked_->setData(mx, my);
    if (!x.isEmpty() || !mx.isEmpty()) {
        const double last = std::max(x.isEmpty() ? 0.0 : x.back(), mx.isEmpty() ? 0.0 : *std::max_element(mx.begin(), mx.end()));
        s->xAxis->setRange(-0.5, last + 0.5);
        s->yAxis->setRange(lo / 2.0, hi * 2.0);
    } else {
        s->xAxis->setRange(-0.5, 0.5);
        s->yAxis->setRange(1e-4, 1.0);
    }
    const QCPRange r = s->yAxis->range();
    s->yAxis2->setRange(2.0 * std::numbers::pi / r.upper, 2.0 * std::numbers::pi / r.lower);
    s->xAxis->setLabel(tr("pair i"));
    s->yAxis->setLabel(tr("θ (radians per position)"));
    s->yAxis2->setLabel(tr("wavelength 2π/θ (positions)"));
    spectrum_->setName(tr("θ of every pair"));
    marked_->setName(tr("the pairs drawn above"));
}

void RopeView::buildOffsets() {
    QCustomPlot* o = offset_plot_;
    offset_title_->setText(tr("Score against the relative position"));
    QVector<double> x, lo, hi, mid;
    double spread = 0.0, bottom = 0.0, top = 0.0;
    qint32 widest = 0;
    for (const RopeOffsetPoint& point : data_.offsets) {
        x.push_back(point.offset);
        lo.push_back(point.min);
        hi.push_back(point.max);
        mid.push_back((point.min + point.max) / 2.0);
        if (x.size() == 1 || point.max - point.min > spread) {
            spread = point.max - point.min;
            widest = point.offset;
        }
        bottom = x.size() == 1 ? point.min : std::min(bottom, point.min);
        top = x.size() == 1 ? point.max : std::max(top, point.max);
    }
    min_->setData(x, lo);
    max_->setData(x, hi);
    middle_->setData(x, mid);
    if (!x.isEmpty()) {
        o->xAxis->setRange(*std::min_element(x.begin(), x.end()) - 0.5, *std::max_element(x.begin(), x.end()) + 0.5);
        const double pad = std::max({(top - bottom) * 0.1, std::max(std::abs(bottom), std::abs(top)) * 0.05, 1e-3});
        o->yAxis->setRange(bottom - pad, top + pad);
    } else {
        o->xAxis->setRange(-0.5, 0.5);
        o->yAxis->setRange(0.0, 1.0);
    }
    o->xAxis->setLabel(tr("offset m − n (positions)"));
    o->yAxis->setLabel(tr("score (scaled q·k)"));
    min_->setName(tr("lowest score over the positions tried"));
    max_->setName(tr("highest score"));
    middle_->setName(tr("middle of the two"));
    if (x.isEmpty()) caption_->clear();
    else if (spread <= kFlat + 1e-12)  // 1e-4 itself counts, whatever its last bit
        caption_->setText(tr("The same for every pair of positions with this offset: flat within 1e-4"));
    else
        caption_->setText(tr("Not the same for every pair of positions with this offset: the largest spread "
                             "(highest − lowest score) is %1, at offset %2")
                              .arg(spread, 0, 'g', 3)
                              .arg(widest));
}

void RopeView::applyFonts() {
    const QFont base = font();
    for (QCustomPlot* p : {pairs_plot_, spectrum_plot_, offset_plot_}) apply_plot_fonts(p, base);
    for (const PairItems& items : pair_items_) items.title->setFont(scaled(base, 1.1, true));
    message_->setFont(scaled(base, 1.3));
}

// As many pair plots in a row as have their room: four on a wide panel, two or one on a
// narrow one (more rows, the view scrolls).
void RopeView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    const int columns = std::clamp(e->size().width() / kPairWidth, 1, kMaxPairColumns);
    if (columns == pair_columns_) return;
    pair_columns_ = columns;
    buildPairs();
    applyFonts();
    pairs_plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RopeView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        applyFonts();
        for (QCustomPlot* p : {pairs_plot_, spectrum_plot_, offset_plot_}) p->replot(QCustomPlot::rpQueuedReplot);
    } else if (e->type() == QEvent::LanguageChange) {
        rebuild();  // every text is set there
    }
}

RopeView::ViewState RopeView::viewState() const {
    ViewState s;
    s.rope = data_.rope;
    s.message = message_->text();
    s.pairs_shown = !pairs_plot_->isHidden() && !spectrum_plot_->isHidden();
    for (qsizetype i = 0; i < pair_items_.size(); ++i) {
        const PairItems& items = pair_items_[i];
        PairState p;
        p.title = items.title->text();
        p.q_before = items.q_before->end->coords();
        p.q_after = items.q_after->end->coords();
        p.k_before = items.k_before->end->coords();
        p.k_after = items.k_after->end->coords();
        p.angle = data_.pairs[i].angle;
        const QCPRange x = items.rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = items.rect->axis(QCPAxis::atLeft)->range();
        p.x_lower = x.lower;
        p.x_upper = x.upper;
        p.y_lower = y.lower;
        p.y_upper = y.upper;
        s.pairs.push_back(p);
    }
    s.spectrum_title = spectrum_title_->text();
    s.spectrum_x = keys(spectrum_);
    s.spectrum = values(spectrum_);
    s.marked = keys(marked_);
    s.spectrum_log = spectrum_plot_->yAxis->scaleType() == QCPAxis::stLogarithmic;
    s.offsets = keys(min_);
    s.min = values(min_);
    s.max = values(max_);
    s.middle = values(middle_);
    s.caption = caption_->text();
    s.offset_label = offset_plot_->xAxis->label();
    s.score_label = offset_plot_->yAxis->label();
    return s;
}

}  // namespace lmscope::widgets
