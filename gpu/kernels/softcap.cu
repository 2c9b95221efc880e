#include "gpu/kernels/softcap.cuh"

#include "gpu/cuda_check.h"

#include <algorithm>

namespace lmscope::gpu::kernels {

namespace {

__global__ void softcap_kernel(float* __restrict__ x, int64_t n, float cap) {
    const float inv = 1.0f / cap;
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
        x[i] = cap * tanhf(x[i] * inv);
}

}  // namespace

void softcap(float* x, int64_t n, float cap, cudaStream_t stream) {
    if (n <= 0) return;
    const int64_t blocks = std::min<int64_t>((n + 255) / 256, 4096);
    softcap_kernel<<<unsigned(blocks), 256, 0, stream>>>(x, n, cap);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
