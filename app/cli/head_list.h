// --ablate L:H,...: the heads a command switches off (dump, run).
#pragma once

#include "model/spec.h"
#include "trace/capture.h"

#include <string>
#include <vector>

namespace lmscope::cli {

// Parses "1:0,2:3" for that model. Throws UsageError naming --ablate, the item and the reason
// (not LAYER:HEAD, or a head the model does not have).
std::vector<LayerHead> parse_head_list(const std::string& text, const model::ModelSpec& spec);

}  // namespace lmscope::cli
