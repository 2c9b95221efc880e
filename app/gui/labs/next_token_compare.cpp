#include "gui/labs/next_token_compare.h"

#include "engine/model.h"
#include "gui/engine_setup.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"


namespace lmscope::gui::labs {

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
    out.next = analysis::compare_distributions(logits_a, logits_b, top_k);
    return out;
}

}  // namespace lmscope::gui::labs
