#include "gpu/kernels/gemv.cuh"

#include "gpu/cuda_check.h"
#include "gpu/kernels/reduce.cuh"

namespace lmscope::gpu::kernels {

namespace {

constexpr int kThreads = 256;
constexpr int kRowsPerBlock = kThreads / 32;  // one warp per output row

// k % 8 == 0 and 16-byte aligned w and x: lanes read 8 halves (16 bytes) at a time.
__global__ void gemv8_kernel(const __half* __restrict__ w, int32_t m, int32_t k,
                             const __half* __restrict__ x, float* __restrict__ y, bool accumulate) {
    const int32_t row = int32_t(blockIdx.x) * kRowsPerBlock + int32_t(threadIdx.x >> 5);
    const int32_t lane = int32_t(threadIdx.x) & 31;
    if (row >= m) return;  // the whole warp leaves together
    const uint4* wr = reinterpret_cast<const uint4*>(w + size_t(row) * size_t(k));  // [k / 8]
    const uint4* xv = reinterpret_cast<const uint4*>(x);                           // [k / 8]
    float s = 0.0f;
    for (int32_t i = lane; i < k / 8; i += 32) {
        const uint4 a = wr[i], b = xv[i];
        const __half2* a2 = reinterpret_cast<const __half2*>(&a);
        const __half2* b2 = reinterpret_cast<const __half2*>(&b);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const float2 fa = __half22float2(a2[j]), fb = __half22float2(b2[j]);
            s += fa.x * fb.x + fa.y * fb.y;
        }
    }
    s = warp_sum(s);
    if (lane == 0) y[row] = accumulate ? y[row] + s : s;
}

// Any k and alignment: one half at a time.
__global__ void gemv1_kernel(const __half* __restrict__ w, int32_t m, int32_t k,
                             const __half* __restrict__ x, float* __restrict__ y, bool accumulate) {
    const int32_t row = int32_t(blockIdx.x) * kRowsPerBlock + int32_t(threadIdx.x >> 5);
    const int32_t lane = int32_t(threadIdx.x) & 31;
    if (row >= m) return;
    const __half* wr = w + size_t(row) * size_t(k);
    float s = 0.0f;
    for (int32_t i = lane; i < k; i += 32) s += __half2float(wr[i]) * __half2float(x[i]);
    s = warp_sum(s);
    if (lane == 0) y[row] = accumulate ? y[row] + s : s;
}

bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

}  // namespace

void gemv(const __half* w, int32_t m, int32_t k, const __half* x, float* y, bool accumulate,
          cudaStream_t stream) {
    if (m <= 0) return;
    const unsigned blocks = unsigned((int64_t(m) + kRowsPerBlock - 1) / kRowsPerBlock);
    if (k % 8 == 0 && aligned16(w) && aligned16(x))
        gemv8_kernel<<<blocks, kThreads, 0, stream>>>(w, m, k, x, y, accumulate);
    else
        gemv1_kernel<<<blocks, kThreads, 0, stream>>>(w, m, k, x, y, accumulate);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
