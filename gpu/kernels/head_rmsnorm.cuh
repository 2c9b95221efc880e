// QK-norm: an RMSNorm over each head's vector of q and of k, in place (qwen3, gemma3), before RoPE.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// rows: [n_rows][row_stride] float; the first (n_q + n_k) * head_dim values of each row are
// the query heads then the key heads. Each head vector v becomes v / sqrt(mean(v^2) + eps) * w,
// w = wq [head_dim] for the query heads and wk [head_dim] for the key heads (device floats).
void head_rmsnorm(float* rows, int32_t n_rows, int32_t row_stride, int32_t n_q, int32_t n_k,
                  int32_t head_dim, const float* wq, const float* wk, float eps, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
