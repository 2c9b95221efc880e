#include "widgets/trace_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace lmscope::widgets {

TraceModel::TraceModel(QObject* parent) : QObject(parent) {}

void TraceModel::setModel(const ModelView& model) {
    model_ = model;
    layer_ = std::clamp(layer_, 0, std::max(0, model_.n_layer - 1));
    head_ = std::clamp(head_, 0, std::max(0, model_.n_head - 1));
    emit modelChanged();
    emit headChanged(layer_, head_);
}

bool TraceModel::acceptable(const StepView& step, qint32 index) const {
    if (step.index != index || step.parent < -1 || step.parent >= index) return false;
    for (const AttentionPlaneView& p : step.planes)
        if (!p.valid()) return false;
    return true;
}

void TraceModel::fillByteSpans(StepView& step) const {
    qint64 at = 0;
    if (const StepView* parent = this->step(step.parent)) {
        // The parent's end: its last token's, or its own parent's when it fed nothing.
        for (const StepView* s = parent; s; s = this->step(s->parent))
            if (!s->tokens.isEmpty()) {
                at = s->tokens.back().byte_end;
                break;
            }
    }
    for (TokenView& t : step.tokens) {
        t.byte_begin = at;
        at += std::max(0, t.n_bytes);
        t.byte_end = at;
    }
}

bool TraceModel::setSteps(QVector<StepView> steps) {
    for (qint32 i = 0; i < steps.size(); ++i)
        if (!acceptable(steps[i], i)) return false;
    steps_.clear();
    emit stepsReset();
    for (StepView& s : steps) {
        fillByteSpans(s);
        steps_.push_back(std::move(s));
    }
    emit stepsChanged();
    moveTo(stepCount() - 1, stepCount() - 1);
    return true;
}

bool TraceModel::appendStep(StepView step) {
    if (!acceptable(step, stepCount())) return false;
    fillByteSpans(step);
    steps_.push_back(std::move(step));
    emit stepsChanged();
    moveTo(stepCount() - 1, stepCount() - 1);
    return true;
}

bool TraceModel::dropPlanes(qint32 index) {
    if (!step(index)) return false;
    StepView& s = steps_[index];
    if (s.planes_dropped && s.planes.isEmpty()) return true;
    QVector<AttentionPlaneView>().swap(s.planes);
    s.planes_dropped = true;
    emit stepsReset();  // views that cache pictures of the planes start over
    emit stepsChanged();
    moveTo(current_, leaf_);
    return true;
}

bool TraceModel::setStepLogits(qint32 index, const LogitsData& logits) {
    if (!step(index)) return false;
    steps_[index].logits = logits;
    emit stepsChanged();
    moveTo(current_, leaf_);
    return true;
}

void TraceModel::clear() {
    steps_.clear();
    query_ = -1;
    emit stepsReset();
    emit stepsChanged();
    moveTo(-1, -1);
}

const StepView* TraceModel::step(qint32 index) const {
    return index >= 0 && index < steps_.size() ? &steps_[index] : nullptr;
}

QVector<qint32> TraceModel::pathTo(qint32 index) const {
    QVector<qint32> path;
    // Parents are always earlier, so this ends after at most index + 1 hops.
    for (const StepView* s = step(index); s; s = step(s->parent)) path.push_back(s->index);
    std::reverse(path.begin(), path.end());
    return path;
}

QVector<qint32> TraceModel::leaves() const {
    QVector<bool> has_child(steps_.size(), false);
    for (const StepView& s : steps_)
        if (s.parent >= 0) has_child[s.parent] = true;
    QVector<qint32> out;
    for (qint32 i = 0; i < steps_.size(); ++i)
        if (!has_child[i]) out.push_back(i);
    return out;
}

void TraceModel::setCurrentStep(qint32 index) {
    if (!step(index) || index == current_) return;
    // Stay on the shown branch when the step is on it; otherwise show the branch it ends.
    const bool on_branch = branchPath().contains(index);
    moveTo(index, on_branch ? leaf_ : index);
}

