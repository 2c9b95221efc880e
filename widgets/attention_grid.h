// Every layer x head of the current sequence at once, as small pictures: rows are layers,
// columns query heads. Heads that share a KV head (GQA/MQA) are grouped under one coloured
// band with matching frames. Clicking a thumbnail selects that (layer, head) in the TraceModel
// (the heatmap opens it) and emits headActivated.
//
// Thumbnails are QImages computed straight from the packed planes, one per plane, at most
// kThumbResolution pixels a side (longer sequences are max-pooled, a power-of-two number of
// positions per pixel, so a single sharp weight stays visible), drawn scaled with
// nearest-neighbour sampling. They are cached and extended in place when the sequence grows
// along the same path (a decode step adds one row), and rebuilt after a rewind or a new trace. Each row is
// scaled to its own largest weight and shown with a square-root ramp, so where each query looks
// stands out even when rows spread over hundreds of keys. Rows the trace kept only summaries
// of show their strongest key; rows with nothing recorded are grey.
//
// Heads can be switched off (ablated: their z is zero before Wo) from a thumbnail's context
// menu; the TraceModel keeps the set for the steps to come. A head switched off in the shown
// step is crossed out in red; one switched off from the next step has a dashed red frame.
#pragma once

#include "widgets/trace_model.h"

#include <QImage>
#include <QVector>
#include <QWidget>

#include <functional>

class QMenu;

namespace lmscope::widgets {

class AttentionGrid : public QWidget {
    Q_OBJECT
public:
    static constexpr qint32 kThumbResolution = 128;

    explicit AttentionGrid(TraceModel* model, QWidget* parent = nullptr);

    // The thumbnail of (layer, head) (computed on first use); null when out of range.
    QImage thumbnail(qint32 layer, qint32 head) const;
    QRect cellRect(qint32 layer, qint32 head) const;     // where it is drawn
    QRect groupBandRect(qint32 kv_group) const;          // the band naming a GQA group
    bool cellAt(const QPoint& p, qint32* layer, qint32* head) const;
    // The colour of each value 0..1 (the ramp of the thumbnails), and of masked / unrecorded cells.
    static QRgb rampColor(float normalized);
    static QRgb maskedColor();
    static QRgb unrecordedColor();

    // The actions of (layer, head)'s context menu: switch it off or back on, switch off every
    // head of its layer, switch every head back on, and recompute the shown step with the heads
    // now off (recomputeStep). None while switching is disabled (a replay).
    void fillHeadMenu(QMenu* menu, qint32 layer, qint32 head);
    // The same actions for any panel that shows (layer, head) of `model` (the heatmap's menu):
    // the one place they are made. `owner` owns the actions' connections; `recompute` (may be
    // empty) is called with the shown step's index by "Recompute this step".
    static void fillHeadMenu(QMenu* menu, TraceModel* model, QObject* owner, qint32 layer, qint32 head,
                             const std::function<void(qint32)>& recompute);
    void setSwitchingEnabled(bool on) { switching_ = on; }
    bool switchingEnabled() const { return switching_; }

    struct ViewState {
        QVector<LayerHead> off_in_step;  // crossed out: the shown step ran without them
        QVector<LayerHead> off_next;     // dashed frame: the next steps run without them
    };
    ViewState viewState() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void headActivated(qint32 layer, qint32 head);
    // "Recompute this step": rewind to the step's parent and run it again with the heads off now.
    void recomputeStep(qint32 step);

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    struct Geometry {
        int left = 0, top = 0;  // origin of cell (0, 0)
        int cell = 0;           // thumbnail side
        int gap = 0;            // between thumbnails
        int band_top = 0, band_height = 0;
    };
    // One plane's pooled maxima and picture, covering positions 0..n-1.
    struct Thumb {
        qint32 generation = -1;   // == generation_ while valid
        qint32 n = 0;             // positions pooled
        QVector<quint16> pooled;  // [kThumbResolution][kThumbResolution] half-float bits
        QVector<bool> recorded;   // [pixel row] holds a captured row or summary
        QImage image;
    };
    Geometry geometry() const;
    const StepView* shownStep() const;  // the current step; nullptr: none
    const Thumb* current(qint32 layer, qint32 head) const;  // up to date; nullptr: none
    void extend(Thumb& t, qint32 layer, qint32 head) const;  // pools rows t.n..end, repaints them
    void reset();             // everything changed: rebuild thumbnails when drawn
    void sequenceChanged();   // the current step moved: extend or rebuild

    TraceModel* model_;
    mutable QVector<Thumb> cache_;  // [layer][head]; built when first drawn
    qint32 generation_ = 0;
    qint32 positions_per_pixel_ = 1;
    QVector<qint32> cached_path_;   // the step path the thumbnails were pooled along
    bool switching_ = true;
};

}  // namespace lmscope::widgets
