// Softmax and top k of a row too long to read twice (a vocabulary of logits), taken piece by
// piece while each piece is still in cache (the output head hands them over as it writes
// them). One accumulator per thread, merged at the end:
//
//   m = max x_i                     (running; the sum is rescaled when it grows)
//   s = sum_i exp(x_i - m)          (double)
//   log Z = m + log s,   p_i = exp(x_i - log Z)
//
// and the k largest values seen, ordered as analysis::top_k orders them (largest first, ties by
// the smaller index), so the result equals softmax() + top_k() over the whole row.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace lmscope::analysis {

class SoftmaxTopK {
public:
    struct Entry {
        int32_t index = 0;
        float value = 0.0f;  // x_index
        double p = 0.0;      // softmax probability
    };

    explicit SoftmaxTopK(int32_t k = 0);
    // Starts over (k entries kept; k >= 0).
    void reset(int32_t k);
    // Entries first .. first + n - 1 of the row are x[0 .. n-1].
    void add(const float* x, int64_t first, int64_t n);
    // Takes in what another accumulator (of the same row, other entries) has seen.
    void merge(const SoftmaxTopK& other);
    // log Z of every entry added; -inf before any.
    double log_sum_exp() const;
    // The k largest entries (fewer if fewer were added), largest first, ties by smaller index.
    std::vector<Entry> top() const;

private:
    // true when (a, ia) comes before (b, ib) in the result's order
    static bool before(float a, int32_t ia, float b, int32_t ib) { return a > b || (a == b && ia < ib); }
    void offer(float v, int32_t i);

    int32_t k_ = 0;
    float max_ = -std::numeric_limits<float>::infinity();
    double sum_ = 0.0;          // sum exp(x - max_) over the entries added
    std::vector<Entry> heap_;   // [<= k_] the best so far; heap_[0] the last of them in result order
};

}  // namespace lmscope::analysis