void TraceModel::clearCurrentStep() {
    if (current_ < 0 && leaf_ < 0) return;
    query_ = -1;
    moveTo(-1, -1);
}

void TraceModel::selectBranch(qint32 leaf) {
    if (!step(leaf)) return;
    moveTo(leaf, leaf);
}

void TraceModel::moveTo(qint32 current, qint32 leaf) {
    const bool leaf_moved = leaf != leaf_;
    current_ = current;
    leaf_ = leaf;
    rebuildSequence();
    if (query_ >= sequenceLength()) query_ = -1;
    emit currentStepChanged(current_);
    if (leaf_moved) emit branchChanged(leaf_);
    emit queryChanged(selectedQuery());  // the sequence changed under it
}

void TraceModel::rebuildSequence() {
    sequence_.clear();
    pos_step_.clear();
    pos_row_.clear();
    for (qint32 i : path()) {
        for (qint32 r = 0; r < steps_[i].tokens.size(); ++r) {
            sequence_.push_back(steps_[i].tokens[r]);
            pos_step_.push_back(i);
            pos_row_.push_back(r);
        }
    }
}

qint32 TraceModel::stepOfPosition(qint32 pos) const {
    return pos >= 0 && pos < pos_step_.size() ? pos_step_[pos] : -1;
}

qint32 TraceModel::rowOfPosition(qint32 pos) const {
    return pos >= 0 && pos < pos_row_.size() ? pos_row_[pos] : -1;
}

qint32 TraceModel::selectedQuery() const {
    if (query_ >= 0 && query_ < sequenceLength()) return query_;
    return sequenceLength() - 1;
}

void TraceModel::setSelectedQuery(qint32 pos) {
    if (pos < 0 || pos >= sequenceLength()) return;
    query_ = pos == sequenceLength() - 1 ? -1 : pos;
    emit queryChanged(pos);
}

void TraceModel::setSelectedHead(qint32 layer, qint32 head) {
    if (layer < 0 || head < 0 || (model_.n_layer > 0 && layer >= model_.n_layer) ||
        (model_.n_head > 0 && head >= model_.n_head))
        return;
    layer_ = layer;
    head_ = head;
    emit headChanged(layer, head);
}

void TraceModel::setAblation(QVector<LayerHead> heads) {
    const auto outside = [&](const LayerHead& h) {
        return h.layer < 0 || h.head < 0 || (model_.n_layer > 0 && h.layer >= model_.n_layer) ||
               (model_.n_head > 0 && h.head >= model_.n_head);
    };
    heads.removeIf(outside);
    std::sort(heads.begin(), heads.end(), [](const LayerHead& a, const LayerHead& b) {
        return a.layer != b.layer ? a.layer < b.layer : a.head < b.head;
    });
    heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
    if (heads == ablation_) return;
    ablation_ = std::move(heads);
    emit ablationChanged(ablation_);
}

QVector<AttentionRowRef> TraceModel::attentionRows(qint32 layer, qint32 head, qint32 from) const {
    from = std::clamp(from, 0, sequenceLength());
    QVector<AttentionRowRef> rows(sequenceLength() - from);
    const StepView* s = nullptr;
    const AttentionPlaneView* plane = nullptr;
    for (qint32 pos = from; pos < sequenceLength(); ++pos) {
        if (!s || s->index != pos_step_[pos]) {  // one plane lookup per step
            s = &steps_[pos_step_[pos]];
            plane = s->plane(layer, head);
        }
        // A plane belongs to the positions it was computed at; skip one that disagrees.
        const qint32 r = pos_row_[pos];
        if (plane && r >= 0 && r < plane->n_rows && plane->first_row_pos + r == pos) rows[pos - from] = {plane, r};
    }
    return rows;
}

void pool_largest(const float* weights, qint64 count, qint32 block, float* cells) {
    for (qint64 i = 0; i < count; ++i) {
        const float w = weights[i];
        float& cell = cells[i / block];
        if (!std::isnan(w) && (std::isnan(cell) || w > cell)) cell = w;
    }
}

