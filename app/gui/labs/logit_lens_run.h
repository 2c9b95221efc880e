// The logit lens for one position: the prompt's tokens up to and including that position are
// prefilled with the lens on, and the residual stream after every layer is read through the final
// norm and the output head. The lens is captured over the whole vocabulary, so besides each
// layer's top tokens the lab knows where the model's final prediction ranks at every layer.
#pragma once

#include "util/cancel.h"
#include "gui/engine_setup.h"
#include "trace/capture.h"

#include <cstdint>
#include <vector>

namespace lmscope::gui::labs {

struct LensResult {
    int32_t position = 0;                // the last position prefilled
    int32_t n_layer = 0;
    int32_t top_k = 0;
    std::vector<trace::LensEntry> top;   // [layer][top_k], most probable first
    int32_t final_token = -1;            // the model's next token (greedy: the logits' argmax)
    float final_prob = 0.0f;             // its probability in the final distribution
    std::vector<int32_t> final_rank;     // [layer] 0-based rank of final_token in the layer's lens
    std::vector<float> final_lens_prob;  // [layer] its lens probability
};

// Runs on a job thread. `ids` is the whole prompt; `position` indexes it. Throws UsageError for
// a position outside the prompt, CancelledError when cancelled.
LensResult run_logit_lens(const LabModelPtr& model, const std::vector<int32_t>& ids, int32_t position,
                          int32_t top_k, const CancelToken* token, const EngineOptions& chosen = {});

}  // namespace lmscope::gui::labs
