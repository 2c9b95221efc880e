#include "gui/labs/kv_lab_offload_run.h"

#include "engine/backend.h"
#include "engine/model.h"
#include "engine/session.h"
#include "util/clock.h"
#include "util/error.h"

#include <algorithm>
#include <string>

namespace lmscope::gui::labs {

std::vector<uint64_t> offload_run_budgets(const kv::Shape& shape, KvType type, int32_t context) {
    const uint64_t whole = kv::cache_bytes(shape, type, uint64_t(std::max(1, context)));
    return {0, whole / 2, whole / 4, whole / 8};
}

int offload_run_steps(const OffloadRunOptions& options) {
    return int(options.budgets.size()) * (1 + std::max(0, options.decode_steps));
}

std::vector<OffloadRunRow> run_offload_experiment(const LabModelPtr& model, const OffloadRunOptions& options,
                                                  const CancelToken* token, const std::function<void()>& step_done) {
    if (!model || !model->model) throw UsageError("offload experiment: no model is loaded");
    const model::ModelSpec& spec = model->model->spec();
    const int64_t total = int64_t(options.context) + options.decode_steps;
    if (options.context < 1 || options.decode_steps < 1 || total > spec.n_ctx_train())
        throw UsageError("offload experiment: " + std::to_string(options.context) + " + " +
                         std::to_string(options.decode_steps) + " tokens do not fit the model's context of " +
                         std::to_string(spec.n_ctx_train()));
    if (options.budgets.empty()) throw UsageError("offload experiment: no budgets");
    std::vector<int32_t> ids(size_t(options.context));
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = int32_t((i * 7919 + 13) % uint64_t(spec.n_vocab()));
    const kv::Shape shape = spec.kv_shape();
    std::vector<OffloadRunRow> rows;
    std::vector<float> logits(size_t(spec.n_vocab()));
    for (uint64_t budget : options.budgets) {
        EngineOptions engine = lab_engine(options.engine, int32_t(total));
        engine.resources.kv_offload_bytes = budget;
        EngineSession lab = make_engine_session(model, engine);
        engine::Backend& backend = *lab.backend;
        check_cancel(token);
        backend.forward({.tokens = ids, .logits = logits});
        if (step_done) step_done();
        const uint64_t moved0 = backend.kv_stats().moved_bytes;
        const auto t0 = Clock::now();
        for (int32_t s = 0; s < options.decode_steps; ++s) {
            check_cancel(token);
            const int32_t id = int32_t(std::max_element(logits.begin(), logits.end()) - logits.begin());
            backend.forward({.tokens = std::span<const int32_t>(&id, 1), .pos0 = options.context + s, .logits = logits});
            if (step_done) step_done();
        }
        const double seconds = seconds_since(t0);
        const engine::KvStats kv = backend.kv_stats();
        OffloadRunRow row;
        row.budget_bytes = budget;
        row.decode_tok_s = seconds > 0 ? options.decode_steps / seconds : 0.0;
        row.moved_per_token = double(kv.moved_bytes - moved0) / options.decode_steps;
        row.resident_bytes = kv.resident_bytes;
        row.offloaded_bytes = kv.offloaded_bytes;
        row.stored_bytes = kv.total_bytes;
        row.formula_bytes = kv.formula_bytes;
        // the model: the tokens whose KV the budget holds stay, the rest is streamed every step
        const uint64_t per_token = kv::bytes_per_token(shape, KvType::F16);
        const uint64_t window = budget > 0 ? budget / per_token : uint64_t(total);
        row.predicted = kv::plan_offload(shape, KvType::F16, 1, uint64_t(options.context + options.decode_steps / 2), window);
        rows.push_back(row);
    }
    return rows;
}

}  // namespace lmscope::gui::labs
