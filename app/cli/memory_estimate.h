// What a command will hold in memory, estimated from the model's shape before any work, and the
// check against this machine: a request that cannot fit is refused up front with what it would
// need, instead of running for minutes and dying of std::bad_alloc (or the OOM killer).
#pragma once

#include "engine/kv_cache.h"
#include "engine/model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lmscope::cli {

struct MemoryPart {
    std::string what;  // "the KV cache (2048 positions, f16)"
    uint64_t bytes = 0;
};

uint64_t physical_memory();     // this machine's RAM (UINT64_MAX when it cannot be read)
std::string gib(uint64_t bytes);  // "1.5 GiB", "96 MiB" below a GiB

// Throws Error("COMMAND: needs X GiB (A GiB for WHAT, ...), more than this machine's Y GiB of
// memory") when the parts add up to more than physical_memory().
void check_memory(const std::string& command, const std::vector<MemoryPart>& parts);

// The parts of running a model (each saturating at UINT64_MAX, never wrapping):
MemoryPart weights_part(const engine::Model& m);  // the backend's copies of the matrices
MemoryPart kv_part(const model::ModelSpec& s, KvType type, int64_t positions);
// the activations of one forward step of `rows` rows (the logits of every row when all_logits)
MemoryPart activations_part(const model::ModelSpec& s, int64_t rows, bool all_logits);
// full attention planes of one step: layers x heads x rows x keys floats
MemoryPart planes_part(const model::ModelSpec& s, int64_t rows, int64_t keys);

}  // namespace lmscope::cli
