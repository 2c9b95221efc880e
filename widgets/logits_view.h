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
class QPushButton;

namespace lmscope::widgets {

// "With and without": a step that ran with heads switched off, its next-token distribution
// beside the one the same tokens give with every head on (computed by the app).
struct AblationComparisonView {
    enum class State { None, Computing, Ready, Failed };
    State state = State::None;
    qint32 step = -1;            // the step it belongs to: shown only while that step is current
    QVector<LayerHead> heads;    // the heads the step ran without
    struct Row {
        qint32 id = 0;
        QString text;
        double with = 0.0, without = 0.0;  // probabilities
    };
    QVector<Row> top;            // the most probable with the heads off, highest first
    double kl = 0.0;             // KL(with || without), nats
    QString error;               // Failed: why
};

// The sampler step that removed a candidate, named in one place for the panel's "✗ …" and the
// export's removed_by column: the filter stage, except the temperature stage, which removes
// tokens only at temperature 0, where it keeps the top token alone: greedy decoding.
struct RemovalName {
    QString id;     // the export's word: "greedy", "top_k", "top_p", "min_p", "penalty"
    QString title;  // the panel's, translated: "greedy", "top-k", "top-p", "min-p", "repetition penalty"
};
RemovalName removal_name(Stage stage);

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
        // With and without (shown when the current step ran with heads switched off).
        bool comparison_shown = false;
        QString comparison_heading;       // "Heads switched off: L3 H5, … · KL(with ‖ without) = 0.123 nats"
        QStringList comparison_tokens;    // [row]
        QVector<double> with, without;    // [row] probabilities
        double kl = qQNaN();
        bool recompute_enabled = false;   // the "Recompute this step" button is shown
    };

    QCustomPlot* plot() const { return plot_; }
    QLabel* heading() const { return heading_; }
    const QVector<CandidateView>& rows() const { return rows_; }  // [row] top to bottom
    qint32 chosenRow() const;                                     // -1: not among the rows
    QPointF rowCenter(qint32 row) const;                          // in plot() pixels
    ViewState viewState() const;
    ChartTable table() const;

    // The with-and-without figures of a step (the app computes them); shown while that step is
    // current and ran with heads switched off.
    void setComparison(const AblationComparisonView& comparison);
    const AblationComparisonView& comparison() const { return comparison_; }
    // "Recompute this step" (rewinds to the step's parent and runs it with the heads off now):
    // shown while the heads off now differ from those the current step ran without; off in a replay.
    void setRecomputeEnabled(bool on);
    QPushButton* recomputeButton() const { return recompute_; }

signals:
    void forceToken(qint32 id);
    void recomputeStep(qint32 step);

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
    QLabel* compare_;  // with and without
    QPushButton* recompute_;
    AblationComparisonView comparison_;
    bool recompute_enabled_ = true;
    void updateComparison();
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
