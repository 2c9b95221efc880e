#include "gui/labs/next_token_compare.h"

#include "engine/model.h"
#include "gui/labs/lab_session.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lmscope::gui::labs {

namespace {

// Softmax of one logits row, in double.
std::vector<double> softmax(const std::vector<float>& logits) {
    const float max = *std::max_element(logits.begin(), logits.end());
    std::vector<double> p(logits.size());  // [n_vocab]
    double sum = 0.0;
    for (size_t i = 0; i < logits.size(); ++i) sum += p[i] = std::exp(double(logits[i]) - double(max));
    for (double& v : p) v /= sum;
    return p;
}

std::vector<NextToken> top_of(const std::vector<double>& p, int k) {
    std::vector<int32_t> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    const size_t n = std::min(order.size(), static_cast<size_t>(std::max(k, 0)));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                      [&](int32_t a, int32_t b) { return p[a] != p[b] ? p[a] > p[b] : a < b; });
    std::vector<NextToken> out;
    for (size_t i = 0; i < n; ++i) out.push_back({order[i], p[order[i]]});
    return out;
}

}  // namespace

NextTokenComparison compare_next_token(const LabModelPtr& model, const std::string& prompt_a,
                                       const std::string& prompt_b, const std::atomic<bool>* cancel, int top_k) {
    LabSessionOptions options;
    options.capture.mode = trace::CaptureMode::None;
    LabSession lab = make_lab_session(model, options);
    const size_t n_vocab = static_cast<size_t>(model->model->spec().n_vocab());
    NextTokenComparison out;
    out.ids_a = model->tokenizer->encode_ids(prompt_a, true, false);
    out.ids_b = model->tokenizer->encode_ids(prompt_b, true, false);
    if (out.ids_a.empty() || out.ids_b.empty()) throw UsageError("misspelling lab: a prompt has no tokens");
    for (const auto* ids : {&out.ids_a, &out.ids_b})
        if (static_cast<int64_t>(ids->size()) > lab.backend->n_ctx())
            throw UsageError("misspelling lab: a prompt of " + std::to_string(ids->size()) +
                             " tokens does not fit the context of " + std::to_string(lab.backend->n_ctx()));
    std::vector<float> logits_a(n_vocab), logits_b(n_vocab);  // [n_vocab] after the last prompt token
    lab.backend->forward({.tokens = out.ids_a, .logits = logits_a, .cancel = cancel});
    lab.backend->forward({.tokens = out.ids_b, .logits = logits_b, .cancel = cancel});  // pos0 0: the cache starts over
    const std::vector<double> p = softmax(logits_a), q = softmax(logits_b);
    double kl = 0.0;
    for (size_t i = 0; i < n_vocab; ++i)
        if (p[i] > 0.0) kl += p[i] * (std::log(p[i]) - std::log(std::max(q[i], 1e-300)));
    out.kl = std::max(kl, 0.0);
    out.top_a = top_of(p, top_k);
    out.top_b = top_of(q, top_k);
    return out;
}

}  // namespace lmscope::gui::labs
