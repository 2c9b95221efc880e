// Published model shapes for the KV lab and `lmscope-cli kv --preset`: the attention shape,
// the longest context each model was released with, and its parameter count (for a "weights"
// memory line). The numbers and their sources are tabled in presets.cpp.
#pragma once

#include "kv/kv_math.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace lmscope::kv {

struct Preset {
    std::string_view name;    // "llama-3.1-70b" (what --preset takes)
    std::string_view label;   // "Llama 3.1 70B"
    Shape shape;              // layers, query heads, kv heads, head dim
    uint64_t n_embd = 0;      // hidden size
    uint64_t max_context = 0; // tokens
    uint64_t n_params = 0;    // total parameters
};

std::span<const Preset> presets();
// Case-insensitive; nullptr when there is no such preset.
const Preset* find_preset(std::string_view name);

}  // namespace lmscope::kv
