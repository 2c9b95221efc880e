// The attention heatmap of one (layer, head), or the mean of a layer's heads: query positions
// as rows (top to bottom) by key positions as columns, one cell per weight, no interpolation.
// Masked cells are hatched (the future, and keys outside a local layer's sliding window, each
// named when hovered); rows the trace did not capture are grey.
// Tokens label both axes; hovering a cell shows "query 'x' (pos) → key 'y' (pos): weight";
// clicking a cell selects its query row, whose weights are drawn as bars underneath.
// Layer, head and "mean over heads" follow and drive the TraceModel's selection.
#pragma once

#include "widgets/export.h"
#include "widgets/trace_model.h"

#include <QWidget>

class QCheckBox;
class QCPAxisRect;
class QCPBars;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QSpinBox;

namespace lmscope::widgets {

class AttentionHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit AttentionHeatmap(TraceModel* model, QWidget* parent = nullptr);

    QCustomPlot* plot() const { return plot_; }
    QCPColorMap* colorMap() const { return map_; }  // cell (key, query); NaN: masked or not captured
    QCPBars* rowBars() const { return bars_; }      // the selected query row, key -> weight
    QSpinBox* layerBox() const { return layer_box_; }
    QSpinBox* headBox() const { return head_box_; }
    QCheckBox* meanBox() const { return mean_box_; }
    // Colours on a log scale (weights span orders of magnitude): 1e-4 x the largest weight and
    // below share the lightest colour.
    QCheckBox* logBox() const { return log_box_; }
    QLabel* layerLabel() const { return layer_label_; }
    QLabel* headLabel() const { return head_label_; }
    QLabel* groupLabel() const { return group_label_; }  // which query heads share the KV head
    // Why rows show grey (not recorded), in words; hidden when every row is there.
    QLabel* noteLabel() const { return note_; }
    QString title() const;                               // "Layer 3 · head 5"
    const AttentionMatrix& matrix() const { return matrix_; }

    bool meanOverHeads() const;
    void setMeanOverHeads(bool on);
    // "query 'bank' (2) → key 'The' (0): 0.125" (or masked / not recorded).
    QString cellDescription(qint32 query, qint32 key) const;
    // Where cell (query, key) is drawn, in plot() pixels.
    QPointF cellCenter(qint32 query, qint32 key) const;
    ChartTable table() const;  // the shown matrix, one row per (query, key)

signals:
    void cellClicked(qint32 query, qint32 key);

protected:
    void changeEvent(QEvent* e) override;

private:
    void buildControls();
    void buildPlot();
    void retranslate();  // every text, in the language installed now
    void rebuild();      // new matrix: steps, current step, layer/head or mean changed
    void updateRow();    // the selected query row changed
    void syncControls();
    QString missingRowsNote() const;  // for the shown matrix ("" when every row is there)
    void setTicks();
    bool cellAt(const QPointF& pixel, qint32* query, qint32* key) const;
    void onMouseMove(QMouseEvent* e);
    void onMousePress(QMouseEvent* e);

    TraceModel* model_;
    QSpinBox* layer_box_ = nullptr;
    QSpinBox* head_box_ = nullptr;
    QCheckBox* mean_box_ = nullptr;
    QCheckBox* log_box_ = nullptr;
    QLabel* group_label_ = nullptr;
    QLabel* note_ = nullptr;
    QLabel* layer_label_ = nullptr;
    QLabel* head_label_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPAxisRect* map_rect_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPAxisRect* row_rect_ = nullptr;
    QCPBars* bars_ = nullptr;
    QCPItemRect* row_marker_ = nullptr;
    QVector<QCPItemRect*> uncaptured_;  // grey bands over rows without data
    AttentionMatrix matrix_;
    bool syncing_ = false;  // controls being set from the model
};

}  // namespace lmscope::widgets
