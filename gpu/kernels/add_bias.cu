#include "gpu/kernels/add_bias.cuh"

#include "gpu/cuda_check.h"

namespace lmscope::gpu::kernels {

namespace {

// one block per row t
__global__ void add_bias_kernel(float* __restrict__ y, const float* __restrict__ b, int32_t n_cols) {
    float* row = y + size_t(blockIdx.x) * size_t(n_cols);
    for (int32_t c = int32_t(threadIdx.x); c < n_cols; c += int32_t(blockDim.x)) row[c] += b[c];
}

}  // namespace

void add_bias(float* y, const float* b, int32_t n_rows, int32_t n_cols, cudaStream_t stream) {
    if (n_rows <= 0) return;
    add_bias_kernel<<<unsigned(n_rows), 256, 0, stream>>>(y, b, n_cols);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
