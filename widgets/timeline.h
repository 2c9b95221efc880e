// The loop as a row of steps along the shown branch: prefill a tall blue block, each decode a
// shorter green one (orange when the token was forced), with the step's time and token. The
// current step is outlined; steps after it (kept after a rewind) are faded. Clicking a step
// asks to rewind there (rewindTo: the app truncates the engine's cache and moves the
// TraceModel's current step). Every branch stays in the branch list; picking one shows it.
#pragma once

#include "widgets/trace_model.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace lmscope::widgets {

class TimelineCanvas;

class Timeline : public QWidget {
    Q_OBJECT
public:
    explicit Timeline(TraceModel* model, QWidget* parent = nullptr);

    QLabel* branchLabel() const { return branch_label_; }
    QComboBox* branchBox() const { return branch_box_; }
    QLabel* summary() const { return summary_; }
    QWidget* canvas() const;
    QRect stepRect(qint32 step) const;  // in canvas() coordinates; empty when not shown

signals:
    void rewindTo(qint32 step);
    void branchSelected(qint32 leaf);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void refreshBranches();
    void refreshSummary();

    TraceModel* model_;
    QLabel* branch_label_;
    QComboBox* branch_box_;
    QLabel* summary_;
    TimelineCanvas* canvas_;
};

}  // namespace lmscope::widgets
