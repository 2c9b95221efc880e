#include "gui/labs/logit_lens_run.h"

#include "engine/model.h"
#include "engine/session.h"
#include "gui/engine_setup.h"
#include "util/error.h"

#include <algorithm>
#include <string>

namespace lmscope::gui::labs {

LensResult run_logit_lens(const LabModelPtr& model, const std::vector<int32_t>& ids, int32_t position,
                          int32_t top_k, const CancelToken* token, const EngineOptions& chosen) {
    if (position < 0 || size_t(position) >= ids.size())
        throw UsageError("logit lens: position " + std::to_string(position) + " is outside the prompt of " +
                         std::to_string(ids.size()) + " tokens");
    if (top_k < 1) throw UsageError("logit lens: top_k must be at least 1");
    check_cancel(token);
    const int32_t n_vocab = model->model->spec().n_vocab();
    engine::SessionOptions options = lab_session_options();  // greedy: the chosen token is the logits' argmax
    options.capture.mode = trace::CaptureMode::None;
    options.capture.logit_lens = true;
    options.capture.lens_top_k = n_vocab;  // the whole sorted distribution: ranks at every layer
    EngineSession lab = make_engine_session(model, lab_engine(chosen, std::max<int32_t>(position + 1, 16)), options);
    const engine::Session::CancelScope scope(*lab.session, token);
    const trace::StepTrace& step =
        lab.session->prefill(std::span<const int32_t>(ids.data(), size_t(position) + 1));

    LensResult r;
    r.position = position;
    r.n_layer = int32_t(step.lens.size() / size_t(std::max(step.lens_k, 1)));
    r.top_k = std::min(top_k, step.lens_k);
    if (step.lens_k != n_vocab || step.lens.size() != size_t(r.n_layer) * size_t(n_vocab) || r.n_layer <= 0)
        throw Error("logit lens: the backend captured " + std::to_string(step.lens.size()) + " lens entries, expected " +
                    std::to_string(n_vocab) + " per layer");
    r.final_token = step.logits.chosen;
    r.final_prob = step.logits.chosen_prob;
    r.top.reserve(size_t(r.n_layer) * size_t(r.top_k));
    for (int32_t l = 0; l < r.n_layer; ++l) {
        const trace::LensEntry* layer = step.lens.data() + size_t(l) * size_t(n_vocab);
        r.top.insert(r.top.end(), layer, layer + r.top_k);
        const trace::LensEntry* at = std::find_if(layer, layer + n_vocab, [&](const trace::LensEntry& e) {
            return e.token == r.final_token;
        });
        r.final_rank.push_back(int32_t(at - layer));
        r.final_lens_prob.push_back(at < layer + n_vocab ? at->prob : 0.0f);
    }
    return r;
}

}  // namespace lmscope::gui::labs
