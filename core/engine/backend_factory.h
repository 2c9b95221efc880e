// Backends by name ("cpu", "cuda"). The CPU backend is always there; other backends (the
// CUDA one lives in gpu/, which core/ must not depend on) register a factory at start-up.
#pragma once

#include "engine/backend.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lmscope::engine {

using BackendFactory =
    std::function<std::unique_ptr<Backend>(std::shared_ptr<const Model>, const BackendOptions&)>;

// Adds or replaces a named backend (call before make_backend; not thread-safe against it).
// offload_tier: it keeps BackendOptions::kv_offload_bytes (a budget is refused otherwise).
void register_backend(std::string name, BackendFactory factory, bool offload_tier = false);
// Names known now, "cpu" first.
std::vector<std::string> backend_names();
// Throws UsageError for an unknown name, and UnsupportedError("cuda backend not available in
// this build / no device") for "cuda" when no CUDA backend registered itself, or for a KV
// offload budget on a backend registered without an offload tier.
std::unique_ptr<Backend> make_backend(std::string_view name, std::shared_ptr<const Model> model,
                                      const BackendOptions& options);

}  // namespace lmscope::engine
