// The next-token distribution of the current step: the top candidates as horizontal bars, their
// probability before the sampling filters (raw softmax) beside the probability after them
// (temperature, top-k, top-p, min-p), each row's numbers on the right axis (probability before
// → after, or ✗ and the filter that removed it; hovering a row adds its logit), the legend
// below the bars, the chosen token highlighted and the entropy in the heading. Clicking a candidate (its bars or its label) asks
// for it to be forced (forceToken: the app starts a branch with it).
#pragma once

#include "widgets/export.h"
#include "widgets/trace_model.h"

#include <QStringList>
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
    // The numbers at the right of a row ("0.568 → 1.000", "0.091 ✗ top-k") and its hover text
    // (the token, both probabilities or the filter that removed it, and the logit).
    QString rowNumbers(qint32 row) const { return row_numbers_.value(row); }
    QString rowTooltip(qint32 row) const { return row_tips_.value(row); }
    ChartTable table() const;

signals:
    void forceToken(qint32 id);

protected:
    void changeEvent(QEvent* e) override;

private:
    void applyFonts();
    void rebuild();
    void onMousePress(QMouseEvent* e);
    qint32 rowAt(const QPointF& pixel) const;  // -1: no row at that height

    TraceModel* model_;
    QLabel* heading_;
    QLabel* key_;  // says what each row's numbers are
    QCustomPlot* plot_;
    QCPBars* before_;
    QCPBars* after_;
    QCPItemRect* chosen_marker_;
    QVector<CandidateView> rows_;
    QVector<double> after_probs_;  // [row], NaN when filtered out
    QStringList row_numbers_;      // [row]
    QStringList row_tips_;         // [row]
    qint32 chosen_ = -1;
};

}  // namespace lmscope::widgets
