#include "gpu/kernels/rope.cuh"

#include "gpu/cuda_check.h"

namespace lmscope::gpu::kernels {

namespace {

// one block per row t; threads over (head, pair)
__global__ void rope_kernel(float* __restrict__ rows, int32_t row_stride, int32_t n_heads,
                            int32_t head_dim, int32_t n_rot, const float* __restrict__ inv_freq,
                            int32_t pos0, bool neox) {
    const int32_t half = n_rot / 2;
    float* row = rows + size_t(blockIdx.x) * size_t(row_stride);
    const float pos = float(pos0 + int32_t(blockIdx.x));
    for (int32_t idx = int32_t(threadIdx.x); idx < n_heads * half; idx += int32_t(blockDim.x)) {
        const int32_t h = idx / half, i = idx % half;
        float* v = row + size_t(h) * size_t(head_dim);
        const float theta = pos * inv_freq[i];
        float s, c;
        sincosf(theta, &s, &c);
        const int32_t a = neox ? i : 2 * i;
        const int32_t b = neox ? i + half : 2 * i + 1;
        const float x0 = v[a], x1 = v[b];
        v[a] = x0 * c - x1 * s;
        v[b] = x0 * s + x1 * c;
    }
}

}  // namespace

void rope(float* rows, int32_t n_rows, int32_t row_stride, int32_t n_heads, int32_t head_dim,
          int32_t n_rot, const float* inv_freq, int32_t pos0, bool neox, cudaStream_t stream) {
    if (n_rows <= 0 || n_rot < 2) return;
    rope_kernel<<<unsigned(n_rows), 128, 0, stream>>>(rows, row_stride, n_heads, head_dim, n_rot,
                                                      inv_freq, pos0, neox);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
