// A post-norm residual add (gemma3's post_attention_norm and post_ffw_norm): the block's output
// is RMS-normed before it joins the residual stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// x[t][i] += y[t][i] / sqrt(mean_i(y[t]^2) + eps) * w[i]
//   x, y: [n_rows][n] float; w: [n] float
void rmsnorm_add(float* x, const float* y, const float* w, float eps, int32_t n_rows, int32_t n,
                 cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
