// Element-wise add: x[i] += y[i] (a block's output into the residual stream).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// x, y: [n] float
void add(float* x, const float* y, int64_t n, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
