// The attention heatmap of one (layer, head), or the mean of a layer's heads: query positions
// as rows (top to bottom) by key positions as columns, one cell per weight, no interpolation.
// Masked cells are hatched (the future, and keys outside a local layer's sliding window, each
// named when hovered); rows the trace did not capture are grey.
// Any length stays readable: past 512 positions in view the map is an overview whose cells each
// hold the largest weight of a b × b block of positions (a thin diagonal never vanishes between
// pixels; a sequence too long for TraceModel::kMatrixBytes stays pooled when zoomed in, the
// hover text and the row's bars still give each key's own weight); the mouse wheel zooms, dragging pans, a double-click shows everything again, and
// "Zoom to row" shows the 48 positions around the selected query row at one cell per token.
// Tokens label both axes; hovering a cell shows "query 'x' (pos) → key 'y' (pos): weight";
// clicking a cell selects its query row, whose weights are drawn as bars underneath.
// Layer, head and "mean over heads" follow and drive the TraceModel's selection.
#pragma once

#include "widgets/export.h"
#include "widgets/trace_model.h"

#include <QWidget>

#include <utility>

class QCheckBox;
class QPushButton;
class QCPAxisRect;
class QCPBars;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCustomPlot;
class QLabel;
class QMenu;
class QMouseEvent;
class QSpinBox;

namespace lmscope::widgets {

class AttentionHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit AttentionHeatmap(TraceModel* model, QWidget* parent = nullptr);

    // What the map draws, read back from it.
    struct ViewState {
        qint32 side = 0;          // the map is side x side cells (positions shown / cellBlock(), rounded up)
        QVector<double> cells;    // [query cell][key cell], row-major; NaN: masked or not recorded
        QVector<double> centres;  // [cell] the position at a cell's centre (the same on both axes)
        double color_low = 0.0, color_high = 0.0;  // the colour scale's range
        bool log_colors = false;    // colours on a log scale
        bool interpolated = false;  // cells blended into their neighbours
        bool masked_hatched = false;  // NaN cells let the hatched background through
        QVector<double> row;      // [key] the selected query row's bars: its weights
        QString key_label, query_label, scale_label, row_label;
        double cell(qint32 query_cell, qint32 key_cell) const { return cells[qsizetype(query_cell) * side + key_cell]; }
    };

    QCustomPlot* plot() const { return plot_; }
    ViewState viewState() const;
    QSpinBox* layerBox() const { return layer_box_; }
    QSpinBox* headBox() const { return head_box_; }
    QCheckBox* meanBox() const { return mean_box_; }
    // Colours on a log scale (weights span orders of magnitude): 1e-4 x the largest weight and
    // below share the lightest colour.
    QCheckBox* logBox() const { return log_box_; }
    QLabel* layerLabel() const { return layer_label_; }
    QLabel* headLabel() const { return head_label_; }
    QLabel* groupLabel() const { return group_label_; }  // which query heads share the KV head
    // Why rows show grey (not recorded), and whether the shown head is switched off, in words;
    // hidden when every row is there and the head is on.
    QLabel* noteLabel() const { return note_; }
    // Checked: the view follows the selected query row, kDetail positions around it.
    QPushButton* zoomButton() const { return zoom_button_; }
    static constexpr qint32 kDetail = 48;
    // The positions in view (both axes show the same span), first and last inclusive.
    std::pair<qint32, qint32> shownPositions() const;
    // Positions per map cell along each axis: 1, or the overview's block size b.
    qint32 cellBlock() const { return block_; }
    // Shows positions [first, last] on both axes (clamped to the sequence); everything when
    // first > last.
    void showPositions(qint32 first, qint32 last);
    QString title() const;  // "Layer 3 · head 5" (" · 4 × 4 tokens a cell (zoom for each)" in an overview)
    const AttentionMatrix& matrix() const { return matrix_; }

    bool meanOverHeads() const;
    // "query 'bank' (2) → key 'The' (0): 0.125" (or masked / not recorded).
    QString cellDescription(qint32 query, qint32 key) const;
    // Where cell (query, key) is drawn, in plot() pixels.
    QPointF cellCenter(qint32 query, qint32 key) const;
    // The shown matrix, one row per (query, key) cell that is not masked (per block, named by its
    // first positions, when the matrix pools blocks).
    ChartTable table() const;

    // The map's context menu: the attention grid's head actions (AttentionGrid::fillHeadMenu)
    // for the layer and head shown: turn it off or back on, every head of the layer off, every
    // head back on, recompute the step. None while switching is disabled (a replay).
    void fillHeadMenu(QMenu* menu);
    void setSwitchingEnabled(bool on) { switching_ = on; }
    bool switchingEnabled() const { return switching_; }

signals:
    void cellClicked(qint32 query, qint32 key);
    // "Recompute this step": rewind to the step's parent and run it again with the heads off now.
    void recomputeStep(qint32 step);

protected:
    void changeEvent(QEvent* e) override;

private:
    void buildControls();
    void buildPlot();
    void retranslate();  // every text, in the language installed now
    void rebuild();      // new matrix: steps, current step, layer/head or mean changed
    void updateRow();    // the selected query row changed
    void syncControls();
    QString missingRowsNote() const;
    QString switchedOffNote() const;  // the shown head switched off, in this step or the next
    QVector<float> rowWeights(qint32 query) const;  // the query's own weights (head or mean); empty: not recorded  // for the shown matrix ("" when every row is there)
    void setTicks();       // token labels for the positions in view
    void fillCells();      // the map's cells at the resolution the span in view needs
    void setTitle();       // "Layer 3 · head 5", and the overview's block size
    void onRangeChanged(); // the user's zoom or pan: stop following the row, then fitRange
    void fitRange();       // clamp the ranges, follow with the bars, resample, relabel
    void centreOnRow();    // "Zoom to row": the detail window around the selected query
    bool cellAt(const QPointF& pixel, qint32* query, qint32* key) const;
    void onMouseMove(QMouseEvent* e);
    void onMousePress(QMouseEvent* e);

    TraceModel* model_;
    QSpinBox* layer_box_ = nullptr;
    QSpinBox* head_box_ = nullptr;
    QCheckBox* mean_box_ = nullptr;
    QCheckBox* log_box_ = nullptr;
    QPushButton* zoom_button_ = nullptr;
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
    qint32 block_ = 1;      // positions per map cell (the overview's b)
    QSize ticks_for_;       // the map's size in pixels the labels were spaced for
    double max_w_ = 1.0;    // the colour scale's top: the largest weight shown
    bool syncing_ = false;  // controls being set from the model
    bool ranging_ = false;  // the axes' ranges being set here (not by the user's wheel or drag)
    bool switching_ = true;  // the menu may switch heads off (not in a replay)
};

}  // namespace lmscope::widgets
