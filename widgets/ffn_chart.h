// The feed-forward network of one token (FfnData): at the left, the neurons that fired the most
// (by |activation|) as horizontal bars, signed (negative to the left in blue, positive to the
// right in red), labelled "#neuron", the strongest on top; at the right, the histogram of every
// neuron's activation; under them the norms: what enters (|resid_mid|), what the FFN writes
// (|mlp_out|), what leaves (|resid_post|), and the number of neurons with |act|.
#pragma once

#include "widgets/layer_view_data.h"
#include "widgets/plot_style.h"

#include <QStringList>
#include <QVector>

class QCPAxisRect;
class QCPBars;
class QCPGraph;
class QLabel;

namespace lmscope::widgets {

class FfnChart : public PlotPanel {
    Q_OBJECT
public:
    // What the chart draws, read back from it.
    struct ViewState {
        QString bars_title, hist_title;
        QVector<qint32> neurons;   // [bar] top to bottom
        QStringList labels;        // [bar] "#neuron"
        QVector<double> values;    // [bar] as drawn (signed)
        QVector<bool> negative;    // [bar] drawn in the negative colour
        double value_lower = 0.0, value_upper = 0.0;  // the bars' value axis
        QVector<double> edges;     // [bin + 1] the histogram as drawn
        QVector<double> counts;    // [bin]
        QString caption;
        QString value_label, hist_label, count_label;
    };

    explicit FfnChart(QWidget* parent = nullptr);

    void setData(const FfnData& data);
    ViewState viewState() const;
    QLabel* caption() const { return caption_; }

protected:
    void applyFonts() override;
    void retranslate() override;

private:
    void writeTexts();

    FfnData data_;
    QCPTextElement* bars_title_;
    QCPTextElement* hist_title_;
    QCPAxisRect* hist_rect_;
    QCPBars* positive_;
    QCPBars* negative_;
    QCPGraph* hist_;
    QLabel* caption_;
    QVector<qint32> neurons_;  // [bar] the neurons drawn
};

}  // namespace lmscope::widgets
