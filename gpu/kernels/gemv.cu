#include "gpu/kernels/gemv.cuh"

#include "gpu/cuda_check.h"
#include "gpu/kernels/reduce.cuh"
#include "gpu/kernels/weight_blocks.cuh"
#include "util/error.h"

#include <string>

namespace lmscope::gpu::kernels {

namespace {

constexpr int kThreads = 256;
constexpr int kRowsPerBlock = kThreads / 32;  // one warp per output row

template <class D>
__global__ void gemv_kernel(const uint8_t* __restrict__ w, size_t row_bytes, int32_t m, int32_t k,
                            const __half* __restrict__ x, float* __restrict__ y, bool accumulate) {
    constexpr int kChunks = D::kBlock / kChunk;  // chunks per block
    const int32_t row = int32_t(blockIdx.x) * kRowsPerBlock + int32_t(threadIdx.x >> 5);
    const int32_t lane = int32_t(threadIdx.x) & 31;
    if (row >= m) return;  // the whole warp leaves together
    const uint8_t* wr = w + size_t(row) * row_bytes;  // [k / kBlock] blocks
    const uint4* xv = reinterpret_cast<const uint4*>(x);  // [k / 8]
    float s = 0.0f;
    for (int32_t i = lane; i < k / kChunk; i += 32) {
        float v[kChunk];
        D::decode8(wr + size_t(i / kChunks) * D::kBytes, i % kChunks, v);
        const uint4 b = xv[i];
        const __half2* b2 = reinterpret_cast<const __half2*>(&b);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const float2 fb = __half22float2(b2[j]);
            s += v[2 * j] * fb.x + v[2 * j + 1] * fb.y;
        }
    }
    s = warp_sum(s);
    if (lane == 0) y[row] = accumulate ? y[row] + s : s;
}

}  // namespace

void gemv(const uint8_t* w, gguf::TensorType type, int32_t m, int32_t k, const __half* x, float* y,
          bool accumulate, cudaStream_t stream) {
    if (m <= 0) return;
    if (k % kChunk != 0 || (reinterpret_cast<uintptr_t>(x) & 15u) != 0)
        throw UsageError("gemv: row length " + std::to_string(k) + " not a multiple of 8 or input not 16-byte aligned");
    const unsigned blocks = unsigned((int64_t(m) + kRowsPerBlock - 1) / kRowsPerBlock);
    const size_t rb = gguf::row_bytes(type, k);
    const bool known = visit_decoder(type, [&](auto dec) {
        gemv_kernel<decltype(dec)><<<blocks, kThreads, 0, stream>>>(w, rb, m, k, x, y, accumulate);
    });
    if (!known) throw UnsupportedError("cuda: no GEMV for tensor type " + std::string(gguf::type_name(type)));
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
