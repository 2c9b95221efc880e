#include "widgets/chips_row.h"

#include "widgets/chip_flow.h"
#include "widgets/format.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace lmscope::widgets {
namespace {

constexpr int kMargin = 4;         // around the row
constexpr int kPadX = 6;           // inside a chip, left and right
constexpr int kPadY = 3;           // inside a chip, top and bottom
constexpr int kGap = 4;            // between chips and lines
constexpr int kMaxChipChars = 24;  // longer labels are elided

const QColor kFills[2] = {QColor(0xdc, 0xe8, 0xf8), QColor(0xd9, 0xf0, 0xdc)};
const QColor kOutlines[2] = {QColor(0x2f, 0x6d, 0xb5), QColor(0x2e, 0x8b, 0x45)};
const QColor kByteFill(0xfd, 0xe3, 0xc4);
const QColor kByteOutline(0xd2, 0x6a, 0x00);

QString shown(const QString& label) { return elided(label, kMaxChipChars); }

}  // namespace

ChipsRow::ChipsRow(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setMouseTracking(true);
}

QFont ChipsRow::chipFont() const {
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    return f;
}

void ChipsRow::setChips(const QVector<Chip>& chips) {
    chips_ = chips;
    relayout();
}

void ChipsRow::relayout() {
    const QFontMetrics fm(chipFont());
    widths_.clear();
    widths_.reserve(chips_.size());
    for (const Chip& c : chips_) widths_.push_back(fm.horizontalAdvance(shown(c.label)) + 2 * kPadX);
    rects_width_ = -1;
    updateGeometry();
    update();
}

int ChipsRow::layoutChips(int width, QVector<QRect>* out) const {
    const int chip_h = QFontMetrics(chipFont()).height() + 2 * kPadY;
    return flow_chips(widths_, width, chip_h, kMargin, ChipFlow{kMargin, kGap, 30}, out);
}

const QVector<QRect>& ChipsRow::rects() const {
    if (rects_width_ != width()) {
        rects_.clear();
        layoutChips(width(), &rects_);
        rects_width_ = width();
    }
    return rects_;
}

QRect ChipsRow::chipRect(qint32 index) const {
    const QVector<QRect>& r = rects();
    return index >= 0 && index < r.size() ? r[index] : QRect();
}

qint32 ChipsRow::chipAt(const QPoint& p) const {
    const QVector<QRect>& r = rects();
    for (qint32 i = 0; i < r.size(); ++i)
        if (r[i].contains(p)) return i;
    return -1;
}

int ChipsRow::heightForWidth(int width) const { return layoutChips(width, nullptr); }

QSize ChipsRow::sizeHint() const { return QSize(400, heightForWidth(400)); }

QSize ChipsRow::minimumSizeHint() const {
    return QSize(60, QFontMetrics(chipFont()).height() + 2 * (kPadY + kMargin));
}

bool ChipsRow::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const qint32 i = chipAt(help->pos());
        if (i >= 0) QToolTip::showText(help->globalPos(), chips_[i].tooltip, this, chipRect(i));
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void ChipsRow::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(e);
}

void ChipsRow::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(chipFont());
    const QVector<QRect>& r = rects();
    for (qint32 i = 0; i < r.size(); ++i) {
        const Chip& c = chips_[i];
        QPen pen(c.byte ? kByteOutline : kOutlines[i % 2], c.byte ? 2.0 : 1.2);
        if (c.byte) pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.setBrush(c.byte ? kByteFill : kFills[i % 2]);
        p.drawRoundedRect(QRectF(r[i]).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        p.setPen(Qt::black);
        p.drawText(r[i], Qt::AlignCenter, shown(c.label));
    }
}

}  // namespace lmscope::widgets
