#include "widgets/attention_grid.h"

#include "widgets/trace_colors.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <bit>
#include <cmath>

namespace lmscope::widgets {
namespace {

constexpr int kMargin = 8;
constexpr int kPreferredCell = 64;

QFont header_font(const QFont& base) {
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * 1.1);
    f.setBold(true);
    return f;
}

}  // namespace

AttentionGrid::AttentionGrid(TraceModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("attentionGrid"));
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, Qt::white);
    setPalette(pal);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    connect(model_, &TraceModel::modelChanged, this, &AttentionGrid::reset);
    connect(model_, &TraceModel::stepsReset, this, &AttentionGrid::reset);
    connect(model_, &TraceModel::currentStepChanged, this, &AttentionGrid::sequenceChanged);
    connect(model_, &TraceModel::headChanged, this, qOverload<>(&QWidget::update));
    connect(model_, &TraceModel::ablationChanged, this, qOverload<>(&QWidget::update));
    reset();
}

QRgb AttentionGrid::rampColor(float normalized) { return colors::weight_color(normalized); }
QRgb AttentionGrid::maskedColor() { return qRgb(0xee, 0xee, 0xee); }
QRgb AttentionGrid::unrecordedColor() { return colors::uncaptured().rgb(); }

namespace {

constexpr qint32 kRes = AttentionGrid::kThumbResolution;

// Positions per thumbnail pixel: the smallest power of two that fits n positions.
qint32 per_pixel(qint32 n) {
    qint32 b = 1;
    while (qint64(b) * kRes < n) b *= 2;
    return b;
}

// Half floats that are >= 0 order like their bit patterns, so pooling compares raw bits and
// converts only the pooled maxima. Negative values (never produced by a softmax) count as 0.
quint16 half_bits(qfloat16 h) {
    const auto b = std::bit_cast<quint16>(h);
    return quint16(b & quint16((b >> 15) - 1));
}

float half_value(quint16 bits) {
    const float w = float(std::bit_cast<qfloat16>(bits));
    return w >= 0.0f ? w : 0.0f;  // NaN -> 0
}

}  // namespace

void AttentionGrid::reset() {
    const ModelView& m = model_->model();
    cache_ = QVector<Thumb>(qMax(0, m.n_layer) * qMax(0, m.n_head));
    ++generation_;
    cached_path_ = model_->path();
    positions_per_pixel_ = per_pixel(model_->sequenceLength());
    updateGeometry();
    update();
}

void AttentionGrid::sequenceChanged() {
    const QVector<qint32> path = model_->path();
    const bool grows = path.size() >= cached_path_.size() &&
                       std::equal(cached_path_.begin(), cached_path_.end(), path.begin());
    const qint32 b = per_pixel(model_->sequenceLength());
    if (!grows || b != positions_per_pixel_) ++generation_;  // thumbnails rebuild when drawn
    positions_per_pixel_ = b;
    cached_path_ = path;
    update();
}

QImage AttentionGrid::thumbnail(qint32 layer, qint32 head) const {
    const Thumb* t = current(layer, head);
    if (!t) return {};
    const qint32 pixels = (t->n + positions_per_pixel_ - 1) / positions_per_pixel_;
    return t->image.copy(0, 0, pixels, pixels);
}

const AttentionGrid::Thumb* AttentionGrid::current(qint32 layer, qint32 head) const {
    const ModelView& m = model_->model();
    if (layer < 0 || head < 0 || layer >= m.n_layer || head >= m.n_head || model_->sequenceLength() == 0) return nullptr;
    Thumb& t = cache_[layer * m.n_head + head];
    if (t.generation != generation_) {
        t = Thumb{};
        t.generation = generation_;
        t.pooled.fill(0, kRes * kRes);
        t.recorded.fill(false, kRes);
        t.image = QImage(kRes, kRes, QImage::Format_RGB32);
        t.image.fill(maskedColor());  // the masked upper triangle never changes
    }
    if (t.n != model_->sequenceLength()) extend(t, layer, head);
    return &t;
}

