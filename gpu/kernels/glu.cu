#include "gpu/kernels/glu.cuh"

#include "gpu/cuda_check.h"

namespace lmscope::gpu::kernels {

namespace {

struct SiLU {
    __device__ float operator()(float g) const { return g / (1.0f + expf(-g)); }
};
struct GeluTanh {
    __device__ float operator()(float g) const {
        constexpr float kSqrt2OverPi = 0.7978845608028654f;
        return 0.5f * g * (1.0f + tanhf(kSqrt2OverPi * (g + 0.044715f * g * g * g)));
    }
};

// one block per row t
template <class Act>
__global__ void glu_kernel(const float* __restrict__ gu, int32_t n_ff, __half* __restrict__ out) {
    const Act act;
    const size_t t = blockIdx.x;
    const float* g = gu + t * 2 * size_t(n_ff);
    const float* u = g + n_ff;
    __half* o = out + t * size_t(n_ff);
    for (int32_t i = int32_t(threadIdx.x); i < n_ff; i += int32_t(blockDim.x)) o[i] = __float2half_rn(act(g[i]) * u[i]);
}

}  // namespace

void glu(const float* gu, int32_t n_rows, int32_t n_ff, GluActivation act, __half* out, cudaStream_t stream) {
    if (n_rows <= 0) return;
    if (act == GluActivation::GeluTanh) glu_kernel<GeluTanh><<<unsigned(n_rows), 256, 0, stream>>>(gu, n_ff, out);
    else glu_kernel<SiLU><<<unsigned(n_rows), 256, 0, stream>>>(gu, n_ff, out);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
