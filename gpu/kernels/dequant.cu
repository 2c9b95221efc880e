#include "gpu/kernels/dequant.cuh"

#include "gpu/cuda_check.h"
#include "gpu/kernels/weight_blocks.cuh"
#include "util/error.h"

#include <algorithm>
#include <string>

namespace lmscope::gpu::kernels {

namespace {

constexpr int kThreads = 256;

// One thread per 8-element chunk (grid-stride): 16-byte stores of 8 halves.
template <class D>
__global__ void dequant_kernel(const uint8_t* __restrict__ w, size_t row_bytes, int32_t k, int64_t n_chunks,
                               __half* __restrict__ out) {
    constexpr int kChunks = D::kBlock / kChunk;
    const int32_t row_chunks = k / kChunk;
    for (int64_t t = int64_t(blockIdx.x) * kThreads + threadIdx.x; t < n_chunks; t += int64_t(gridDim.x) * kThreads) {
        const int64_t r = t / row_chunks;
        const int32_t i = int32_t(t - r * row_chunks);
        float v[kChunk];
        D::decode8(w + size_t(r) * row_bytes + size_t(i / kChunks) * D::kBytes, i % kChunks, v);
        uint4 h;
        __half2* h2 = reinterpret_cast<__half2*>(&h);
#pragma unroll
        for (int j = 0; j < 4; ++j) h2[j] = __floats2half2_rn(v[2 * j], v[2 * j + 1]);
        reinterpret_cast<uint4*>(out)[t] = h;
    }
}

}  // namespace

bool has_decoder(gguf::TensorType type) {
    return visit_decoder(type, [](auto) {});
}

void dequant_rows(const uint8_t* w, gguf::TensorType type, int32_t rows, int32_t k, __half* out,
                  cudaStream_t stream) {
    if (rows <= 0) return;
    if (k % kChunk != 0) throw UsageError("dequant_rows: row length " + std::to_string(k) + " not a multiple of 8");
    const int64_t n_chunks = int64_t(rows) * (k / kChunk);
    const unsigned grid = unsigned(std::min<int64_t>((n_chunks + kThreads - 1) / kThreads, 65536));
    const size_t rb = gguf::row_bytes(type, k);
    const bool known = visit_decoder(type, [&](auto dec) {
        dequant_kernel<decltype(dec)><<<grid, kThreads, 0, stream>>>(w, rb, k, n_chunks, out);
    });
    if (!known) throw UnsupportedError("cuda: no decoder for tensor type " + std::string(gguf::type_name(type)));
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
