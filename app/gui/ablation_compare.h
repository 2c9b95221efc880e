// "With and without": the next-token distribution of a step that ran with heads switched off,
// beside the one the same tokens give with every head on. Both are computed afresh, off the UI
// and engine threads (a JobRunner job), on a backend of the loaded model on the engine the user
// chose (`chosen`: its backend and threads; an f16 cache the length of the path). The Model is
// shared (its CPU weights are not packed again; the backend owns only its KV cache):
//   with:    the path's steps fed one after another, each with the heads it ran without (the
//            cache holds what the session's cache held; consecutive steps with the same heads
//            off are fed together), the last row's logits
//   without: the whole path's tokens fed at once (teacher-forced) with no head switched off
// and compared by analysis::compare_distributions (a: with, b: without).
#pragma once

#include "analysis/distribution.h"
#include "gui/engine_setup.h"
#include "util/cancel.h"
#include "util/types.h"

#include <cstdint>
#include <vector>

namespace lmscope::gui {

// What was fed, step by step, along the path to the step compared (first step first).
struct AblationPathStep {
    int32_t first_pos = -1;          // the position of tokens[0] (a chat turn may reuse only a
                                     // prefix of the cache); -1: right after the step before
    std::vector<int32_t> tokens;     // the ids the step fed
    std::vector<LayerHead> ablated;  // the heads it ran without
};

struct AblationCompareResult {
    std::vector<float> logits_with, logits_without;  // [n_vocab] after the path's last token
    analysis::DistributionComparison compared;       // a: with the heads off, b: every head on
};

// Throws UsageError for an empty path or no model, CancelledError when `cancel` is cancelled,
// lmscope::Error otherwise.
AblationCompareResult compare_ablation(const LabModelPtr& model, const std::vector<AblationPathStep>& path,
                                       int32_t k, const CancelToken* cancel, const EngineOptions& chosen = {});

}  // namespace lmscope::gui
