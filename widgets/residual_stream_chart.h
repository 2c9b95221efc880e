// How one token's residual stream grows through the layers: per layer the norm of resid_pre as a
// line (the stream's size going in) and the norms of attn_out and mlp_out as grouped bars (how
// much each sub-layer writes into it); the selected layer behind a light band; the logit lens'
// top token after each layer written above the plot (across while few layers, upright up to
// kMaxLensLabels, past that only the selected layer's); the legend below.
#pragma once

#include "widgets/layer_view_data.h"
#include "widgets/plot_style.h"

#include <QVector>

class QCPBars;
class QCPBarsGroup;
class QCPGraph;
class QCPItemRect;

namespace lmscope::widgets {

class ResidualStreamChart : public PlotPanel {
    Q_OBJECT
public:
    // What the chart draws, read back from it.
    struct ViewState {
        QVector<double> resid_pre;  // [layer] the line's points (NaN: none)
        QVector<double> attn_out;   // [layer] the attention bars (NaN: none)
        QVector<double> mlp_out;    // [layer] the MLP bars (NaN: none)
        qint32 selected = -1;       // the layer behind the band; -1: none
        QStringList lens_labels;    // [layer] the text written above it ("" where none)
        bool lens_upright = false;  // the lens labels are rotated to run upwards
        QStringList legend;         // the line, then the two bars
        QString layer_label, norm_label, lens_label;
        double norm_high = 0.0;     // the norm axis's upper end (it starts at 0)
    };

    explicit ResidualStreamChart(QWidget* parent = nullptr);

    void setData(const ResidualStreamData& stream);
    ViewState viewState() const;

    static constexpr qint32 kAcrossLensLabels = 12;  // up to this many layers: labels across
    static constexpr qint32 kMaxLensLabels = 40;     // up to this many: every layer's, upright
    static constexpr qint32 kMaxLensChars = 12;      // longer tokens are elided

protected:
    void retranslate() override;

private:
    void rebuild();

    ResidualStreamData data_;
    QCPGraph* resid_;
    QCPBars* attn_;
    QCPBars* mlp_;
    QCPBarsGroup* group_;
    QCPItemRect* band_;  // the selected layer
    QStringList lens_shown_;  // [layer]
};

}  // namespace lmscope::widgets
