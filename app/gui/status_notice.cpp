#include "gui/status_notice.h"

#include <QEvent>
#include <QSizeGrip>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>

namespace lmscope::gui {

StatusNotice::StatusNotice(QStatusBar* bar) : QObject(bar), bar_(bar) {
    bar_->installEventFilter(this);
    connect(bar_, &QStatusBar::messageChanged, this, [this](const QString& now) {
        if (now.isEmpty()) text_.clear(), bar_->setToolTip(QString());  // timed out or replaced by nothing
    });
}

void StatusNotice::show(const QString& text, int timeout_ms) {
    text_ = text;
    timeout_ms_ = timeout_ms;
    shown_.start();
    fit();
}

void StatusNotice::fit() {
    if (text_.isEmpty()) return;
    int remaining = 0;
    if (timeout_ms_ > 0) {
        remaining = timeout_ms_ - int(shown_.elapsed());
        if (remaining <= 0) return bar_->clearMessage();
    }
    int room = bar_->width();
    for (const QWidget* c : bar_->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (c->isVisible() && !qobject_cast<const QSizeGrip*>(c)) room = std::min(room, c->x());
    room -= 12;  // the message's margins
    const QString shown = bar_->fontMetrics().elidedText(text_, Qt::ElideMiddle, std::max(room, 0));
    bar_->setToolTip(shown == text_ ? QString() : text_);
    if (bar_->currentMessage() == shown) return;  // it fits as shown: its timer runs on
    const QString text = text_;  // messageChanged below must not clear it
    bar_->showMessage(shown, remaining);
    text_ = text;
}

bool StatusNotice::eventFilter(QObject* watched, QEvent* event) {
    if (watched == bar_ && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange ||
                            event->type() == QEvent::LayoutRequest))
        QTimer::singleShot(0, this, &StatusNotice::fit);  // once the permanent fields have moved
    return QObject::eventFilter(watched, event);
}

}  // namespace lmscope::gui
