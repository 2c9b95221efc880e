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
    });
#endif
}

}  // namespace lmscope::app
