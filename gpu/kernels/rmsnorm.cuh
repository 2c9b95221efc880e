// RMS norm of rows, written as half (the input of the next GEMM).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// out[t][i] = half(x[t][i] / sqrt(mean_i(x[t]^2) + eps) * w[i])
//   x: [n_rows][n] float; w: [n] float; out: [n_rows][n] half
void rmsnorm(const float* x, const float* w, float eps, int32_t n_rows, int32_t n, __half* out,
             cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
