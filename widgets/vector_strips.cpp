#include "widgets/vector_strips.h"

#include "widgets/trace_colors.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace lmscope::widgets {
namespace {

constexpr int kMargin = 6;         // around everything
constexpr int kGap = 8;            // between the label, the cells and the norm
constexpr int kRowGap = 2;         // between strips
constexpr int kMinCell = 4;        // the size hint's width per component...
constexpr int kMaxCellsHint = 640; // ...up to this many pixels of cells
constexpr int kMaxLabelChars = 32; // the label column is at most this many average characters
constexpr int kLegendBar = 140;    // the legend's colour bar, pixels

// "12.3", "0.0421", "1234": three significant digits, no exponent below 1e6.
QString short_number(double v) {
    const double a = std::fabs(v);
    if (!std::isfinite(v)) return QString::number(v);
    if (a >= 1e6) return QString::number(v, 'g', 3);
    if (a >= 100) return QString::number(v, 'f', 0);
    if (a >= 10) return QString::number(v, 'f', 1);
    if (a >= 1 || a == 0) return QString::number(v, 'f', 2);
    return QString::number(v, 'g', 3);
}

}  // namespace

VectorStrips::VectorStrips(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
    setAttribute(Qt::WA_OpaquePaintEvent);
    relayout();
}

void VectorStrips::setData(const VectorStripsData& strips) {
    data_ = strips;
    const qint32 n = qint32(data_.strips.size());
    groups_ = data_.group;
    groups_.resize(n);  // missing: group 0
    // Each group's scale: the largest finite |value| of its strips.
    std::map<qint32, double> scale;
    qint32 width = 1;
    for (qint32 s = 0; s < n; ++s) {
        double& m = scale[groups_[s]];
        for (float v : data_.strips[s].values)
            if (std::isfinite(v)) m = std::max(m, double(std::fabs(v)));
        width = std::max(width, qint32(data_.strips[s].values.size()));
    }
    scales_.resize(n);
    for (qint32 s = 0; s < n; ++s) scales_[s] = scale[groups_[s]];
    cells_ = QImage(width, std::max(n, 1), QImage::Format_RGB32);
    cells_.fill(Qt::white);
    for (qint32 s = 0; s < n; ++s) {
        auto* line = reinterpret_cast<QRgb*>(cells_.scanLine(s));
        const QVector<float>& v = data_.strips[s].values;
        const double sc = scales_[s];
        for (qint32 c = 0; c < v.size(); ++c)
            line[c] = std::isnan(v[c]) ? colors::masked().rgb()
                                      : colors::diverging_color(sc > 0 ? float(v[c] / sc) : 0.0f);
    }
    relayout();
}

QFont VectorStrips::titleFont() const {
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    return f;
}

QString VectorStrips::normText(qint32 strip) const {
    return tr("|x| = %1").arg(short_number(data_.strips[strip].norm));
}

QString VectorStrips::legendText(double scale) const {
    return tr("colour scale of the strips below: %1 to %2").arg(short_number(-scale), short_number(scale));
}

void VectorStrips::relayout() {
    const QFontMetrics fm(font());
    const qint32 n = qint32(data_.strips.size());
    row_h_ = std::max(fm.height(), 10) + kRowGap;
    legend_h_ = fm.height() + 8;
    title_h_ = data_.title.isEmpty() ? 0 : QFontMetrics(titleFont()).height() + 6;
    label_w_ = 0;
    norm_w_ = 0;
    norm_texts_.clear();
    for (qint32 s = 0; s < n; ++s) {
        label_w_ = std::max(label_w_, fm.horizontalAdvance(data_.strips[s].label));
        norm_texts_ << normText(s);
        norm_w_ = std::max(norm_w_, fm.horizontalAdvance(norm_texts_.back()));
    }
    label_w_ = std::min(label_w_, fm.averageCharWidth() * kMaxLabelChars);
    // Rows, top to bottom: the title, then each strip, a legend row above a group's first strip.
    strip_top_.resize(n);
    legends_.clear();
    int y = kMargin + title_h_;
    for (qint32 s = 0; s < n; ++s) {
        if (s == 0 || groups_[s] != groups_[s - 1]) {
            legends_.push_back({y, scales_[s]});
            y += legend_h_;
        }
        strip_top_[s] = y;
        y += row_h_;
    }
    total_h_ = y + kMargin;
    updateGeometry();
    update();
}

int VectorStrips::cellsLeft() const { return kMargin + label_w_ + (label_w_ > 0 ? kGap : 0); }

int VectorStrips::cellsRight() const {
    return std::max(cellsLeft() + 1, width() - kMargin - norm_w_ - (norm_w_ > 0 ? kGap : 0));
}

QSize VectorStrips::sizeHint() const {
    const int cells = std::min(kMaxCellsHint, int(cells_.width()) * kMinCell);
    const int w = 2 * kMargin + label_w_ + norm_w_ + 2 * kGap + cells;
    const int legend_w = 2 * kMargin + kLegendBar + QFontMetrics(font()).horizontalAdvance(legendText(-1e3)) + kGap;
    return QSize(std::max(w, legend_w), total_h_);
}

QSize VectorStrips::minimumSizeHint() const { return QSize(120, std::min(total_h_, 4 * row_h_ + legend_h_)); }

