#include "gpu/kernels/embed.cuh"

#include "gpu/cuda_check.h"
#include "gpu/kernels/weight_blocks.cuh"
#include "util/error.h"

#include <string>

namespace lmscope::gpu::kernels {

namespace {

// one block per row t, a thread per 8-element chunk
template <class D>
__global__ void embed_kernel(const uint8_t* __restrict__ table, size_t row_bytes, const int32_t* __restrict__ ids,
                             int32_t n_embd, float scale, float* __restrict__ x) {
    constexpr int kChunks = D::kBlock / kChunk;
    const size_t t = blockIdx.x;
    const uint8_t* src = table + size_t(ids[t]) * row_bytes;
    float* dst = x + t * size_t(n_embd);
    for (int32_t i = int32_t(threadIdx.x); i < n_embd / kChunk; i += int32_t(blockDim.x)) {
        float v[kChunk];
        D::decode8(src + size_t(i / kChunks) * D::kBytes, i % kChunks, v);
#pragma unroll
        for (int j = 0; j < kChunk; ++j) dst[kChunk * i + j] = v[j] * scale;
    }
}

}  // namespace

void embed(const uint8_t* table, gguf::TensorType type, const int32_t* ids, int32_t n_rows, int32_t n_embd,
           float scale, float* x, cudaStream_t stream) {
    if (n_rows <= 0) return;
    if (n_embd % kChunk != 0) throw UsageError("embed: n_embd " + std::to_string(n_embd) + " not a multiple of 8");
    const size_t rb = gguf::row_bytes(type, n_embd);
    const bool known = visit_decoder(type, [&](auto dec) {
        embed_kernel<decltype(dec)><<<unsigned(n_rows), 128, 0, stream>>>(table, rb, ids, n_embd, scale, x);
    });
    if (!known) throw UnsupportedError("cuda: no decoder for tensor type " + std::string(gguf::type_name(type)));
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
