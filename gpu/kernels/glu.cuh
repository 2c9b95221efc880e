// The gated feed-forward's activation over the fused gate/up projection, written as half (the
// input of the down GEMM): SwiGLU (llama, qwen, smollm3) or GeGLU with the tanh GELU (gemma3).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

enum class GluActivation : uint8_t {
    SiLU,      // silu(g) = g / (1 + exp(-g))
    GeluTanh,  // gelu(g) = 0.5 g (1 + tanh(sqrt(2/pi) (g + 0.044715 g^3)))
};

// gu: [n_rows][2 * n_ff] float, gate in columns [0, n_ff), up in [n_ff, 2 n_ff);
// out: [n_rows][n_ff] half = act(gate) * up.
void glu(const float* gu, int32_t n_rows, int32_t n_ff, GluActivation act, __half* out, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
