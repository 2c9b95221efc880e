// Token embedding gather: x[t] = float(row ids[t] of the table) * scale, rows decoded from the
// table's own type (weight_blocks.cuh).
#pragma once

#include "gguf/tensor_type.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// table: [n_vocab][row_bytes(type, n_embd)] (n_embd a multiple of 8 and of the type's block);
// ids: [n_rows] device ints (checked < n_vocab by the caller); x: [n_rows][n_embd] float.
// scale: 1, or sqrt(n_embd) for the recipes that scale embeddings (gemma3).
// Throws UnsupportedError for a type with no decoder.
void embed(const uint8_t* table, gguf::TensorType type, const int32_t* ids, int32_t n_rows, int32_t n_embd,
           float scale, float* x, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
