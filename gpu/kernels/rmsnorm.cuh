// RMS norm of rows: written as half (the input of the next GEMM), as float (a post-norm kept
// for its hook), or added to the residual stream (a post-norm: gemma3's post_attention_norm
// and post_ffw_norm).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// out[t][i] = half(x[t][i] / sqrt(mean_i(x[t]^2) + eps) * w[i])
//   x: [n_rows][n] float; w: [n] float; out: [n_rows][n] half
void rmsnorm(const float* x, const float* w, float eps, int32_t n_rows, int32_t n, __half* out,
             cudaStream_t stream);

// out[t][i] = x[t][i] / sqrt(mean_i(x[t]^2) + eps) * w[i]
//   x, out: [n_rows][n] float (out may be x); w: [n] float
void rmsnorm_f32(const float* x, const float* w, float eps, int32_t n_rows, int32_t n, float* out,
                 cudaStream_t stream);

// x[t][i] += y[t][i] / sqrt(mean_i(y[t]^2) + eps) * w[i]
//   x, y: [n_rows][n] float; w: [n] float
void rmsnorm_add(float* x, const float* y, const float* w, float eps, int32_t n_rows, int32_t n,
                 cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