void AttentionGrid::extend(Thumb& t, qint32 layer, qint32 head) const {
    const qint32 n = model_->sequenceLength(), b = positions_per_pixel_, from = t.n;
    const QVector<AttentionRowRef> rows = model_->attentionRows(layer, head, from);
    for (qint32 q = from; q < n; ++q) {
        const qint32 y = q / b;
        quint16* out = t.pooled.data() + qint64(y) * kRes;
        const AttentionRowRef& ref = rows[q - from];
        if (ref.plane) {
            const qfloat16* src = ref.plane->row(ref.row);
            if (b == 1) {
                for (qint32 k = 0; k <= q; ++k) out[k] = std::max(out[k], half_bits(src[k]));
            } else {
                for (qint32 x = 0; x <= y; ++x) {
                    const qint32 end = std::min(x * b + b, q + 1);
                    quint16 top = out[x];
                    for (qint32 k = x * b; k < end; ++k) top = std::max(top, half_bits(src[k]));
                    out[x] = top;
                }
            }
            t.recorded[y] = true;
            continue;
        }
        // Summary only: the strongest key of the row.
        const StepView* s = model_->step(model_->stepOfPosition(q));
        const HeadSummary* sum = s ? s->summary(layer, head, model_->rowOfPosition(q)) : nullptr;
        if (sum && sum->argmax_key >= 0 && sum->argmax_key <= q) {
            quint16& cell = out[sum->argmax_key / b];
            cell = std::max(cell, half_bits(qfloat16(sum->max_weight)));
            t.recorded[y] = true;
        }
    }
    t.n = n;

    // Repaint the pixel rows that gained query rows, each scaled to its own largest weight.
    float values[kRes];
    for (qint32 y = from / b; y <= (n - 1) / b; ++y) {
        auto* line = reinterpret_cast<QRgb*>(t.image.scanLine(y));
        if (!t.recorded[y]) {
            std::fill(line, line + y + 1, unrecordedColor());
            continue;
        }
        const quint16* in = t.pooled.constData() + qint64(y) * kRes;
        float top = 0.0f;
        for (qint32 x = 0; x <= y; ++x) top = std::max(top, values[x] = half_value(in[x]));
        const float scale = top > 0.0f ? 1.0f / top : 0.0f;
        for (qint32 x = 0; x <= y; ++x) line[x] = rampColor(std::sqrt(values[x] * scale));
    }
}

AttentionGrid::Geometry AttentionGrid::geometry() const {
    const ModelView& m = model_->model();
    const QFontMetrics fm(header_font(font()));
    Geometry g;
    g.left = kMargin + fm.horizontalAdvance(tr("L%1").arg(qMax(0, m.n_layer - 1))) + 8;
    g.band_top = kMargin;
    g.band_height = fm.height() + 6;
    g.top = g.band_top + g.band_height + 4 + fm.height() + 4;
    if (m.n_layer <= 0 || m.n_head <= 0) return g;
    const int pitch_w = (width() - g.left - kMargin) / m.n_head;
    const int pitch_h = (height() - g.top - kMargin) / m.n_layer;
    const int pitch = std::max(10, std::min(pitch_w, pitch_h));
    g.gap = std::clamp(pitch / 8, 3, 10);
    g.cell = pitch - g.gap;
    g.left += std::max(0, (width() - kMargin - g.left - m.n_head * pitch) / 2);  // centred
    return g;
}

QRect AttentionGrid::cellRect(qint32 layer, qint32 head) const {
    const ModelView& m = model_->model();
    if (layer < 0 || head < 0 || layer >= m.n_layer || head >= m.n_head) return {};
    const Geometry g = geometry();
    const int pitch = g.cell + g.gap;
    return QRect(g.left + head * pitch, g.top + layer * pitch, g.cell, g.cell);
}

QRect AttentionGrid::groupBandRect(qint32 kv_group) const {
    const ModelView& m = model_->model();
    const qint32 size = m.group_size();
    const qint32 first = kv_group * size, last = first + size - 1;
    if (kv_group < 0 || last >= m.n_head) return {};
    const Geometry g = geometry();
    const QRect a = cellRect(0, first), b = cellRect(0, last);
    return QRect(QPoint(a.left() - g.gap / 2 + 1, g.band_top), QPoint(b.right() + g.gap / 2 - 1, g.band_top + g.band_height - 1));
}

bool AttentionGrid::cellAt(const QPoint& p, qint32* layer, qint32* head) const {
    const ModelView& m = model_->model();
    for (qint32 l = 0; l < m.n_layer; ++l)
        for (qint32 h = 0; h < m.n_head; ++h)
            if (cellRect(l, h).contains(p)) {
                *layer = l;
                *head = h;
                return true;
            }
    return false;
}

