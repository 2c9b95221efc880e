#include "analysis/distribution.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lmscope::analysis {

namespace {

template <class T>
std::vector<int32_t> top_k_of(std::span<const T> values, int32_t k) {
    std::vector<int32_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    const auto n = std::ptrdiff_t(std::clamp<int64_t>(k, 0, int64_t(values.size())));
    std::partial_sort(order.begin(), order.begin() + n, order.end(), [&](int32_t a, int32_t b) {
        const T va = values[size_t(a)], vb = values[size_t(b)];
        return va > vb || (va == vb && a < b);
    });
    order.resize(size_t(n));
    return order;
}

}  // namespace

double log_sum_exp(std::span<const float> x) {
    if (x.empty()) throw UsageError("log-sum-exp of an empty row");
    const double m = double(*std::max_element(x.begin(), x.end()));
    double s = 0.0;
    for (float v : x) s += std::exp(double(v) - m);
    return m + std::log(s);
}

std::vector<double> softmax(std::span<const float> logits) {
    const double z = log_sum_exp(logits);
    std::vector<double> p(logits.size());
    for (size_t i = 0; i < logits.size(); ++i) p[i] = std::exp(double(logits[i]) - z);
    return p;
}

double entropy(std::span<const float> logits) {
    const double z = log_sum_exp(logits);
    double h = 0.0;
    for (float v : logits) {
        const double log_p = double(v) - z;
        if (std::isinf(log_p)) continue;  // p = 0 adds nothing (0 log 0 = 0)
        h -= std::exp(log_p) * log_p;
    }
    return std::max(0.0, h);
}

double kl_divergence(std::span<const float> logits_p, std::span<const float> logits_q) {
    if (logits_p.empty() || logits_p.size() != logits_q.size())
        throw UsageError("KL divergence: the two rows differ in length or are empty");
    const double zp = log_sum_exp(logits_p), zq = log_sum_exp(logits_q);
    double kl = 0.0;
    for (size_t i = 0; i < logits_p.size(); ++i) {
        const double log_p = double(logits_p[i]) - zp, log_q = double(logits_q[i]) - zq;
        if (std::isinf(log_p)) continue;  // p = 0 adds nothing
        kl += std::exp(log_p) * (log_p - log_q);
    }
    return std::max(0.0, kl);
}

std::vector<int32_t> top_k(std::span<const float> values, int32_t k) { return top_k_of(values, k); }
std::vector<int32_t> top_k(std::span<const double> values, int32_t k) { return top_k_of(values, k); }

}  // namespace lmscope::analysis
