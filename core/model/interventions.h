// The interventions on a model's forward pass, checked against the model: heads switched off
// (their z zeroed before Wo) and sub-layers skipped. The one place that says which heads and
// layers exist, for the backends, the Session, the CLI's --ablate and --skip, and the labs.
#pragma once

#include "model/spec.h"
#include "util/types.h"

#include <span>
#include <string_view>
#include <vector>

namespace lmscope::model {

// (layer, head) is one of the model's query heads.
bool has_head(const ModelSpec& spec, const LayerHead& h);
// UsageError "WHO: head L:H does not exist (layers 0 .. N-1, heads 0 .. H-1)" for the first
// head the model lacks.
void check_heads(const ModelSpec& spec, std::span<const LayerHead> heads, std::string_view who);
// UsageError "WHO: layer L does not exist (layers 0 .. N-1)" for the first skip past the
// layers (or of a sub-layer that is neither attn nor ffn).
void check_skips(const ModelSpec& spec, std::span<const LayerSkip> skips, std::string_view who);

// "1:0,2:3" (LAYER:HEAD items, comma-separated, spaces around an item allowed; a head given
// twice is kept once) for that model. UsageError naming `field`, the item and the reason (not
// LAYER:HEAD, or a head the model lacks).
std::vector<LayerHead> parse_head_list(std::string_view text, const ModelSpec& spec, std::string_view field);
// "1:attn,2:ffn" likewise: not LAYER:attn or LAYER:ffn, or a layer the model lacks.
std::vector<LayerSkip> parse_skip_list(std::string_view text, const ModelSpec& spec, std::string_view field);

}  // namespace lmscope::model
