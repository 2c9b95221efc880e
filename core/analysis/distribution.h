// Next-token distributions as the engine, the labs and the CLI compare them: log-sum-exp,
// softmax, entropy, KL divergence and top-k, over one row of logits, in double precision.
//
//   log Z = log sum_i exp(x_i)                 (computed as m + log sum_i exp(x_i - m), m = max x)
//   p_i   = exp(x_i - log Z)
//   H(p)  = -sum_i p_i log p_i                 (nats)
//   KL(p || q) = sum_i p_i (log p_i - log q_i) (nats, >= 0)
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace lmscope::analysis {

// Throws UsageError on an empty row.
double log_sum_exp(std::span<const float> logits);
// p_i of every entry.
std::vector<double> softmax(std::span<const float> logits);
// H(softmax(logits)) in nats.
double entropy(std::span<const float> logits);
// KL(softmax(logits_p) || softmax(logits_q)) in nats; UsageError when the rows differ in
// length or are empty. Rounding below zero reads as 0.
double kl_divergence(std::span<const float> logits_p, std::span<const float> logits_q);
// One token's probability under two next-token distributions a and b.
struct TokenProbs {
    int32_t id = 0;
    double p_a = 0.0;
    double p_b = 0.0;
    bool operator==(const TokenProbs&) const = default;
};

// Two next-token distributions over one vocabulary, side by side: what the labs, the Logits
// panel's "with and without" and the KV experiment show.
struct DistributionComparison {
    double kl_ab = 0.0;             // KL(a || b), nats
    double kl_ba = 0.0;             // KL(b || a), nats
    std::vector<TokenProbs> top_a;  // a's k most probable tokens, most probable first (ties: the smaller id)
    std::vector<TokenProbs> top_b;  // b's
};
// softmax(logits_a) against softmax(logits_b): both KLs (as kl_divergence) and each side's top
// k (clamped to [0, size]) with both probabilities. UsageError when the rows differ in length
// or are empty.
DistributionComparison compare_distributions(std::span<const float> logits_a, std::span<const float> logits_b,
                                             int32_t k);

// Indices of the k largest values (k clamped to [0, size]), largest first, ties by the smaller
// index.
std::vector<int32_t> top_k(std::span<const float> values, int32_t k);
std::vector<int32_t> top_k(std::span<const double> values, int32_t k);

}  // namespace lmscope::analysis
