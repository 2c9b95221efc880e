#include "gui/ablation_compare.h"

#include "analysis/distribution.h"
#include "engine/backend.h"
#include "engine/backend_factory.h"
#include "engine/model.h"
#include "util/error.h"

#include <algorithm>
#include <span>

namespace lmscope::gui {

AblationCompareResult compare_ablation(const labs::LabModelPtr& model, const std::vector<AblationPathStep>& path,
                                       int32_t k, const CancelToken& cancel) {
    cancel.check();
    if (!model || !model->model) throw UsageError("with and without: no model is loaded");
    std::vector<int32_t> all;
    for (const AblationPathStep& s : path) all.insert(all.end(), s.tokens.begin(), s.tokens.end());
    if (all.empty()) throw UsageError("with and without: the step fed no tokens");
    const int32_t n_vocab = model->model->spec().n_vocab();
    const int32_t n = int32_t(all.size());

    engine::BackendOptions options;
    options.n_ctx = std::min<int32_t>(n, model->model->spec().n_ctx_train());
    if (options.n_ctx < n) throw UsageError("with and without: the path is longer than the model's context");
    const std::unique_ptr<engine::Backend> backend = engine::make_backend("cpu", model->model, options);

    AblationCompareResult out;
    out.logits_with.resize(size_t(n_vocab));
    out.logits_without.resize(size_t(n_vocab));
    // With: each step as the session ran it, on the cache the earlier steps left. Consecutive
    // steps that ran with the same heads off are fed at once (the same result: attention is
    // causal), so a long decode is a few forwards, not one per token.
    int32_t pos = 0;
    for (size_t i = 0; i < path.size();) {
        std::vector<int32_t> run;
        size_t j = i;
        for (; j < path.size() && path[j].ablated == path[i].ablated; ++j)
            run.insert(run.end(), path[j].tokens.begin(), path[j].tokens.end());
        if (!run.empty())
            backend->forward({.tokens = run, .pos0 = pos, .logits = out.logits_with, .cancel = &cancel, .ablate = path[i].ablated});
        pos += int32_t(run.size());
        i = j;
    }
    // Without: every token at once, every head on.
    backend->forward({.tokens = all, .pos0 = 0, .logits = out.logits_without, .cancel = &cancel});

    const std::vector<double> p = analysis::softmax(out.logits_with);
    const std::vector<double> q = analysis::softmax(out.logits_without);
    out.kl = analysis::kl_divergence(out.logits_with, out.logits_without);
    for (const int32_t id : analysis::top_k(std::span<const double>(p), k))
        out.top.push_back({id, p[size_t(id)], q[size_t(id)]});
    return out;
}

}  // namespace lmscope::gui
