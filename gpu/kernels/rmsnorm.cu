#include "gpu/kernels/rmsnorm.cuh"

#include "gpu/cuda_check.h"
#include "gpu/kernels/reduce.cuh"

namespace lmscope::gpu::kernels {

namespace {

constexpr int kThreads = 256;

// 1 / sqrt(mean(row^2) + eps), for every thread of the block
__device__ float inv_rms(const float* row, int32_t n, float eps) {
    float ss = 0.0f;
    for (int32_t i = int32_t(threadIdx.x); i < n; i += int32_t(blockDim.x)) ss += row[i] * row[i];
    ss = block_sum(ss);
    return 1.0f / sqrtf(ss / float(n) + eps);
}

__device__ __half to_out(float v, __half*) { return __float2half_rn(v); }
__device__ float to_out(float v, float*) { return v; }

// one block per row t; out may be x (each thread writes the elements it read, after the sum)
template <typename Out>
__global__ void rmsnorm_kernel(const float* x, const float* __restrict__ w, float eps, int32_t n, Out* out) {
    const size_t base = size_t(blockIdx.x) * size_t(n);
    const float* xr = x + base;
    const float scale = inv_rms(xr, n, eps);
    for (int32_t i = int32_t(threadIdx.x); i < n; i += int32_t(blockDim.x))
        out[base + size_t(i)] = to_out(xr[i] * scale * w[i], out);
}

// one block per row t
__global__ void rmsnorm_add_kernel(float* __restrict__ x, const float* __restrict__ y,
                                   const float* __restrict__ w, float eps, int32_t n) {
    const size_t base = size_t(blockIdx.x) * size_t(n);
    const float* yr = y + base;
    const float scale = inv_rms(yr, n, eps);
    for (int32_t i = int32_t(threadIdx.x); i < n; i += int32_t(blockDim.x)) x[base + size_t(i)] += yr[i] * scale * w[i];
}

}  // namespace

void rmsnorm(const float* x, const float* w, float eps, int32_t n_rows, int32_t n, __half* out,
             cudaStream_t stream) {
    if (n_rows <= 0) return;
    rmsnorm_kernel<__half><<<unsigned(n_rows), kThreads, 0, stream>>>(x, w, eps, n, out);
    LMSCOPE_CUDA_LAUNCHED();
}

void rmsnorm_f32(const float* x, const float* w, float eps, int32_t n_rows, int32_t n, float* out,
                 cudaStream_t stream) {
    if (n_rows <= 0) return;
    rmsnorm_kernel<float><<<unsigned(n_rows), kThreads, 0, stream>>>(x, w, eps, n, out);
    LMSCOPE_CUDA_LAUNCHED();
}

void rmsnorm_add(float* x, const float* y, const float* w, float eps, int32_t n_rows, int32_t n,
                 cudaStream_t stream) {
    if (n_rows <= 0) return;
    rmsnorm_add_kernel<<<unsigned(n_rows), kThreads, 0, stream>>>(x, y, w, eps, n);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
