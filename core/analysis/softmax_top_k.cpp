#include "analysis/softmax_top_k.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>

namespace lmscope::analysis {

namespace {

// Heap order: the entry that comes last in the result on top, so it is the one replaced.
bool heap_less(const SoftmaxTopK::Entry& a, const SoftmaxTopK::Entry& b) {
    return a.value > b.value || (a.value == b.value && a.index < b.index);
}

}  // namespace

SoftmaxTopK::SoftmaxTopK(int32_t k) { reset(k); }

void SoftmaxTopK::reset(int32_t k) {
    if (k < 0) throw UsageError("softmax top k: k must be >= 0, got " + std::to_string(k));
    k_ = k;
    max_ = -std::numeric_limits<float>::infinity();
    sum_ = 0.0;
    heap_.clear();
    heap_.reserve(size_t(k));
}

void SoftmaxTopK::offer(float v, int32_t i) {
    if (int32_t(heap_.size()) < k_) {
        heap_.push_back({i, v, 0.0});
        std::push_heap(heap_.begin(), heap_.end(), heap_less);
    } else if (before(v, i, heap_.front().value, heap_.front().index)) {
        std::pop_heap(heap_.begin(), heap_.end(), heap_less);
        heap_.back() = {i, v, 0.0};
        std::push_heap(heap_.begin(), heap_.end(), heap_less);
    }
}

void SoftmaxTopK::add(const float* x, int64_t first, int64_t n) {
    if (n <= 0) return;
    // the piece is in L1: one read for its maximum, one for the sum and the candidates
    float m = x[0];
    for (int64_t i = 1; i < n; ++i) m = std::max(m, x[i]);
    if (m > max_) {
        sum_ = std::isinf(max_) ? 0.0 : sum_ * std::exp(double(max_) - double(m));
        max_ = m;
    }
    if (max_ > -std::numeric_limits<float>::infinity()) {  // -inf entries add nothing
        float s = 0.0f;  // a piece's share, in float (at most a few thousand terms <= 1)
        for (int64_t i = 0; i < n; ++i) s += std::exp(x[i] - max_);
        sum_ += double(s);
    }
    if (k_ == 0) return;
    for (int64_t i = 0; i < n; ++i) {
        // full heap: only a value at least the k-th best can enter
        if (int32_t(heap_.size()) == k_ && x[i] < heap_.front().value) continue;
        offer(x[i], int32_t(first + i));
    }
}

void SoftmaxTopK::merge(const SoftmaxTopK& o) {
    if (o.k_ != k_) throw UsageError("softmax top k: merging accumulators of different k");
    if (o.sum_ > 0.0) {
        const float m = std::max(max_, o.max_);
        const double mine = sum_ > 0.0 ? sum_ * std::exp(double(max_) - double(m)) : 0.0;
        sum_ = mine + o.sum_ * std::exp(double(o.max_) - double(m));
        max_ = m;
    }
    for (const Entry& e : o.heap_) offer(e.value, e.index);
}

double SoftmaxTopK::log_sum_exp() const {
    return sum_ > 0.0 ? double(max_) + std::log(sum_) : -std::numeric_limits<double>::infinity();
}

std::vector<SoftmaxTopK::Entry> SoftmaxTopK::top() const {
    std::vector<Entry> out = heap_;
    std::sort(out.begin(), out.end(), heap_less);
    const double z = log_sum_exp();
    for (Entry& e : out) e.p = std::exp(double(e.value) - z);
    return out;
}

}  // namespace lmscope::analysis
