// A small round "?" button that opens the explanation of the panel it sits on. It draws itself
// (a circle with a bold question mark) at the size of the font, so stage mode's larger
// fonts give it a larger circle. What it explains is the owner's business (its clicked()).
#pragma once

#include <QAbstractButton>

namespace lmscope::widgets {

class HelpButton : public QAbstractButton {
    Q_OBJECT
public:
    explicit HelpButton(QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void enterEvent(QEnterEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void retranslate();

    bool hovered_ = false;
};

}  // namespace lmscope::widgets
