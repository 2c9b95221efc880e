// Tokenizer lab, misspelling mode: the loaded model's next-token distribution after two prompts
// (the correct and the misspelled one), each run from an empty cache in a lab session of its
// own backend, compared by analysis::compare_distributions (a: correct, b: misspelled): the top
// tokens of each and KL(correct || misspelled) over the whole vocabulary.
#pragma once

#include "analysis/distribution.h"
#include "gui/engine_setup.h"
#include "util/cancel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lmscope::gui::labs {

struct NextTokenComparison {
    std::vector<int32_t> ids_a, ids_b;       // the prompts' tokens as fed (BOS added as the model asks)
    analysis::DistributionComparison next;   // the next-token distributions after each
};

// Runs on the calling thread (a JobRunner job). `cancel` is checked before every layer: once
// it is cancelled, lmscope::CancelledError is thrown. Throws UsageError for an empty prompt.
NextTokenComparison compare_next_token(const LabModelPtr& model, const std::string& prompt_a,
                                       const std::string& prompt_b, const CancelToken* cancel,
                                       int top_k = 5, const EngineOptions& chosen = {});

}  // namespace lmscope::gui::labs