QRect VectorStrips::cellRect(qint32 strip, qint32 component) const {
    if (strip < 0 || strip >= data_.strips.size()) return {};
    const qint32 dim = qint32(data_.strips[strip].values.size());
    if (component < 0 || component >= dim) return {};
    const double left = cellsLeft(), w = double(cellsRight() - cellsLeft()) / dim;
    const int x0 = int(std::floor(left + component * w)), x1 = int(std::floor(left + (component + 1) * w));
    return QRect(x0, strip_top_[strip], std::max(1, x1 - x0), row_h_ - kRowGap);
}

std::pair<qint32, qint32> VectorStrips::cellAt(const QPoint& p) const {
    const auto it = std::upper_bound(strip_top_.cbegin(), strip_top_.cend(), p.y());
    if (it == strip_top_.cbegin()) return {-1, -1};
    const qint32 s = qint32(it - strip_top_.cbegin()) - 1;
    if (p.y() >= strip_top_[s] + row_h_ - kRowGap) return {-1, -1};
    const qint32 dim = qint32(data_.strips[s].values.size());
    if (dim == 0 || p.x() < cellsLeft() || p.x() >= cellsRight()) return {-1, -1};
    const qint32 c = qint32((p.x() - cellsLeft()) * double(dim) / double(cellsRight() - cellsLeft()));
    return {s, std::clamp(c, 0, dim - 1)};
}

QString VectorStrips::cellDescription(qint32 strip, qint32 component) const {
    if (!cellRect(strip, component).isValid()) return {};
    return tr("%1 · component %2: %3")
        .arg(data_.strips[strip].label)
        .arg(component)
        .arg(double(data_.strips[strip].values[component]), 0, 'g', 4);
}

VectorStrips::ViewState VectorStrips::viewState() const {
    ViewState v;
    v.title = data_.title;
    const qint32 n = qint32(data_.strips.size());
    for (qint32 s = 0; s < n; ++s) {
        const VectorStrip& strip = data_.strips[s];
        v.labels << strip.label;
        v.values << strip.values;
        const auto* line = reinterpret_cast<const QRgb*>(cells_.constScanLine(s));
        v.colors << QVector<QRgb>(line, line + strip.values.size());
        v.norms << strip.norm;
    }
    v.norm_texts = norm_texts_;
    v.groups = groups_;
    v.scales = scales_;
    for (const Legend& l : legends_) v.legend_scales << l.scale;
    return v;
}

bool VectorStrips::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const auto [s, c] = cellAt(help->pos());
        if (s >= 0) QToolTip::showText(help->globalPos(), cellDescription(s, c), this, cellRect(s, c));
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void VectorStrips::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange) relayout();
}

void VectorStrips::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    update();
}

void VectorStrips::paintEvent(QPaintEvent* e) {
    const QRect clip = e->rect();
    QPainter p(this);
    p.fillRect(clip, palette().base());
    const QFontMetrics fm(font());
    const QColor text = palette().text().color();
    if (title_h_ > 0 && clip.top() < kMargin + title_h_) {
        p.setFont(titleFont());
        p.setPen(text);
        p.drawText(QRect(kMargin, kMargin, width() - 2 * kMargin, title_h_), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(titleFont()).elidedText(data_.title, Qt::ElideRight, width() - 2 * kMargin));
    }
    p.setFont(font());
    // The legend rows in view: the colour bar, then its span in words.
    for (const Legend& l : legends_) {
        if (l.top > clip.bottom() || l.top + legend_h_ < clip.top()) continue;
        const QRect bar(cellsLeft(), l.top + legend_h_ / 4, kLegendBar, legend_h_ / 2);
        QLinearGradient g(bar.topLeft(), bar.topRight());
        for (const auto& [at, color] : colors::diverging_ramp()) g.setColorAt(at, color);
        p.fillRect(bar, g);
        p.setPen(text);
        p.drawRect(bar.adjusted(0, 0, -1, -1));
        const int x = bar.right() + kGap;
        p.drawText(QRect(x, l.top, std::max(0, width() - kMargin - x), legend_h_), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(legendText(l.scale), Qt::ElideRight, std::max(0, width() - kMargin - x)));
    }
    // The strips in view: the first whose row reaches into the clip, on until one starts below it.
    const int left = cellsLeft(), right = cellsRight();
    auto it = std::upper_bound(strip_top_.cbegin(), strip_top_.cend(), clip.top() - row_h_);
    for (qint32 s = qint32(it - strip_top_.cbegin()); s < strip_top_.size() && strip_top_[s] <= clip.bottom(); ++s) {
        const VectorStrip& strip = data_.strips[s];
        const int top = strip_top_[s], h = row_h_ - kRowGap;
        p.setPen(text);
        if (label_w_ > 0)
            p.drawText(QRect(kMargin, top, label_w_, h), Qt::AlignRight | Qt::AlignVCenter,
                       fm.elidedText(strip.label, Qt::ElideMiddle, label_w_));
        p.drawText(QRect(right + kGap, top, norm_w_, h), Qt::AlignLeft | Qt::AlignVCenter, norm_texts_[s]);
        if (!strip.values.isEmpty())  // one image pixel per cell, stretched without smoothing
            p.drawImage(QRectF(left, top, right - left, h), cells_, QRectF(0, s, strip.values.size(), 1));
    }
}

}  // namespace lmscope::widgets
