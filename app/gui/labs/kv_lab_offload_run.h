// The KV cache lab's offload experiment, off the UI thread: the loaded model decodes with its
// cache kept whole in memory and then within smaller resident budgets (the CPU backend's
// offload tier: the global layers' older pages in a temporary file, streamed back each step),
// measuring decode speed and the bytes moved per token, beside what the bandwidth model
// (kv::plan_offload, the panel's calculator) predicts for the same window.
//
// Each run prefills `context` tokens (a fixed pseudo-random sequence: speed does not depend on
// the ids) in one step, then times `decode_steps` greedy decode steps.
#pragma once

#include "gui/engine_setup.h"
#include "kv/kv_math.h"
#include "util/cancel.h"

#include <functional>
#include <cstdint>
#include <vector>

namespace lmscope::gui::labs {

struct OffloadRunRow {
    uint64_t budget_bytes = 0;      // the resident budget asked for; 0: the whole cache in memory
    double decode_tok_s = 0.0;      // measured
    double moved_per_token = 0.0;   // measured: bytes written to and read from the file a decode step
    uint64_t resident_bytes = 0;    // measured at the end: the cache's storage in memory
    uint64_t offloaded_bytes = 0;   // measured at the end: bytes in the file
    uint64_t stored_bytes = 0;      // measured at the end: all the rows held
    uint64_t formula_bytes = 0;     // the formula's at the same tokens
    kv::OffloadPlan predicted;      // the bandwidth model at the mid-decode context, window = budget / bytes a token
};

struct OffloadRunOptions {
    int32_t context = 1024;         // tokens prefilled before the timed decode
    int32_t decode_steps = 16;
    std::vector<uint64_t> budgets;  // resident budgets in bytes (0: whole)
    EngineOptions engine;           // the CPU backend (the offload tier measured) on every core;
                                    // each run sets its context and resident budget
};

// The budgets the lab measures at a context: the whole cache, then a half, a quarter and an
// eighth of the formula's bytes at that context.
std::vector<uint64_t> offload_run_budgets(const kv::Shape& shape, KvType type, int32_t context);
// Forward steps the experiment makes (for a progress bar).
int offload_run_steps(const OffloadRunOptions& options);

// Throws UsageError (no model, a context outside the model's, no budgets), CancelledError
// between steps once `token` is cancelled, IoError when the offload file fails. `step_done`
// (may be empty) is called after each forward step.
std::vector<OffloadRunRow> run_offload_experiment(const LabModelPtr& model, const OffloadRunOptions& options,
                                                  const CancelToken* token, const std::function<void()>& step_done);

}  // namespace lmscope::gui::labs
