#include "widgets/help_button.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>

namespace lmscope::widgets {

HelpButton::HelpButton(QWidget* parent) : QAbstractButton(parent) {
    setText(QStringLiteral("?"));
    setCursor(Qt::PointingHandCursor);
    setFocusPolicy(Qt::TabFocus);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    retranslate();
}

void HelpButton::retranslate() {
    setToolTip(tr("What am I looking at? (F1)"));
    setAccessibleName(tr("Explain this panel"));
}

void HelpButton::changeEvent(QEvent* event) {
    QAbstractButton::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

QSize HelpButton::sizeHint() const {
    // A circle a line tall and a little: the "?" and a ring around it (no taller than a dock's
    // own title bar).
    const int d = fontMetrics().height() + 2;
    return {d, d};
}

void HelpButton::enterEvent(QEnterEvent* event) {
    hovered_ = true;
    update();
    QAbstractButton::enterEvent(event);
}

void HelpButton::leaveEvent(QEvent* event) {
    hovered_ = false;
    update();
    QAbstractButton::leaveEvent(event);
}

void HelpButton::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int d = std::min(width(), height()) - 2;
    const QRectF circle((width() - d) / 2.0, (height() - d) / 2.0, d, d);
    const bool strong = hovered_ || isDown() || hasFocus();
    const QColor ring = palette().color(strong ? QPalette::Highlight : QPalette::Mid);
    p.setPen(QPen(ring, 1.5));
    p.setBrush(strong ? palette().color(QPalette::Highlight) : palette().color(QPalette::Base));
    p.drawEllipse(circle);
    QFont f = font();
    f.setBold(true);
    p.setFont(f);
    p.setPen(palette().color(strong ? QPalette::HighlightedText : QPalette::WindowText));
    p.drawText(circle, Qt::AlignCenter, text());
}

}  // namespace lmscope::widgets
