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
// Indices of the k largest values (k clamped to [0, size]), largest first, ties by the smaller
// index.
std::vector<int32_t> top_k(std::span<const float> values, int32_t k);
std::vector<int32_t> top_k(std::span<const double> values, int32_t k);

}  // namespace lmscope::analysis
