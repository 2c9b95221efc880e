#include "gpu/kernels/geglu.cuh"

#include "gpu/cuda_check.h"

namespace lmscope::gpu::kernels {

namespace {

// one block per row t
__global__ void geglu_kernel(const float* __restrict__ gu, int32_t n_ff, __half* __restrict__ out) {
    constexpr float kSqrt2OverPi = 0.7978845608028654f;
    const size_t t = blockIdx.x;
    const float* g = gu + t * 2 * size_t(n_ff);
    const float* u = g + n_ff;
    __half* o = out + t * size_t(n_ff);
    for (int32_t i = int32_t(threadIdx.x); i < n_ff; i += int32_t(blockDim.x)) {
        const float x = g[i];
        const float gelu = 0.5f * x * (1.0f + tanhf(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
        o[i] = __float2half_rn(gelu * u[i]);
    }
}

}  // namespace

void geglu(const float* gu, int32_t n_rows, int32_t n_ff, __half* out, cudaStream_t stream) {
    if (n_rows <= 0) return;
    geglu_kernel<<<unsigned(n_rows), 256, 0, stream>>>(gu, n_ff, out);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
