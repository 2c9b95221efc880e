// --backend NAME for the commands that run the model (run, dump, bench): the backend made as
// the option asks, with the option named in every refusal ("--backend cuda: no CUDA device:
// ..."), so the user knows which argument to change. The backend's notice (fewer threads
// than asked) goes to stderr as "lmscope-cli: notice: ...".
#pragma once

#include "engine/backend.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace lmscope::engine {
class Model;
}

namespace lmscope::cli {

// --kv-offload MIB (run, dump, bench): at most MIB (a fraction allowed) of the KV cache stays in
// compute memory, the older positions of the global layers go to the next tier. 0: off.
// (engine::kv_offload_budget turns it into bytes)
void add_kv_offload_option(CLI::App* cmd, double& mib);

// Throws UsageError (an unknown name: exit 2) or Error (the backend cannot start: exit 1).
std::unique_ptr<engine::Backend> start_backend(const std::string& name, std::shared_ptr<const engine::Model> model,
                                               const engine::BackendOptions& options);

}  // namespace lmscope::cli
