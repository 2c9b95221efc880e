#include "gpu/kernels/head_rmsnorm.cuh"

#include "gpu/cuda_check.h"
#include "gpu/kernels/reduce.cuh"

namespace lmscope::gpu::kernels {

namespace {

// one warp per (row, head): blockIdx.x = row * (n_q + n_k) + head
__global__ void head_rmsnorm_kernel(float* __restrict__ rows, int32_t row_stride, int32_t n_q,
                                    int32_t n_heads, int32_t head_dim, const float* __restrict__ wq,
                                    const float* __restrict__ wk, float eps) {
    const int32_t h = int32_t(blockIdx.x) % n_heads;
    const size_t t = size_t(blockIdx.x) / size_t(n_heads);
    float* v = rows + t * size_t(row_stride) + size_t(h) * size_t(head_dim);
    const float* w = h < n_q ? wq : wk;
    float ss = 0.0f;
    for (int32_t i = int32_t(threadIdx.x); i < head_dim; i += 32) ss += v[i] * v[i];
    ss = warp_sum(ss);
    const float scale = 1.0f / sqrtf(ss / float(head_dim) + eps);
    for (int32_t i = int32_t(threadIdx.x); i < head_dim; i += 32) v[i] = v[i] * scale * w[i];
}

}  // namespace

void head_rmsnorm(float* rows, int32_t n_rows, int32_t row_stride, int32_t n_q, int32_t n_k,
                  int32_t head_dim, const float* wq, const float* wk, float eps, cudaStream_t stream) {
    if (n_rows <= 0 || n_q + n_k <= 0) return;
    const int64_t blocks = int64_t(n_rows) * (n_q + n_k);
    head_rmsnorm_kernel<<<unsigned(blocks), 32, 0, stream>>>(rows, row_stride, n_q, n_q + n_k, head_dim,
                                                             wq, wk, eps);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
