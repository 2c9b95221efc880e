// Token embedding gather: x[t] = float(table[ids[t]]).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// table: [n_vocab][n_embd] half; ids: [n_rows] device ints (checked < n_vocab by the caller);
// x: [n_rows][n_embd] float.
void embed(const __half* table, const int32_t* ids, int32_t n_rows, int32_t n_embd, float* x,
           cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
