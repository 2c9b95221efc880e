// The loop's controls above the panels: the prompt, Step, Play/Pause with its speed, Stop and
// Reset. The buttons show the window's actions (their shortcuts: Space, P, Esc, Ctrl+R).
#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QPlainTextEdit;
class QSlider;

namespace lmscope::gui {

class StepControls : public QWidget {
    Q_OBJECT
public:
    StepControls(QAction* step, QAction* play, QAction* stop, QAction* reset, QWidget* parent = nullptr);

    QString prompt() const;
    void setPrompt(const QString& text);
    QPlainTextEdit* promptEditor() const { return prompt_; }
    int speed() const;  // steps per second
    void setSpeed(int steps_per_second);
    void retranslate();

private:
    QPlainTextEdit* prompt_;
    QSlider* speed_;
    QLabel* speed_label_;
    QLabel* prompt_label_;
};

}  // namespace lmscope::gui
