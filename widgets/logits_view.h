// The next-token distribution of the current step: the top candidates as horizontal bars, their
// probability before the sampling filters (raw softmax) beside the probability after them
// (temperature, top-k, top-p, min-p), the logit written at each bar, the chosen token
// highlighted and the entropy in the heading. Clicking a candidate (its bars or its label) asks
// for it to be forced (forceToken: the app starts a branch with it).
#pragma once

#include "widgets/export.h"
#include "widgets/trace_model.h"

#include <QWidget>

class QCPBars;
class QCPItemRect;
class QCustomPlot;
class QLabel;
class QMouseEvent;

namespace lmscope::widgets {

class LogitsView : public QWidget {
    Q_OBJECT
public:
    explicit LogitsView(TraceModel* model, QWidget* parent = nullptr);

    QCustomPlot* plot() const { return plot_; }
    QCPBars* beforeBars() const { return before_; }  // row -> raw probability
    QCPBars* afterBars() const { return after_; }    // row -> probability after the filters
    QCPItemRect* chosenMarker() const { return chosen_marker_; }
    QLabel* heading() const { return heading_; }
    const QVector<CandidateView>& rows() const { return rows_; }  // [row] top to bottom
    qint32 chosenRow() const;                                     // -1: not among the rows
    QPointF rowCenter(qint32 row) const;                          // in plot() pixels
    ChartTable table() const;

signals:
    void forceToken(qint32 id);

protected:
    void changeEvent(QEvent* e) override;

private:
    void applyFonts();
    void rebuild();
    void onMousePress(QMouseEvent* e);

    TraceModel* model_;
    QLabel* heading_;
    QCustomPlot* plot_;
    QCPBars* before_;
    QCPBars* after_;
    QCPItemRect* chosen_marker_;
    QVector<CandidateView> rows_;
    QVector<double> after_probs_;  // [row], NaN when filtered out
    qint32 chosen_ = -1;
};

}  // namespace lmscope::widgets
