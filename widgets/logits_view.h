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

    // What the panel draws, read back from it: one entry per row, top to bottom.
    struct ViewState {
        QStringList labels;      // [row] the token at the left ("'␣was'", "▶ '␣was'" when chosen)
        QVector<double> before;  // [row] the bar of the probability before the filters
        QVector<double> after;   // [row] the bar after them (0: filtered out)
        // [row] the numbers at the right ("0.568 → 1.000", "0.091 ✗ top-k") and the hover text
        // (the token, both probabilities or the filter that removed it, and the logit).
        QStringList numbers, tips;
        qint32 marked_row = -1;  // the row the chosen-token highlight covers; -1: none shown
        QString before_name, after_name;  // the legend
        QString probability_label;
        double probability_top = 0.0;     // the probability axis's upper end
        QString heading;
    };

    QCustomPlot* plot() const { return plot_; }
    QLabel* heading() const { return heading_; }
    const QVector<CandidateView>& rows() const { return rows_; }  // [row] top to bottom
    qint32 chosenRow() const;                                     // -1: not among the rows
    QPointF rowCenter(qint32 row) const;                          // in plot() pixels
    ViewState viewState() const;
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
    QStringList row_tips_;         // [row] the hover text
    qint32 chosen_ = -1;
};

}  // namespace lmscope::widgets
