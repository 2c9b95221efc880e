// Element-wise and row operations of the transformer block (CPU, float32).
#pragma once

#include <cstdint>
#include <span>

namespace lmscope::engine::ops {

// out[i] = x[i] / sqrt(mean(x^2) + eps) * w[i], i < n (out may alias x)
void rms_norm(const float* x, const float* w, float eps, float* out, int64_t n);

// The rotations of one position: cs[2i] = cos(pos * inv_freq[i]), cs[2i + 1] = sin(...) for
// the n_rot / 2 pairs (computed once per position, shared by every head and layer).
void rope_angles(const float* inv_freq, int32_t n_rot, float pos, float* cs);

// Rotary position embedding of one head vector in place. The first n_rot values are rotated
// by the angle of pair i given by cs (rope_angles) (n_rot / 2 pairs):
//   neox = false: pairs (2i, 2i+1) (llama "normal");  neox = true: pairs (i, i + n_rot/2).
void rope(float* v, int32_t n_rot, const float* cs, bool neox);

// x[i] = exp(x[i] - max) / sum, in place; n >= 1.
void softmax(float* x, int64_t n);
// softmax() that also returns the entropy (nats) of the result, from one log:
// H = log(sum) - sum_i e_i (x_i - max) / sum, with e_i = exp(x_i - max).
float softmax_entropy(float* x, int64_t n);

// g[i] = gelu_tanh(g[i]) * u[i] (GeGLU), gelu_tanh(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
void geglu_tanh(float* g, const float* u, int64_t n);

// y[i] += x[i]
void add(float* y, const float* x, int64_t n);

}  // namespace lmscope::engine::ops
