// The KV cache lab's experiment, off the UI thread: the same prompt through three lab sessions
// whose caches store f16, q8_0 and q4_0, with the measured cache bytes (Backend::kv_stats) beside
// the formula, and how much the quantized caches change the next-token distributions.
//
// The f16 run feeds the prompt in one forward step (every position's logits kept), then
// `decode_steps` greedy decode steps. The q8_0 and q4_0 runs are fed exactly the same tokens
// (the prompt, then the tokens the f16 run chose), so every row compares the distributions over
// the same context. Per row: KL(P_f16 || P_type) in nats, over the whole vocabulary.
#pragma once

#include "util/cancel.h"
#include "gui/engine_setup.h"
#include "kv/kv_math.h"

#include <functional>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lmscope::gui::labs {

struct KvRunResult {
    KvType type = KvType::F16;
    int32_t tokens = 0;             // positions held at the end (prompt + decode steps)
    uint64_t measured_bytes = 0;    // kv_stats().total_bytes at the end
    uint64_t formula_bytes = 0;     // kv::cache_bytes(the model's shape, type, tokens)
    std::vector<double> kl;         // [row] KL(P_f16 || P_type): prompt positions, then decode steps
    double mean_kl = 0.0;           // over every row
    double kl_after_prompt = 0.0;   // the row after the last prompt token (the first prediction)
    double mean_kl_decode = 0.0;    // over the decode steps' rows (0 when there are none)
    double max_kl = 0.0;
    double top1_agreement = 0.0;    // fraction of rows whose most likely token is f16's
};

struct KvExperimentResult {
    std::vector<int32_t> prompt;    // the prompt's ids (BOS as the vocabulary asks)
    std::vector<int32_t> generated; // the f16 run's greedy tokens, fed to every run
    std::vector<KvRunResult> runs;  // f16, q8_0, q4_0
};

struct KvExperimentOptions {
    std::string prompt;
    int32_t decode_steps = 8;
    EngineOptions engine;  // the chosen backend and threads (each run sets its KV type and context)
};

// Forward steps the experiment makes (for a progress bar): 3 x (1 + decode_steps).
int kv_experiment_steps(const KvExperimentOptions& options);

// Throws UsageError (no model, an empty prompt, more tokens than the model's context),
// CancelledError between forward steps once `token` is cancelled. `step_done` (may be empty)
// is called after each forward step.
KvExperimentResult run_kv_experiment(const LabModelPtr& model, const KvExperimentOptions& options,
                                     const CancelToken* token, const std::function<void()>& step_done);

}  // namespace lmscope::gui::labs
