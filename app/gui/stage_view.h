// Stage mode's screen: one stage of the lesson (stage_registry.h) at a time, for a projector.
// In a column on the left (or a band across the top, for a lab's wide panes) the stage's
// number and title, the lesson's sentences for it, the layer, head and token pickers it offers
// (the TraceModel's selection, shared with every panel), Back and Next and the keys; beside
// them its one or two panels, at a larger font.
// The panels are the window's own, lent to the stage (taken from their dock or lab tab, a
// placeholder left there) and given back when the stage changes or is left: what the stage
// shows is the session the docks show, stepped by the same Space.
// Page Down / → go to the next stage, Page Up / ← to the previous one (a presenter's clicker).
#pragma once

#include "gui/stage_registry.h"

#include <QSet>
#include <QWidget>

#include <memory>
#include <vector>

class QAction;
class QBoxLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QSplitter;

namespace lmscope::gui {

class MainWindow;
namespace labs {
class Lab;
}

class StageView : public QWidget, private StagePanels {
    Q_OBJECT
public:
    // Lends the panels of `window` (its session's and its labs').
    explicit StageView(MainWindow* window);
    ~StageView() override;  // gives every panel back

    int count() const;
    int current() const { return current_; }  // -1: none shown (every panel at home)
    // The panels the stage shows now, top to bottom.
    QList<QWidget*> panels() const;
    QLabel* sentencesLabel() const { return sentences_; }
    QLabel* titleLabel() const { return title_; }
    QAction* nextAction() const { return next_; }
    QAction* previousAction() const { return previous_; }

    // The stage's font (its texts and the step-through panels) over the window's; a lab keeps
    // the window's font (its panes need the room).
    static constexpr double kPanelScale = 1.25;

public slots:
    // Shows stage `index` (clamped to the stages), lending its panels.
    void showStage(int index);
    // Gives every panel back to its dock or lab (stage mode is left); current() becomes -1.
    void release();

signals:
    void stageChanged(int index);

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    class Loan;

    QWidget* lend(Panel panel) override;
    QWidget* lend(QWidget* w) override;
    labs::Lab* lab(Panel panel) const override;
    void retranslate();
    void fitSide();        // the sentences' column width, or the band across the top
    void updatePickers();  // ranges and values from the TraceModel's selection and sequence
    void pick();           // a picker changed: the TraceModel's selection follows

    MainWindow* window_;
    int current_ = -1;
    std::vector<std::unique_ptr<Loan>> loans_;
    QList<QWidget*> shown_;
    QSet<QWidget*> lab_panes_;  // lent from the lab window: they keep the window's font

    QLabel* counter_;
    QLabel* title_;
    QPushButton* back_button_;
    QPushButton* next_button_;
    QBoxLayout* body_ = nullptr;  // the sentences' column (or band) and the panels
    QWidget* side_;
    QBoxLayout* side_layout_ = nullptr;
    QWidget* pickers_ = nullptr;
    QWidget* gap_ = nullptr;      // pushes Back and Next to the column's foot
    QLabel* sentences_;
    QLabel* layer_label_;
    QLabel* head_label_;
    QLabel* token_label_;
    QSpinBox* layer_;
    QSpinBox* head_;
    QSpinBox* token_;
    QLabel* token_text_;
    QLabel* keys_;
    QSplitter* panels_box_;
    QAction* next_;
    QAction* previous_;
};

}  // namespace lmscope::gui
