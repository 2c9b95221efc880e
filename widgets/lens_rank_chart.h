// The logit lens's rank chart: where the model's final prediction ranks after each layer (on a
// log scale, rank 1 at the top), and its probability there on a second axis.
#pragma once

#include "widgets/plot_style.h"

#include <QVector>

class QCPGraph;

namespace lmscope::widgets {

// One entry per layer, in layer order.
struct LensRankData {
    QVector<double> rank;  // [layer] the final prediction's rank in the lens, 1 = top
    QVector<double> prob;  // [layer] its probability in the lens, 0..1
};

class LensRankChart : public PlotPanel {
    Q_OBJECT
public:
    // What the chart draws, read back from it.
    struct ViewState {
        QVector<double> layers;  // [point] x: the layer
        QVector<double> rank;    // [point] on the rank axis
        QVector<double> prob;    // [point] on the probability axis
        QString rank_name, prob_name;  // the legend
        QString layer_label, rank_label, prob_label;
        bool rank_log = false;       // the rank axis is logarithmic
        bool rank_reversed = false;  // rank 1 at the top
        double rank_bottom = 0.0;    // the rank axis's far end (the worst rank shown, with room)
    };

    explicit LensRankChart(QWidget* parent = nullptr);

    void setData(const LensRankData& lens);
    ViewState viewState() const;

protected:
    void retranslate() override;

private:
    QCPGraph* rank_;
    QCPGraph* prob_;
};

}  // namespace lmscope::widgets
