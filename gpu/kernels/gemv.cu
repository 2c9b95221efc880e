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

// N: the most activation rows this instance takes (1: decode; kMaxGemvRows: n rows, n <= N).
template <class D, int N>
__global__ void gemv_kernel(const uint8_t* __restrict__ w, size_t row_bytes, int32_t m, int32_t k,
                            const __half* __restrict__ x, int32_t n, float* __restrict__ y, int32_t ldy,
                            bool accumulate) {
    constexpr int kChunks = D::kBlock / kChunk;  // chunks per block
    const int32_t row = int32_t(blockIdx.x) * kRowsPerBlock + int32_t(threadIdx.x >> 5);
    const int32_t lane = int32_t(threadIdx.x) & 31;
    if (row >= m) return;  // the whole warp leaves together
    const uint8_t* wr = w + size_t(row) * row_bytes;  // [k / kBlock] blocks
    const int32_t row_chunks = k / kChunk;
    float s[N] = {};  // [activation row]
    for (int32_t i = lane; i < row_chunks; i += 32) {
        float v[kChunk];
        D::decode8(wr + size_t(i / kChunks) * D::kBytes, i % kChunks, v);
#pragma unroll
        for (int r = 0; r < N; ++r) {
            if (r >= n) break;  // the same for the whole warp
            const uint4 b = reinterpret_cast<const uint4*>(x + size_t(r) * size_t(k))[i];
            const __half2* b2 = reinterpret_cast<const __half2*>(&b);
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const float2 fb = __half22float2(b2[j]);
                s[r] += v[2 * j] * fb.x + v[2 * j + 1] * fb.y;
            }
        }
    }
#pragma unroll
    for (int r = 0; r < N; ++r) {
        if (r >= n) break;
        const float t = warp_sum(s[r]);
        if (lane == 0) {
            float* out = y + size_t(r) * size_t(ldy) + row;
            *out = accumulate ? *out + t : t;
        }
    }
}

}  // namespace

void gemv(const uint8_t* w, gguf::TensorType type, int32_t m, int32_t k, const __half* x, int32_t n, float* y,
          int32_t ldy, bool accumulate, cudaStream_t stream) {
    if (m <= 0) return;
    if (n < 1 || n > kMaxGemvRows || ldy < m)
        throw UsageError("gemv: " + std::to_string(n) + " rows of " + std::to_string(ldy) + " outputs for " +
                         std::to_string(m) + " (1 to " + std::to_string(kMaxGemvRows) + " rows)");
    if (k % kChunk != 0 || (reinterpret_cast<uintptr_t>(x) & 15u) != 0)
        throw UsageError("gemv: row length " + std::to_string(k) + " not a multiple of 8 or input not 16-byte aligned");
    const unsigned blocks = unsigned((int64_t(m) + kRowsPerBlock - 1) / kRowsPerBlock);
    const size_t rb = gguf::row_bytes(type, k);
    const bool known = visit_decoder(type, [&](auto dec) {
        using D = decltype(dec);
        if (n == 1)
            gemv_kernel<D, 1><<<blocks, kThreads, 0, stream>>>(w, rb, m, k, x, 1, y, ldy, accumulate);
        else
            gemv_kernel<D, kMaxGemvRows><<<blocks, kThreads, 0, stream>>>(w, rb, m, k, x, n, y, ldy, accumulate);
    });
    if (!known) throw UnsupportedError("cuda: no GEMV for tensor type " + std::string(gguf::type_name(type)));
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
