// Matrix-vector product for decode (one row of activations): y = W x, or y += W x, with W as
// the file stores it (any type of weight_blocks.cuh), decoded in registers. Decode is bound by
// reading the weights once: one warp per output row, its lanes on consecutive 8-element chunks
// (a warp reads whole blocks, contiguous bytes); this also skips cuBLAS's per-call overhead,
// which dominates at one row.
#pragma once

#include "gguf/tensor_type.h"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// w: [m][row_bytes(type, k)] (k a multiple of the type's block and of 8; w aligned as
// weight_blocks.cuh says); x: [k] half, 16-byte aligned; y: [m] float.
// accumulate: y += W x, else y = W x. Throws UnsupportedError for a type with no decoder.
void gemv(const uint8_t* w, gguf::TensorType type, int32_t m, int32_t k, const __half* x, float* y,
          bool accumulate, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
