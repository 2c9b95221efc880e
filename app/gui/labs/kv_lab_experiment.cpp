#include "gui/labs/kv_lab_experiment.h"

#include "analysis/distribution.h"

#include "engine/backend.h"
#include "engine/model.h"
#include "gui/labs/kv_lab_common.h"
#include "gui/engine_setup.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>

namespace lmscope::gui::labs {
namespace {

// Every row of one run: the prompt's rows, then one per decode step.
struct Rows {
    std::vector<float> logits;  // [row][n_vocab]
    uint64_t measured_bytes = 0;
    int32_t tokens = 0;
};

// Feeds the prompt (one step, every row's logits), then `decode` tokens one at a time; when
// `generated` is null the tokens are chosen greedily from the run's own logits.
Rows run_one(const LabModelPtr& model, KvType type, const KvExperimentOptions& options,
             const std::vector<int32_t>& prompt, std::vector<int32_t>* generated,
             const std::vector<int32_t>& forced, const CancelToken* token, const std::function<void()>& step_done) {
    const size_t n_vocab = size_t(model->model->spec().n_vocab());
    const size_t n_rows = prompt.size() + size_t(options.decode_steps);
    EngineOptions engine = lab_engine(options.engine, int32_t(n_rows));
    engine.resources.kv_type = type;
    EngineSession lab = make_engine_session(model, engine);
    engine::Backend& backend = *lab.backend;

    Rows rows;
    rows.logits.resize(n_rows * n_vocab);
    check_cancel(token);
    backend.forward({.tokens = prompt, .logits = std::span<float>(rows.logits.data(), prompt.size() * n_vocab), .all_logits = true});
    if (step_done) step_done();
    for (int32_t s = 0; s < options.decode_steps; ++s) {
        check_cancel(token);
        const size_t row = prompt.size() + size_t(s);  // the row this step fills
        const std::span<const float> last(rows.logits.data() + (row - 1) * n_vocab, n_vocab);
        const int32_t id = generated ? analysis::top_k(last, 1).front() : forced[size_t(s)];
        if (generated) generated->push_back(id);
        backend.forward({.tokens = std::span<const int32_t>(&id, 1), .pos0 = int32_t(row), .logits = std::span<float>(rows.logits.data() + row * n_vocab, n_vocab)});
        if (step_done) step_done();
    }
    const engine::KvStats stats = backend.kv_stats();
    rows.measured_bytes = stats.total_bytes;
    rows.tokens = stats.n_tokens;
    return rows;
}

}  // namespace

int kv_experiment_steps(const KvExperimentOptions& options) {
    return int(kKvTypes.size()) * (1 + std::max(0, options.decode_steps));
}

KvExperimentResult run_kv_experiment(const LabModelPtr& model, const KvExperimentOptions& options,
                                     const CancelToken* token, const std::function<void()>& step_done) {
    if (!model || !model->model || !model->tokenizer) throw UsageError("KV experiment: no model is loaded");
    if (options.decode_steps < 0 || options.decode_steps > 4096)
        throw UsageError("KV experiment: decode steps must be 0..4096, not " + std::to_string(options.decode_steps));
    if (options.prompt.empty()) throw UsageError("KV experiment: the prompt is empty");
    KvExperimentResult result;
    result.prompt = model->tokenizer->encode_ids(options.prompt, true, false);
    if (result.prompt.empty()) throw UsageError("KV experiment: the prompt is empty");
    const int64_t needed = int64_t(result.prompt.size()) + options.decode_steps;
    const int32_t n_ctx = model->model->spec().n_ctx_train();
    if (needed > n_ctx)
        throw UsageError("KV experiment: " + std::to_string(needed) + " tokens exceed the model's context of " +
                         std::to_string(n_ctx));

    const model::ModelSpec& spec = model->model->spec();
    // Two runs' logits are held at once: [rows][n_vocab] floats each, at most 256 MiB.
    constexpr uint64_t kMaxLogits = uint64_t(1) << 26;
    if (uint64_t(needed) * uint64_t(spec.n_vocab()) > kMaxLogits)
        throw UsageError("KV experiment: " + std::to_string(needed) + " tokens x " + std::to_string(spec.n_vocab()) +
                         " vocabulary logits are too many to compare; use a shorter prompt or fewer steps");
    const kv::Shape shape = spec.kv_shape();
    const size_t n_vocab = size_t(spec.n_vocab());
    Rows reference;
    for (KvType type : kKvTypes) {
        const bool is_reference = type == KvType::F16;
        Rows rows = run_one(model, type, options, result.prompt, is_reference ? &result.generated : nullptr,
                            result.generated, token, step_done);
        KvRunResult run;
        run.type = type;
        run.tokens = rows.tokens;
        run.measured_bytes = rows.measured_bytes;
        run.formula_bytes = kv::cache_bytes(shape, type, uint64_t(rows.tokens));
        const size_t n_rows = rows.logits.size() / n_vocab;
        if (is_reference) reference = std::move(rows);
        const std::vector<float>& mine = is_reference ? reference.logits : rows.logits;
        size_t agree = 0;
        double decode_sum = 0.0;
        for (size_t r = 0; r < n_rows; ++r) {
            const std::span<const float> p(reference.logits.data() + r * n_vocab, n_vocab);
            const std::span<const float> q(mine.data() + r * n_vocab, n_vocab);
            const analysis::DistributionComparison c = analysis::compare_distributions(p, q, 1);
            const double kl = c.kl_ab;
            run.kl.push_back(kl);
            run.mean_kl += kl;
            run.max_kl = std::max(run.max_kl, kl);
            if (r >= result.prompt.size()) decode_sum += kl;
            agree += c.top_a.front().id == c.top_b.front().id ? 1 : 0;
        }
        run.mean_kl /= double(n_rows);
        run.kl_after_prompt = run.kl[result.prompt.size() - 1];
        run.mean_kl_decode = options.decode_steps > 0 ? decode_sum / double(options.decode_steps) : 0.0;
        run.top1_agreement = double(agree) / double(n_rows);
        result.runs.push_back(std::move(run));
    }
    return result;
}

}  // namespace lmscope::gui::labs
