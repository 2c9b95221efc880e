#include "analysis/distribution.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

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

void check_same_length(std::span<const float> a, std::span<const float> b, const char* what) {
    if (a.empty() || a.size() != b.size())
        throw UsageError(std::string(what) + ": the two rows differ in length or are empty");
}

// sum_i p_i (log p_i - log q_i) with log p_i = x_i - zp, log q_i = y_i - zq; p = 0 adds nothing.
// Rounding below zero reads as 0.
double kl_of(std::span<const float> x, double zp, std::span<const float> y, double zq) {
    double kl = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
        const double log_p = double(x[i]) - zp, log_q = double(y[i]) - zq;
        if (std::isinf(log_p)) continue;
        kl += std::exp(log_p) * (log_p - log_q);
    }
    return std::max(0.0, kl);
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
    check_same_length(logits_p, logits_q, "KL divergence");
    return kl_of(logits_p, log_sum_exp(logits_p), logits_q, log_sum_exp(logits_q));
}

DistributionComparison compare_distributions(std::span<const float> logits_a, std::span<const float> logits_b,
                                             int32_t k) {
    check_same_length(logits_a, logits_b, "comparing two distributions");
    const double za = log_sum_exp(logits_a), zb = log_sum_exp(logits_b);
    DistributionComparison out;
    out.kl_ab = kl_of(logits_a, za, logits_b, zb);
    out.kl_ba = kl_of(logits_b, zb, logits_a, za);
    const auto rows = [&](std::span<const float> by) {
        std::vector<TokenProbs> top;
        for (const int32_t id : top_k_of(by, k))
            top.push_back({id, std::exp(double(logits_a[size_t(id)]) - za), std::exp(double(logits_b[size_t(id)]) - zb)});
        return top;
    };
    out.top_a = rows(logits_a);
    out.top_b = rows(logits_b);
    return out;
}

std::vector<int32_t> top_k(std::span<const float> values, int32_t k) { return top_k_of(values, k); }
std::vector<int32_t> top_k(std::span<const double> values, int32_t k) { return top_k_of(values, k); }

}  // namespace lmscope::analysis