QSize AttentionGrid::sizeHint() const {
    const ModelView& m = model_->model();
    const Geometry g = geometry();
    const int pitch = kPreferredCell + 6;
    return {g.left + kMargin + qMax(1, m.n_head) * pitch, g.top + kMargin + qMax(1, m.n_layer) * pitch};
}

QSize AttentionGrid::minimumSizeHint() const {
    const ModelView& m = model_->model();
    const Geometry g = geometry();
    return {g.left + kMargin + qMax(1, m.n_head) * 14, g.top + kMargin + qMax(1, m.n_layer) * 14};
}

void AttentionGrid::paintEvent(QPaintEvent* e) {
    QPainter p(this);
    const ModelView& m = model_->model();
    const Geometry g = geometry();
    const QFont hf = header_font(font());
    const QFontMetrics fm(hf);
    p.setFont(hf);
    if (m.n_layer <= 0 || m.n_head <= 0 || model_->sequenceLength() == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No attention to show yet: run a step"));
        return;
    }

    // GQA bands: one per KV head, spanning the query heads that read it.
    const qint32 groups = m.n_head / m.group_size();
    for (qint32 k = 0; k < groups; ++k) {
        const QRect band = groupBandRect(k);
        p.fillRect(band, colors::group(k));
        p.setPen(Qt::black);
        p.drawText(band, Qt::AlignCenter, tr("KV %1").arg(k));
    }
    p.setPen(palette().color(QPalette::WindowText));
    for (qint32 h = 0; h < m.n_head; ++h) {
        const QRect c = cellRect(0, h);
        p.drawText(QRect(c.left(), g.band_top + g.band_height + 4, c.width(), fm.height()), Qt::AlignCenter, tr("H%1").arg(h));
    }
    for (qint32 l = 0; l < m.n_layer; ++l) {
        const QRect c = cellRect(l, 0);
        p.drawText(QRect(kMargin, c.top(), g.left - kMargin - 6, c.height()), Qt::AlignRight | Qt::AlignVCenter, tr("L%1").arg(l));
    }

    p.setRenderHint(QPainter::SmoothPixmapTransform, false);  // nearest neighbour
    const qint32 sel_l = model_->selectedLayer(), sel_h = model_->selectedHead();
    const StepView* step = shownStep();
    for (qint32 l = 0; l < m.n_layer; ++l)
        for (qint32 h = 0; h < m.n_head; ++h) {
            const QRect c = cellRect(l, h);
            if (!c.adjusted(-g.gap, -g.gap, g.gap, g.gap).intersects(e->rect())) continue;
            if (const Thumb* t = current(l, h)) {
                const qint32 pixels = (t->n + positions_per_pixel_ - 1) / positions_per_pixel_;
                p.drawImage(c, t->image, QRect(0, 0, pixels, pixels));
            }
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(colors::group(m.kv_group(h)), 2));
            p.drawRect(QRectF(c).adjusted(-1, -1, 1, 1));
            if (l == sel_l && h == sel_h) {
                p.setPen(QPen(colors::selection(), 3));
                p.drawRect(QRectF(c).adjusted(-3, -3, 3, 3));
            }
            if (step && step->ablated.contains(LayerHead{l, h})) {
                p.setPen(QPen(colors::switched_off(), 2));
                p.drawLine(c.topLeft(), c.bottomRight());
                p.drawLine(c.topRight(), c.bottomLeft());
            }
            if (model_->isAblated(l, h)) {
                p.setPen(QPen(colors::switched_off(), 2, Qt::DashLine));
                p.drawRect(QRectF(c).adjusted(-4, -4, 4, 4));
            }
        }
}

const StepView* AttentionGrid::shownStep() const {
    const qint32 i = model_->currentStep();
    return i >= 0 && i < model_->steps().size() ? &model_->steps()[i] : nullptr;
}

AttentionGrid::ViewState AttentionGrid::viewState() const {
    ViewState v;
    if (const StepView* step = shownStep()) v.off_in_step = step->ablated;
    v.off_next = model_->ablation();
    return v;
}

