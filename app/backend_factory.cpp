#include "backend_factory.h"

#include "engine/backend_factory.h"

#ifdef LMSCOPE_HAVE_CUDA
#include "gpu/cuda_backend.h"
#endif

namespace lmscope::app {

void register_compiled_backends() {
#ifdef LMSCOPE_HAVE_CUDA
    engine::register_backend("cuda", [](std::shared_ptr<const engine::Model> model,
                                        const engine::BackendOptions& options) {
        return gpu::make_cuda_backend(std::move(model), options, 0);
    }, /*offload_tier=*/true);  // pinned host memory behind a device window
#endif
}

}  // namespace lmscope::app
