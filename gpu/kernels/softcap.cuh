// Final-logit soft-capping (gemma3 with final_logit_softcapping), in place.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// x[i] = cap * tanh(x[i] / cap), i < n (cap > 0)
void softcap(float* x, int64_t n, float cap, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