void AttentionGrid::fillHeadMenu(QMenu* menu, qint32 layer, qint32 head) {
    if (!switching_) return;
    fillHeadMenu(menu, model_, this, layer, head, [this](qint32 step) { emit recomputeStep(step); });
}

void AttentionGrid::fillHeadMenu(QMenu* menu, TraceModel* model, QObject* owner, qint32 layer, qint32 head,
                                 const std::function<void(qint32)>& recompute) {
    const ModelView& m = model->model();
    if (layer < 0 || head < 0 || layer >= m.n_layer || head >= m.n_head) return;
    QVector<LayerHead> heads = model->ablation();
    const LayerHead self{layer, head};
    if (model->isAblated(layer, head)) {
        menu->addAction(tr("Turn head %1:%2 back on").arg(layer).arg(head), owner, [model, heads, self]() mutable {
            heads.removeAll(self);
            model->setAblation(heads);
        });
    } else {
        menu->addAction(tr("Turn off head %1:%2").arg(layer).arg(head), owner, [model, heads, self]() mutable {
            heads.push_back(self);
            model->setAblation(heads);
        });
    }
    menu->addAction(tr("Turn off every head of layer %1").arg(layer), owner, [model, heads, layer, n = m.n_head]() mutable {
        for (qint32 h = 0; h < n; ++h) heads.push_back(LayerHead{layer, h});
        model->setAblation(heads);
    });
    QAction* all = menu->addAction(tr("Turn every head back on"), owner, [model] { model->setAblation({}); });
    all->setEnabled(!heads.isEmpty());
    if (recompute) {
        menu->addSeparator();
        const qint32 step = model->currentStep();
        QAction* again = menu->addAction(tr("Recompute this step with the heads off now"), owner,
                                         [recompute, step] { recompute(step); });
        again->setToolTip(tr("Rewind to the step before this one and run this step again, with the heads switched "
                             "off now (the old result stays as another branch)"));
        again->setEnabled(step >= 0);
    }
}

void AttentionGrid::contextMenuEvent(QContextMenuEvent* e) {
    qint32 l = 0, h = 0;
    if (!cellAt(e->pos(), &l, &h)) return QWidget::contextMenuEvent(e);
    QMenu menu(this);
    fillHeadMenu(&menu, l, h);
    if (!menu.isEmpty()) menu.exec(e->globalPos());
}

bool AttentionGrid::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        qint32 l = 0, h = 0;
        if (!cellAt(help->pos(), &l, &h)) {
            QToolTip::hideText();
            return true;
        }
        const ModelView& m = model_->model();
        QString tip = tr("Layer %1 · head %2 · KV head %3").arg(l).arg(h).arg(m.kv_group(h));
        const qint32 q = model_->selectedQuery();
        const QVector<AttentionRowRef> rows = model_->attentionRows(l, h);
        if (q >= 0 && q < rows.size() && rows[q].plane) {
            const qfloat16* row = rows[q].plane->row(rows[q].row);
            const qint32 best = qint32(std::max_element(row, row + q + 1, [](qfloat16 a, qfloat16 b) { return float(a) < float(b); }) - row);
            tip += QStringLiteral("<br>") + tr("'%1' (%2) looks most at '%3' (%4): %5")
                                                 .arg(display_text(model_->sequence()[q].text).toHtmlEscaped())
                                                 .arg(q)
                                                 .arg(display_text(model_->sequence()[best].text).toHtmlEscaped())
                                                 .arg(best)
                                                 .arg(double(row[best]), 0, 'g', 3);
        }
        const StepView* step = shownStep();
        if (step && step->ablated.contains(LayerHead{l, h}))
            tip += QStringLiteral("<br>") + tr("Switched off in this step: its output (z) was zero");
        if (model_->isAblated(l, h)) tip += QStringLiteral("<br>") + tr("Switched off from the next step");
        QToolTip::showText(help->globalPos(), tip, this, cellRect(l, h));
        return true;
    }
    return QWidget::event(e);
}

void AttentionGrid::mousePressEvent(QMouseEvent* e) {
    qint32 l = 0, h = 0;
    if (e->button() != Qt::LeftButton || !cellAt(e->position().toPoint(), &l, &h)) return QWidget::mousePressEvent(e);
    model_->setSelectedHead(l, h);
    emit headActivated(l, h);
}

}  // namespace lmscope::widgets
