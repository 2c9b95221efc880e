#include "gpu/kernels/add.cuh"

#include "gpu/cuda_check.h"

namespace lmscope::gpu::kernels {

namespace {

constexpr int kThreads = 256;

__global__ void add_kernel(float* __restrict__ x, const float* __restrict__ y, int64_t n) {
    const int64_t stride = int64_t(gridDim.x) * blockDim.x;
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) x[i] += y[i];
}

}  // namespace

void add(float* x, const float* y, int64_t n, cudaStream_t stream) {
    if (n <= 0) return;
    const int64_t blocks = (n + kThreads - 1) / kThreads;
    add_kernel<<<unsigned(blocks < 65535 ? blocks : 65535), kThreads, 0, stream>>>(x, y, n);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
