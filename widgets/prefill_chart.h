// The chat lab's cost chart: per turn, the tokens prefilled with prefix reuse beside those
// prefilled without it (the whole history again), as bars on the left axis, and the running totals
// of tokens processed (prefill + generated) on the right axis.
#pragma once

#include "widgets/plot_style.h"

#include <QStringList>
#include <QVector>

class QCPBars;
class QCPGraph;

namespace lmscope::widgets {

// One chat turn's token counts.
struct PrefillTurn {
    double with_reuse = 0;     // tokens prefilled with prefix reuse (the cache keeps the rest)
    double without_reuse = 0;  // tokens prefilled without it: the whole rendered history
    double generated = 0;      // reply tokens decoded this turn
};

class PrefillChart : public PlotPanel {
    Q_OBJECT
public:
    // What the chart draws, read back from it: one entry per turn, in order.
    struct ViewState {
        QStringList turns;                     // the x labels ("turn 1", ...)
        QVector<double> with_reuse;            // the bars
        QVector<double> without_reuse;
        QVector<double> with_total;            // running totals, generated tokens included
        QVector<double> without_total;
        QStringList names;                     // the legend: with, without, with total, without total
        QString turn_label, prefill_label, total_label;  // x, left and right axes
    };

    explicit PrefillChart(QWidget* parent = nullptr);

    void setData(const QVector<PrefillTurn>& turns);
    ViewState viewState() const;

protected:
    void retranslate() override;

private:
    QCPBars* with_bars_;
    QCPBars* without_bars_;
    QCPGraph* with_total_;
    QCPGraph* without_total_;
    QVector<PrefillTurn> turns_;
};

}  // namespace lmscope::widgets
