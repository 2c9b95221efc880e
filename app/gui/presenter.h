// Presenter mode, for a projector: the application's fonts enlarged and a high-contrast
// palette (black on white, strong selection). Off restores what the platform gave.
#pragma once

#include <QFont>
#include <QPalette>

namespace lmscope::gui {

class Presenter {
public:
    Presenter();  // remembers the application's current font and palette
    void apply(bool on);
    bool isOn() const { return on_; }

    static constexpr double kScale = 1.5;

private:
    QFont font_;
    QPalette palette_;
    bool on_ = false;
};

}  // namespace lmscope::gui
