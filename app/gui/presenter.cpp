#include "gui/presenter.h"

#include <QApplication>
#include <QWidget>

namespace lmscope::gui {

namespace {
QPalette high_contrast() {
    QPalette p;
    const QColor black(Qt::black), white(Qt::white);
    for (auto role : {QPalette::Window, QPalette::Base, QPalette::Button, QPalette::ToolTipBase})
        p.setColor(role, white);
    p.setColor(QPalette::AlternateBase, QColor(235, 235, 235));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText})
        p.setColor(role, black);
    p.setColor(QPalette::Highlight, QColor(0, 60, 200));
    p.setColor(QPalette::HighlightedText, white);
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(110, 110, 110));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(110, 110, 110));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(110, 110, 110));
    return p;
}
}  // namespace

Presenter::Presenter() : font_(QApplication::font()), palette_(QApplication::palette()) {}

void Presenter::apply(bool on) {
    if (on == on_) return;
    on_ = on;
    QFont f = font_;
    if (on) {
        if (f.pointSizeF() > 0) f.setPointSizeF(f.pointSizeF() * kScale);
        else f.setPixelSize(int(f.pixelSize() * kScale));
    }
    QApplication::setFont(f);
    QApplication::setPalette(on ? high_contrast() : palette_);
    // Widgets that set their own font keep it; tell every window to lay itself out again.
    for (QWidget* w : QApplication::topLevelWidgets()) w->updateGeometry();
}

}  // namespace lmscope::gui
