#include "gui/ablation_compare.h"

#include "engine/backend.h"
#include "engine/model.h"
#include "util/error.h"

#include <algorithm>

namespace lmscope::gui {

AblationCompareResult compare_ablation(const LabModelPtr& model, const std::vector<AblationPathStep>& path,
                                       int32_t k, const CancelToken* cancel, const EngineOptions& chosen) {
    check_cancel(cancel);
    if (!model || !model->model) throw UsageError("with and without: no model is loaded");
    // Where each step's tokens go, and the sequence the last step leaves.
    std::vector<int32_t> starts, all;
    int32_t most = 0;  // the longest the sequence gets
    for (const AblationPathStep& s : path) {
        const int32_t at = s.first_pos < 0 ? int32_t(all.size()) : s.first_pos;
        if (at > int32_t(all.size())) throw UsageError("with and without: a step starts past the tokens before it");
        starts.push_back(at);
        all.resize(size_t(at));
        all.insert(all.end(), s.tokens.begin(), s.tokens.end());
        most = std::max(most, int32_t(all.size()));
    }
    if (all.empty()) throw UsageError("with and without: the step fed no tokens");
    const int32_t n_vocab = model->model->spec().n_vocab();

    if (most > model->model->spec().n_ctx_train()) throw UsageError("with and without: the path is longer than the model's context");
    const std::unique_ptr<engine::Backend> backend = make_engine_backend(*model, lab_engine(chosen, most));

    AblationCompareResult out;
    out.logits_with.resize(size_t(n_vocab));
    out.logits_without.resize(size_t(n_vocab));
    // With: each step as the session ran it, on the cache the earlier steps left. Consecutive
    // steps that ran with the same heads off, each right after the other, are fed at once (the
    // same result: attention is causal), so a long decode is a few forwards, not one per token.
    for (size_t i = 0; i < path.size();) {
        std::vector<int32_t> run;
        const int32_t pos0 = starts[i];
        size_t j = i;
        for (; j < path.size() && path[j].ablated == path[i].ablated && starts[j] == pos0 + int32_t(run.size()); ++j)
            run.insert(run.end(), path[j].tokens.begin(), path[j].tokens.end());
        if (!run.empty())
            backend->forward({.tokens = run, .pos0 = pos0, .logits = out.logits_with, .cancel = cancel, .ablate = path[i].ablated});
        i = j;
    }
    // Without: every token at once, every head on.
    backend->forward({.tokens = all, .pos0 = 0, .logits = out.logits_without, .cancel = cancel});

    out.compared = analysis::compare_distributions(out.logits_with, out.logits_without, k);
    return out;
}

}  // namespace lmscope::gui
