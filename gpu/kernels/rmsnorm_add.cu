#include "gpu/kernels/rmsnorm_add.cuh"

#include "gpu/cuda_check.h"
#include "gpu/kernels/reduce.cuh"

namespace lmscope::gpu::kernels {

namespace {

constexpr int kThreads = 256;

// one block per row t
__global__ void rmsnorm_add_kernel(float* __restrict__ x, const float* __restrict__ y,
                                   const float* __restrict__ w, float eps, int32_t n) {
    const size_t base = size_t(blockIdx.x) * size_t(n);
    const float* yr = y + base;
    float ss = 0.0f;
    for (int32_t i = int32_t(threadIdx.x); i < n; i += int32_t(blockDim.x)) ss += yr[i] * yr[i];
    ss = block_sum(ss);
    const float scale = 1.0f / sqrtf(ss / float(n) + eps);
    for (int32_t i = int32_t(threadIdx.x); i < n; i += int32_t(blockDim.x))
        x[base + size_t(i)] += yr[i] * scale * w[i];
}

}  // namespace

void rmsnorm_add(float* x, const float* y, const float* w, float eps, int32_t n_rows, int32_t n,
                 cudaStream_t stream) {
    if (n_rows <= 0) return;
    rmsnorm_add_kernel<<<unsigned(n_rows), kThreads, 0, stream>>>(x, y, w, eps, n);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
