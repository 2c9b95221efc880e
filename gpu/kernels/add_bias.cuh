// Bias add over rows: y[t][c] += b[c].
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// y: [n_rows][n_cols] float; b: [n_cols] float.
void add_bias(float* y, const float* b, int32_t n_rows, int32_t n_cols, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
