// Token embedding gather: x[t] = float(table[ids[t]]) * scale.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// table: [n_vocab][n_embd] half; ids: [n_rows] device ints (checked < n_vocab by the caller);
// x: [n_rows][n_embd] float.
// scale: 1, or sqrt(n_embd) for the recipes that scale embeddings (gemma3).
void embed(const __half* table, const int32_t* ids, int32_t n_rows, int32_t n_embd, float scale,
           float* x, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
