// The KV cache chart: bytes held against tokens, one point per step along the current path
// (measured by the engine), on the formula's line across the whole context (2 x layers x
// kv_heads x head_dim x tokens x bytes per element; with sliding-window layers, global layers x
// tokens + local layers x min(tokens, W) in place of layers x tokens: ModelView::kv_formula),
// with the local layers' part as its own line flattening at W, and the selected layer's bytes
// below them (a local layer's line flattens at its window). Without the model's line (a model
// view without it) the formula is drawn at the steps' own points. Prefill steps are squares,
// decode steps dots; a step whose measured bytes are not the formula's gets a red cross (the
// cache stores other rows than the formula counts).
#pragma once

#include "widgets/export.h"
#include "widgets/trace_model.h"

#include <QWidget>

class QCPGraph;
class QCPItemStraightLine;
class QCPTextElement;
class QCustomPlot;

namespace lmscope::widgets {

class KvChart : public QWidget {
    Q_OBJECT
public:
    explicit KvChart(TraceModel* model, QWidget* parent = nullptr);

    // What the chart draws, read back from it: one point per step along the current path.
    struct ViewState {
        QVector<double> tokens;     // [point] tokens in the cache (x)
        QVector<double> measured;   // [point] bytes held, all layers
        QVector<double> formula_tokens;  // [corner] x of the formula's line (the steps' tokens without
                                         // the model's line); empty when hidden (no formula known)
        QVector<double> formula;    // [corner] its bytes
        QVector<double> local_tokens, local_bytes;  // the local layers' part; empty: no local layers
        double window_tokens = 0;   // x of the window's mark; 0: none shown
        double tokens_end = 0;      // the tokens axis's upper end
        QVector<double> layer;      // [point] the selected layer's bytes (NaN: the step has none)
        QString layer_name;         // the layer line's legend entry
        QVector<double> prefill_tokens, decode_tokens;  // x of the prefill / decode marks
        QVector<double> disagree_tokens;  // x of the red crosses: measured != formula (a formula known)
        int prefill_shape = 0, decode_shape = 0;        // the marks' QCPScatterStyle::ScatterShape
        QString title, tokens_label, bytes_label;
        QString tooltip;            // the formula for this model's layers
    };

    QCustomPlot* plot() const { return plot_; }
    ViewState viewState() const;
    // "KV cache: 1.5 MiB holding 12 tokens (f16)", the whole text; drawn in as many lines as the
    // chart's width needs (fit_titles).
    QString title() const;
    ChartTable table() const;

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void retranslate();
    void rebuild();
    void formulaTip();  // the plot's tooltip: the formula for this model's layers

    TraceModel* model_;
    QCustomPlot* plot_;
    QCPGraph* measured_;
    QCPGraph* formula_;
    QCPGraph* local_;
    QCPItemStraightLine* window_mark_;
    QCPGraph* layer_;
    QCPGraph* prefill_;
    QCPGraph* decode_;
    QCPGraph* disagree_;
    QCPTextElement* title_;
};

}  // namespace lmscope::widgets