qint32 TraceModel::matrixBlock(qint32 n) {
    // The longest side of float cells that fits: floor(sqrt(kMatrixBytes / 4)).
    static const qint64 max_side = qint64(std::sqrt(double(kMatrixBytes / sizeof(float))));
    return qint32(std::max<qint64>(1, (qint64(n) + max_side - 1) / max_side));
}

namespace {

// The weights query position q gives keys 0..q, averaged over the heads' rows that hold it
// (rows: one per head, nullptr plane where not captured), into out[0..q]; `sum` is scratch of
// at least q + 1. False when no head holds the row.
bool average_row(const QVector<AttentionRowRef>& rows, qint32 q, QVector<double>& sum, float* out) {
    const auto count = std::count_if(rows.begin(), rows.end(), [](const AttentionRowRef& r) { return r.plane; });
    if (count == 0) return false;
    std::fill(sum.begin(), sum.begin() + q + 1, 0.0);
    for (const AttentionRowRef& r : rows) {
        if (!r.plane) continue;
        const qfloat16* src = r.plane->row(r.row);
        for (qint32 k = 0; k <= q; ++k) sum[k] += float(src[k]);
    }
    for (qint32 k = 0; k <= q; ++k) out[k] = float(sum[k] / double(count));
    return true;
}

}  // namespace

AttentionMatrix TraceModel::assemble(qint32 layer, const QVector<qint32>& heads) const {
    const qint32 n = sequenceLength();
    AttentionMatrix m;
    m.n = n;
    m.block = matrixBlock(n);
    m.side = (n + m.block - 1) / m.block;
    m.weights.fill(std::numeric_limits<float>::quiet_NaN(), qint64(m.side) * m.side);
    m.captured.fill(false, n);
    QVector<QVector<AttentionRowRef>> by_head;  // [head][position]
    for (qint32 h : heads) by_head.push_back(attentionRows(layer, h));
    QVector<AttentionRowRef> rows(heads.size());  // [head] of the query
    QVector<double> sum(n);
    QVector<float> row(n);  // [key] the query's weights, NaN where masked
    for (qint32 q = 0; q < n; ++q) {
        for (qsizetype h = 0; h < heads.size(); ++h) rows[h] = by_head[h][q];
        if (!average_row(rows, q, sum, row.data())) continue;
        m.captured[q] = true;
        for (qint32 k = 0; k <= q; ++k)
            if (model_.outside_window(layer, q, k)) row[k] = std::numeric_limits<float>::quiet_NaN();
        pool_largest(row.constData(), q + 1, m.block, m.weights.data() + qint64(q / m.block) * m.side);
    }
    return m;
}

QVector<float> TraceModel::rowOf(qint32 layer, const QVector<qint32>& heads, qint32 query) const {
    if (query < 0 || query >= sequenceLength()) return {};
    QVector<AttentionRowRef> rows;  // [head]
    for (qint32 h : heads) rows.push_back(attentionRows(layer, h, query).front());
    QVector<double> sum(query + 1);
    QVector<float> out(query + 1);
    return average_row(rows, query, sum, out.data()) ? out : QVector<float>();
}

namespace {

QVector<qint32> every_head(qint32 n_head) {
    QVector<qint32> heads(std::max(0, n_head));
    std::iota(heads.begin(), heads.end(), 0);
    return heads;
}

}  // namespace

AttentionMatrix TraceModel::attentionMatrix(qint32 layer, qint32 head) const { return assemble(layer, {head}); }

AttentionMatrix TraceModel::meanOverHeads(qint32 layer) const { return assemble(layer, every_head(model_.n_head)); }

QVector<float> TraceModel::attentionRow(qint32 layer, qint32 head, qint32 query) const {
    return rowOf(layer, {head}, query);
}

QVector<float> TraceModel::meanRow(qint32 layer, qint32 query) const {
    return rowOf(layer, every_head(model_.n_head), query);
}

}  // namespace lmscope::widgets
