// The loop as its steps along the shown branch on a time axis: each step a bar as long as its
// forward pass took (one linear scale, its ticks in ms or s under the bars), so a long prefill
// is as much longer than a decode as it really was; prefill bars blue and taller, decode bars
// green (orange when the token was forced) in two alternating shades so neighbours stay apart
// however many there are; each bar's time under it where it fits. The current step is
// outlined; steps after it (kept after a rewind) are faded. Clicking a step asks to rewind
// there (rewindTo: the app truncates the engine's cache and moves the TraceModel's current
// step). Every branch stays in the branch list; picking one shows it.
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

    // A tick of the time axis, in canvas() coordinates.
    struct Tick {
        double ms = 0;      // time since the branch's first step began
        int x = 0;
        QString label;      // "250 ms", "1.5 s"
        QRect label_rect;
    };
    QVector<Tick> ticks() const;
    // A tick's label at `ms` on an axis ticking every `step` ms, in seconds or ms, with the
    // decimals the step needs ("250 ms", "1.5 s").
    static QString tickLabel(double ms, double step, bool seconds);
    // A step's time as printed under its bar: "126.0 ms", "8.70 s".
    static QString durationText(double ms);

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
