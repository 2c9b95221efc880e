// The session the loop panels show: the model's shape, every step (branches included), the
// step being looked at, and the selection shared by all panels (query position, layer, head).
// Panels bind to its signals; the app feeds it steps (live or from a trace file) and moves the
// current step when the engine steps or rewinds.
//
// Steps form a tree through their parents: a rewind followed by a new step starts a branch.
// The "branch" is the path from the first step to a leaf; the current step lies on it (after
// a rewind, the steps beyond the current one stay visible until a new step replaces them).
#pragma once

#include "widgets/trace_view.h"

#include <QObject>
#include <QVector>

namespace lmscope::widgets {

// One query row of a (layer, head): the plane holding it and its row there.
struct AttentionRowRef {
    const AttentionPlaneView* plane = nullptr;  // nullptr: the row was not captured
    qint32 row = 0;
};

// An assembled square attention matrix over the current sequence: one cell per position, or,
// when that would take more than TraceModel::kMatrixBytes, one cell per block x block
// positions holding the largest weight the block shows (as the heatmap's overview keeps it).
struct AttentionMatrix {
    qint32 n = 0;        // query positions = key positions
    qint32 block = 1;    // positions per cell along each axis
    qint32 side = 0;     // cells per axis: n / block, rounded up
    QVector<float> weights;  // [query cell][key cell]; NaN where masked (the future, or outside a
                             // local layer's window) or where no row was captured
    QVector<bool> captured;  // [query position]
    float at(qint32 query, qint32 key) const { return weights[qint64(query / block) * side + key / block]; }
};

// Folds `count` weights into cells of `block` consecutive weights each: cells[i] becomes the
// largest of itself and weights [i * block, i * block + block), NaN (masked) weights and cells
// left out, so a one-cell diagonal survives any downscale. The attention matrix pools positions
// with it, and the heatmap pools the matrix's cells for its overview.
void pool_largest(const float* weights, qint64 count, qint32 block, float* cells);

class TraceModel : public QObject {
    Q_OBJECT
public:
    explicit TraceModel(QObject* parent = nullptr);

    void setModel(const ModelView& model);
    const ModelView& model() const { return model_; }

    // Replaces every step (indices must be 0..n-1, each parent earlier or -1). The last step
    // becomes current. Steps that break these rules are refused (returns false).
    bool setSteps(QVector<StepView> steps);
    // Adds the next step (index == stepCount()); it becomes the current step and branch end.
    bool appendStep(StepView step);
    // Releases a step's attention planes (its summaries stay), as the trace's memory budget
    // does to old steps; the panels redraw. Returns false when there is no such step.
    bool dropPlanes(qint32 index);
    // Replaces a step's pick (the engine picked its next token again under new sampler
    // settings); the panels redraw. Returns false when there is no such step.
    bool setStepLogits(qint32 index, const LogitsData& logits);
    void clear();

    const QVector<StepView>& steps() const { return steps_; }
    qint32 stepCount() const { return qint32(steps_.size()); }
    const StepView* step(qint32 index) const;

    qint32 currentStep() const { return current_; }  // -1: no steps
    const StepView* current() const { return step(current_); }
    void setCurrentStep(qint32 index);
    // No current step (the engine emptied its cache to prefill a new prompt): every panel shows
    // an empty sequence; the steps stay, for the branch list and a later rewind.
    void clearCurrentStep();

    QVector<qint32> pathTo(qint32 index) const;  // first step .. index, following parents
    QVector<qint32> path() const { return pathTo(current_); }
    QVector<qint32> branchPath() const { return pathTo(leaf_); }
    QVector<qint32> leaves() const;  // the ends of every branch, by index
    qint32 branchLeaf() const { return leaf_; }
    // Shows the branch ending at `leaf` and makes that leaf current.
    void selectBranch(qint32 leaf);

    // Tokens fed along the path to the current step (position i = entry i), byte spans set.
    const QVector<TokenView>& sequence() const { return sequence_; }
    qint32 sequenceLength() const { return qint32(sequence_.size()); }
    // The step that fed position `pos` on the current path (-1: none).
    qint32 stepOfPosition(qint32 pos) const;
    qint32 rowOfPosition(qint32 pos) const;  // its index among that step's tokens (-1: none)

    // The selected query position: the last one unless the user picked another.
    qint32 selectedQuery() const;
    void setSelectedQuery(qint32 pos);
    qint32 selectedLayer() const { return layer_; }
    qint32 selectedHead() const { return head_; }
    void setSelectedHead(qint32 layer, qint32 head);

    // The heads switched off for the steps still to come, as the sampling settings are: the
    // attention grid's menu edits them, a live session runs its next steps with them. What the
    // shown step ran with is its own StepView::ablated. Heads outside the model are dropped.
    const QVector<LayerHead>& ablation() const { return ablation_; }
    bool isAblated(qint32 layer, qint32 head) const { return ablation_.contains(LayerHead{layer, head}); }
    void setAblation(QVector<LayerHead> heads);

    // The query rows of (layer, head) for positions from..sequenceLength()-1: [position - from].
    QVector<AttentionRowRef> attentionRows(qint32 layer, qint32 head, qint32 from = 0) const;
    // The most memory an assembled matrix takes: the trace's default memory budget for its
    // planes (trace::SessionTrace::kDefaultBudget). A longer sequence is pooled into blocks.
    static constexpr quint64 kMatrixBytes = quint64(512) << 20;
    // Positions per cell of the matrix of a sequence of n positions: the smallest block that
    // keeps the matrix within kMatrixBytes.
    static qint32 matrixBlock(qint32 n);
    AttentionMatrix attentionMatrix(qint32 layer, qint32 head) const;
    // Mean of a layer's captured heads, row by row (rows with no captured head: NaN).
    AttentionMatrix meanOverHeads(qint32 layer) const;
    // The weights query position `query` gives keys 0..query, as recorded (whatever the matrix's
    // block); empty when the row was not captured. meanRow: the mean of the layer's captured heads.
    QVector<float> attentionRow(qint32 layer, qint32 head, qint32 query) const;
    QVector<float> meanRow(qint32 layer, qint32 query) const;

signals:
    void modelChanged();
    void stepsChanged();  // steps added or replaced (the current step moved too)
    void stepsReset();    // every step replaced or cleared (before stepsChanged)
    void currentStepChanged(qint32 index);
    void queryChanged(qint32 pos);
    void headChanged(qint32 layer, qint32 head);
    void branchChanged(qint32 leaf);
    void ablationChanged(const QVector<lmscope::LayerHead>& heads);

private:
    bool acceptable(const StepView& step, qint32 index) const;
    void fillByteSpans(StepView& step) const;
    void rebuildSequence();
    void moveTo(qint32 current, qint32 leaf);
    AttentionMatrix assemble(qint32 layer, const QVector<qint32>& heads) const;
    QVector<float> rowOf(qint32 layer, const QVector<qint32>& heads, qint32 query) const;

    ModelView model_;
    QVector<StepView> steps_;
    qint32 current_ = -1;
    qint32 leaf_ = -1;
    QVector<TokenView> sequence_;  // [position] along the current path
    QVector<qint32> pos_step_;     // [position] the step that fed it
    QVector<qint32> pos_row_;      // [position] its index among that step's tokens
    qint32 query_ = -1;            // -1: follow the last position
    qint32 layer_ = 0, head_ = 0;
    QVector<LayerHead> ablation_;  // sorted by layer, then head
};

}  // namespace lmscope::widgets
