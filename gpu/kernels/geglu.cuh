// GeGLU of the fused gate/up projection (gemma3), written as half (the input of the down GEMM).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// gu: [n_rows][2 * n_ff] float, gate in columns [0, n_ff), up in [n_ff, 2 n_ff);
// out: [n_rows][n_ff] half = gelu_tanh(gate) * up,
// gelu_tanh(g) = 0.5 g (1 + tanh(sqrt(2/pi) (g + 0.044715 g^3))).
void geglu(const float* gu, int32_t n_rows, int32_t n_ff, __half* out, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
