#include "gpu/kernels/embed.cuh"

#include "gpu/cuda_check.h"

namespace lmscope::gpu::kernels {

namespace {

// one block per row t
__global__ void embed_kernel(const __half* __restrict__ table, const int32_t* __restrict__ ids,
                             int32_t n_embd, float scale, float* __restrict__ x) {
    const size_t t = blockIdx.x;
    const __half* src = table + size_t(ids[t]) * size_t(n_embd);
    float* dst = x + t * size_t(n_embd);
    for (int32_t i = int32_t(threadIdx.x); i < n_embd; i += int32_t(blockDim.x))
        dst[i] = __half2float(src[i]) * scale;
}

}  // namespace

void embed(const __half* table, const int32_t* ids, int32_t n_rows, int32_t n_embd, float scale,
           float* x, cudaStream_t stream) {
    if (n_rows <= 0) return;
    embed_kernel<<<unsigned(n_rows), 256, 0, stream>>>(table, ids, n_embd, scale, x);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
