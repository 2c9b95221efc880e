// The KV cache lab's growth chart: cache bytes against context length, one curve per attention
// variant (MHA, GQA, MQA: the colour) and cache type (fp16, q8_0, q4_0: the line), the device
// budget and what the weights leave of it as horizontal lines, and a live run's measured bytes;
// on log-log or linear axes, the legend below.
#pragma once

#include "util/types.h"
#include "widgets/plot_style.h"

#include <QVector>

#include <optional>

class QCPGraph;

namespace lmscope::widgets {

// A cache's bytes against context length, or the live run's points.
struct KvGrowthCurve {
    qint32 family = 0;          // the attention variant: 0 MHA (red), 1 GQA (blue), 2 MQA (green)
    KvType type = KvType::F16;  // the line: fp16 solid and wider, q8_0 dashed, q4_0 dotted
    QString name;               // the legend's entry
    QVector<double> tokens;     // [point] context length, increasing
    QVector<double> bytes;      // [point] cache bytes at that length
};

// A horizontal line across the curves' span.
struct KvGrowthLine {
    QString name;      // the legend's entry
    double bytes = 0;  // its height
};

struct KvGrowthData {
    QVector<KvGrowthCurve> curves;  // at most one per (family, type)
    double first_tokens = 1;        // the span the lines cross
    double last_tokens = 1;
    KvGrowthLine budget;                   // the device budget
    std::optional<KvGrowthLine> kv_space;  // the budget less the weights, when that leaves any
    KvGrowthCurve measured;                // the live run (its family and type unused); empty: hidden
    bool log_scale = true;                 // log-log axes, else linear from 0
};

class KvGrowthChart : public PlotPanel {
    Q_OBJECT
public:
    // What the chart draws, read back from it.
    struct ViewState {
        QVector<KvGrowthCurve> curves;   // the visible curves, in legend order
        std::optional<KvGrowthLine> budget, kv_space;  // the lines shown
        std::optional<KvGrowthCurve> measured;         // the live run, when shown
        QStringList legend;              // every entry, in order
        QString tokens_label, bytes_label;
        bool log_scale = false;          // both axes logarithmic
    };

    explicit KvGrowthChart(QWidget* parent = nullptr);

    void setData(const KvGrowthData& chart);
    ViewState viewState() const;

protected:
    void retranslate() override;
    void applyFonts() override;            // and the legend's columns
    void resizeEvent(QResizeEvent* e) override;  // the legend's columns for the new width

private:
    static constexpr int kMinHeight = 220, kMinDataHeight = 100;
    void relegend();
    void fitLegend();  // the legend's columns for the width, the chart's height for its rows
    void rescale(bool log);
    static std::optional<KvGrowthLine> lineOf(const QCPGraph* g);

    QCPGraph* curves_[3][3] = {};  // [family][KvType]
    QCPGraph* budget_;
    QCPGraph* kv_space_;
    QCPGraph* measured_;
};

}  // namespace lmscope::widgets
