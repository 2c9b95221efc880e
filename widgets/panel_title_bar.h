// A dock's title bar with a "?" beside its title: the dock's title (followed as it changes),
// then the "?", then the float and close buttons the dock's features allow. Dragging and
// double-clicking the title still move and float the dock (the labels leave the mouse to it).
#pragma once

#include <QWidget>

class QDockWidget;
class QLabel;
class QToolButton;

namespace lmscope::widgets {

class HelpButton;

class PanelTitleBar : public QWidget {
    Q_OBJECT
public:
    // Installs itself as `dock`'s title bar widget.
    explicit PanelTitleBar(QDockWidget* dock);

    QString title() const;
    HelpButton* helpButton() const { return help_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fitButtons();
    void follow();  // the dock's title and features now

    QDockWidget* dock_;
    QLabel* title_;
    HelpButton* help_;
    QToolButton* float_;
    QToolButton* close_;
};

}  // namespace lmscope::widgets
