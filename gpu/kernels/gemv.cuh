// Matrix-vector products for decode and short steps (up to kMaxGemvRows rows of activations):
// y = x W^T, or y += x W^T, with W as the file stores it (any type of weight_blocks.cuh),
// decoded in registers. These steps are bound by reading the weights once: one warp per output
// row, its lanes on consecutive 8-element chunks (a warp reads whole blocks, contiguous bytes),
// each decoded chunk used for every activation row; this also skips cuBLAS's per-call
// overhead, which dominates at a few rows.
#pragma once

#include "gguf/tensor_type.h"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

constexpr int32_t kMaxGemvRows = 8;

// w: [m][row_bytes(type, k)] (k a multiple of the type's block and of 8; w aligned as
// weight_blocks.cuh says); x: [n][k] half, 16-byte aligned; y: [n][ldy] float, outputs at
// y[i][0 .. m). 1 <= n <= kMaxGemvRows. accumulate: y += x W^T, else y = x W^T.
// Throws UnsupportedError for a type with no decoder, UsageError for a bad n, k or x.
void gemv(const uint8_t* w, gguf::TensorType type, int32_t m, int32_t k, const __half* x, int32_t n, float* y,
          int32_t ldy, bool accumulate, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
