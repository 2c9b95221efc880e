#include "gui/labs/next_token_compare.h"

#include "analysis/distribution.h"
#include "engine/model.h"
#include "gui/engine_setup.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"


namespace lmscope::gui::labs {

namespace {

std::vector<NextToken> top_of(const std::vector<double>& p, int k) {
    std::vector<NextToken> out;
    for (int32_t id : analysis::top_k(std::span<const double>(p), k)) out.push_back({id, p[size_t(id)]});
    return out;
}

}  // namespace

NextTokenComparison compare_next_token(const LabModelPtr& model, const std::string& prompt_a,
                                       const std::string& prompt_b, const CancelToken* cancel, int top_k,
                                       const EngineOptions& chosen) {
    engine::SessionOptions options = lab_session_options();
    options.capture.mode = trace::CaptureMode::None;
    EngineSession lab = make_engine_session(model, lab_engine(chosen), options);
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
    const std::vector<double> p = analysis::softmax(logits_a), q = analysis::softmax(logits_b);
    out.kl = analysis::kl_divergence(logits_a, logits_b);
    out.top_a = top_of(p, top_k);
    out.top_b = top_of(q, top_k);
    return out;
}

}  // namespace lmscope::gui::labs
