#include "trace/step_trace.h"

#include "trace/half.h"
#include "util/error.h"

#include <string>

namespace lmscope::trace {
namespace {

template <typename T, typename A>
uint64_t vector_bytes(const std::vector<T, A>& v) {
    return uint64_t(v.capacity()) * sizeof(T);
}

const std::vector<Candidate> kNoCandidates;

}  // namespace

const std::vector<Candidate>& LogitsTrace::top_before() const {
    return stages.empty() ? kNoCandidates : stages.front().top;
}

uint64_t PlaneRef::count() const {
    if (first_row_pos < 0 || n_rows < 0) throw Error("attention plane: negative row range");
    return packed_plane_count(first_row_pos, n_rows);
}

const PlaneRef* AttentionTrace::find(int32_t layer, int32_t head) const {
    for (const PlaneRef& p : planes)
        if (p.at.layer == layer && p.at.head == head) return &p;
    return nullptr;
}

std::vector<float> AttentionTrace::matrix(size_t i) const {
    const PlaneRef& p = planes.at(i);
    const size_t n_keys = size_t(p.n_keys());
    std::vector<float> out(size_t(p.n_rows) * n_keys, 0.0f);  // [n_rows][n_keys]
    const uint16_t* src = weights.data() + p.offset;
    for (size_t r = 0; r < size_t(p.n_rows); ++r) {
        const size_t len = size_t(p.first_row_pos) + r + 1;
        for (size_t k = 0; k < len; ++k) out[r * n_keys + k] = half_to_float(*src++);
    }
    return out;
}

const HeadSummary& AttentionTrace::summary(int32_t layer, int32_t head, int32_t row) const {
    return summaries.at((size_t(layer) * size_t(n_head) + size_t(head)) * size_t(n_rows) + size_t(row));
}

AttentionTrace attention_from_capture(const StepCapture& capture) {
    if (capture.n_layer < 0 || capture.n_head < 0 || capture.n_rows < 0)
        throw Error("step capture: negative layer, head or row count");
    AttentionTrace a;
    a.n_layer = capture.n_layer;
    a.n_head = capture.n_head;
    a.n_rows = capture.n_rows;
    const uint64_t n_summaries = uint64_t(a.n_layer) * uint64_t(a.n_head) * uint64_t(a.n_rows);
    if (!capture.summaries.empty() && capture.summaries.size() != n_summaries)
        throw Error("step capture: " + std::to_string(capture.summaries.size()) +
                    " summaries, expected layers x heads x rows = " + std::to_string(n_summaries));
    a.summaries = capture.summaries;

    uint64_t total = 0;
    for (const AttentionPlane& p : capture.planes) {
        if (p.at.layer < 0 || p.at.layer >= a.n_layer || p.at.head < 0 || p.at.head >= a.n_head)
            throw Error("step capture: attention plane for layer " + std::to_string(p.at.layer) +
                        " head " + std::to_string(p.at.head) + " is out of range");
        if (p.first_row_pos < 0 || p.n_rows < 0) throw Error("step capture: attention plane with a negative row range");
        if (p.n_keys != p.first_row_pos + p.n_rows ||
            p.weights.size() != size_t(p.n_rows) * size_t(p.n_keys))
            throw Error("step capture: attention plane size does not match its rows and keys");
        total += packed_plane_count(p.first_row_pos, p.n_rows);
    }
    a.planes.reserve(capture.planes.size());
    a.weights.reserve(size_t(total));
    for (const AttentionPlane& p : capture.planes) {
        a.planes.push_back(PlaneRef{p.at, p.first_row_pos, p.n_rows, a.weights.size()});
        for (size_t r = 0; r < size_t(p.n_rows); ++r) {
            const float* row = p.weights.data() + r * size_t(p.n_keys);
            const size_t len = size_t(p.first_row_pos) + r + 1;
            for (size_t k = 0; k < len; ++k) a.weights.push_back(float_to_half(row[k]));
        }
    }
    return a;
}

uint64_t StepTrace::held_bytes() const {
    uint64_t n = sizeof(StepTrace);
    n += vector_bytes(tokens) + vector_bytes(layer_ms) + vector_bytes(lens) + vector_bytes(ablated) + vector_bytes(skipped);
    n += vector_bytes(attention.planes) + vector_bytes(attention.weights) +
         vector_bytes(attention.summaries);
    n += vector_bytes(kv.bytes_per_layer);
    n += vector_bytes(logits.stages);
    for (const FilterStage& s : logits.stages) n += vector_bytes(s.top);
    return n;
}

void StepTrace::drop_planes() {
    std::vector<PlaneRef>().swap(attention.planes);
    HalfBuffer().swap(attention.weights);
    attention.planes_dropped = true;
}

}  // namespace lmscope::trace
