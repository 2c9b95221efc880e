#include "analysis/distribution.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace lmscope::analysis {

namespace {

// Ranks i before j: the larger value, ties by the smaller index.
template <class T>
bool ranks_before(std::span<const T> values, int32_t i, int32_t j) {
    const T vi = values[size_t(i)], vj = values[size_t(j)];
    return vi > vj || (vi == vj && i < j);
}

template <class T>
std::vector<int32_t> top_k_of(std::span<const T> values, int32_t k) {
    const auto n = size_t(std::clamp<int64_t>(k, 0, int64_t(values.size())));
    std::vector<int32_t> top;
    if (n <= 64) {
        // One pass keeping the best n so far in rank order: an entry comes in when it ranks
        // before the last kept (a later index only on a larger value), at its place by rank.
        top.reserve(n);
        for (size_t i = 0; i < values.size() && n > 0; ++i) {
            const auto id = int32_t(i);
            if (top.size() == n && !ranks_before(values, id, top.back())) continue;
            if (top.size() == n) top.pop_back();
            auto at = top.end();
            while (at != top.begin() && ranks_before(values, id, *(at - 1))) --at;
            top.insert(at, id);
        }
        return top;
    }
    top.resize(values.size());
    std::iota(top.begin(), top.end(), 0);
    std::partial_sort(top.begin(), top.begin() + std::ptrdiff_t(n), top.end(),
                      [&](int32_t a, int32_t b) { return ranks_before(values, a, b); });
    top.resize(n);
    return top;
}

void check_same_length(std::span<const float> a, std::span<const float> b, const char* what) {
    if (a.empty() || a.size() != b.size())
        throw UsageError(std::string(what) + ": the two rows differ in length or are empty");
}

// log Z = m + log s, s = sum_i exp(x_i - m), m = max x; each exp(x_i - m) also written to
// exps[i] when exps is given (kl_both keeps them). x is not empty.
struct LogZ {
    double log_z = 0.0, s = 0.0;
};
LogZ log_z_of(std::span<const float> x, double* exps) {
    const double m = double(*std::max_element(x.begin(), x.end()));
    double s = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
        const double e = std::exp(double(x[i]) - m);
        if (exps) exps[i] = e;
        s += e;
    }
    return {m + std::log(s), s};
}

// KL both ways from two exps an entry:
// the log-sum-exp passes keep e_i = exp(x_i - m) (p_i = e_i / s), the KL pass needs no exp.
//   KL(p || q) = sum_i p_i (log p_i - log q_i),  log p_i = x_i - log Z_p; p_i = 0 adds nothing.
// Rounding below zero reads as 0.
struct KlBoth {
    double ab = 0.0, ba = 0.0;
    double za = 0.0, zb = 0.0;  // log Z of each row
};

KlBoth kl_both(std::span<const float> a, std::span<const float> b) {
    thread_local std::vector<double> ea, eb;  // [i] exp(x_i - m); kept: a vocabulary's worth is megabytes
    ea.resize(a.size());
    eb.resize(b.size());
    const LogZ pa = log_z_of(a, ea.data()), pb = log_z_of(b, eb.data());
    KlBoth kl{.za = pa.log_z, .zb = pb.log_z};
    for (size_t i = 0; i < a.size(); ++i) {
        const double log_p = double(a[i]) - pa.log_z, log_q = double(b[i]) - pb.log_z;
        if (ea[i] > 0.0) kl.ab += ea[i] / pa.s * (log_p - log_q);
        if (eb[i] > 0.0) kl.ba += eb[i] / pb.s * (log_q - log_p);
    }
    kl.ab = std::max(0.0, kl.ab);
    kl.ba = std::max(0.0, kl.ba);
    return kl;
}

}  // namespace

double log_sum_exp(std::span<const float> x) {
    if (x.empty()) throw UsageError("log-sum-exp of an empty row");
    return log_z_of(x, nullptr).log_z;
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
    return kl_both(logits_p, logits_q).ab;
}

DistributionComparison compare_distributions(std::span<const float> logits_a, std::span<const float> logits_b,
                                             int32_t k) {
    check_same_length(logits_a, logits_b, "comparing two distributions");
    const KlBoth kl = kl_both(logits_a, logits_b);
    const double za = kl.za, zb = kl.zb;
    DistributionComparison out;
    out.kl_ab = kl.ab;
    out.kl_ba = kl.ba;
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
