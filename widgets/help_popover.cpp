#include "widgets/help_popover.h"

#include <QEvent>
#include <QLabel>
#include <QScreen>
#include <QVBoxLayout>

#include <algorithm>

namespace lmscope::widgets {

namespace {
constexpr int kLineChars = 60;  // a readable line length
}

HelpPopover::HelpPopover(QWidget* parent) : QFrame(parent, Qt::Popup), title_(new QLabel), text_(new QLabel) {
    setObjectName(QStringLiteral("helpPopover"));
    setFrameShape(QFrame::Box);
    title_->setObjectName(QStringLiteral("helpPopoverTitle"));
    text_->setObjectName(QStringLiteral("helpPopoverText"));
    title_->setWordWrap(true);
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    title_->setTextFormat(Qt::PlainText);
    auto* layout = new QVBoxLayout(this);
    layout->setSizeConstraint(QLayout::SetFixedSize);  // exactly as large as the texts need
    layout->addWidget(title_);
    layout->addWidget(text_);
}

void HelpPopover::setContent(const QString& title, const QString& text) {
    title_->setText(title);
    text_->setText(text);
    fit();
}

QString HelpPopover::title() const { return title_->text(); }
QString HelpPopover::text() const { return text_->text(); }

void HelpPopover::fit() {
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(font().pointSizeF() > 0 ? font().pointSizeF() * 1.15 : bold.pointSizeF());
    title_->setFont(bold);
    // The width of kLineChars average characters, but never wider than 90% of the screen.
    int width = fontMetrics().averageCharWidth() * kLineChars;
    if (const QScreen* s = screen()) width = std::min(width, s->availableGeometry().width() * 9 / 10);
    title_->setFixedWidth(width);
    text_->setFixedWidth(width);
    for (QLabel* l : {title_, text_}) l->setFixedHeight(std::max(l->heightForWidth(width), 0));  // -1: no text yet
    adjustSize();
}

void HelpPopover::popup(const QWidget* anchor) {
    fit();
    QPoint at = anchor->mapToGlobal(QPoint(anchor->width(), anchor->height())) - QPoint(width(), 0);
    const QScreen* screen = anchor->screen();
    if (screen) {
        const QRect room = screen->availableGeometry();
        if (at.y() + height() > room.bottom()) at.setY(anchor->mapToGlobal(QPoint(0, 0)).y() - height());
        at.setX(std::clamp(at.x(), room.left(), std::max(room.left(), room.right() - width())));
        at.setY(std::clamp(at.y(), room.top(), std::max(room.top(), room.bottom() - height())));
    }
    move(at);
    show();
    raise();
    activateWindow();
    setFocus(Qt::PopupFocusReason);
}

void HelpPopover::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange) fit();
}

}  // namespace lmscope::widgets
