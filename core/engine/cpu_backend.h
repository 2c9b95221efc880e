// The CPU backend: the reference implementation of Backend (backend.h).
#pragma once

#include "engine/backend.h"

#include <memory>

namespace lmscope::engine {

// Throws UsageError on bad options (for example a quantized KV type the head size cannot hold).
std::unique_ptr<Backend> make_cpu_backend(std::shared_ptr<const Model> model,
                                          const BackendOptions& options = {});

}  // namespace lmscope::engine
