// The interventions a command asks for (dump, run): --ablate L:H,... (heads switched off) and
// --skip L:attn,L:ffn,... (sub-layers skipped).
#pragma once

#include "model/spec.h"
#include "trace/capture.h"

#include <string>
#include <vector>

namespace lmscope::cli {

// Parses "1:0,2:3" for that model. Throws UsageError naming --ablate, the item and the reason
// (not LAYER:HEAD, or a head the model does not have).
std::vector<LayerHead> parse_head_list(const std::string& text, const model::ModelSpec& spec);
// Parses "1:attn,2:ffn" for that model. Throws UsageError naming --skip, the item and the reason
// (not LAYER:attn or LAYER:ffn, or a layer the model does not have).
std::vector<LayerSkip> parse_skip_list(const std::string& text, const model::ModelSpec& spec);

}  // namespace lmscope::cli
