// The KV cache experiment's chart: per row (each prompt position, then each decode step) the KL
// divergence of a quantized cache's next-token distribution from the fp16 cache's, on a log scale,
// a dashed line where the decode steps begin.
#pragma once

#include "widgets/plot_style.h"

#include <QVector>

class QCPGraph;
class QCPItemStraightLine;

namespace lmscope::widgets {

// One quantized cache's curve.
struct CacheKlSeries {
    QString cache;       // the cache type as the legend names it ("int8 (q8_0)")
    QVector<double> kl;  // [row] KL(P_fp16 ‖ P_cache) in nats; empty: no run yet
};

struct CacheKlData {
    CacheKlSeries series[2];  // blue, then red (q8_0, then q4_0)
    qint32 prompt_rows = 0;   // the rows that are prompt positions; the decode steps follow
    qint32 decode_rows = 0;   // 0: no decode steps, no dashed line
};

class CacheKlChart : public PlotPanel {
    Q_OBJECT
public:
    // What the chart draws, read back from it.
    struct ViewState {
        QVector<double> kl[2];     // [series][row]
        QString names[2];          // the legend
        QString row_label, kl_label;
        bool kl_log = false;       // the KL axis is logarithmic
        bool decode_line = false;  // the dashed line is shown...
        double decode_x = 0.0;     // ...at this row coordinate
        double kl_low = 0.0, kl_high = 0.0;  // the KL axis's range
    };

    explicit CacheKlChart(QWidget* parent = nullptr);

    void setData(const CacheKlData& chart);
    ViewState viewState() const;

protected:
    void retranslate() override;
    void applyFonts() override;            // and the legend's columns
    void resizeEvent(QResizeEvent* e) override;  // the legend's columns for the new width

private:
    QCPGraph* graphs_[2];
    QCPItemStraightLine* decode_line_;  // where the decode steps start
    QString caches_[2];
};

}  // namespace lmscope::widgets
