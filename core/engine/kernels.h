// The CPU backend's inner loops (dot products, quantized dot products, axpy, fp16 conversion),
// in several instruction-set variants picked at run time from util/cpu_info.h:
// AVX-512 (F, BW, VL, VNNI), AVX2 + FMA + F16C, and portable C++ (the reference for the others).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lmscope::engine::kernels {

constexpr int kQ8Block = 32;

// One block of 32 activation values quantized to 8 bits (the activation side of the
// Q4_0 / Q4_1 / Q8_0 weight dot products): value[i] = d * q[i]; s = d * sum(q).
struct BlockQ8 {
    float d;
    float s;
    int8_t q[kQ8Block];
};

struct Kernels {
    const char* name;
    // sum a[i] * b[i]
    float (*dot_f32)(const float* a, const float* b, int64_t n);
    // sum half(a[i]) * b[i]; a holds IEEE half bits
    float (*dot_f16)(const uint16_t* a, const float* b, int64_t n);
    // y[i] += alpha * x[i]
    void (*axpy_f32)(float alpha, const float* x, float* y, int64_t n);
    // y[i] += alpha * half(x[i])
    void (*axpy_f16)(float alpha, const uint16_t* x, float* y, int64_t n);
    // out[q * out_stride + r] = sum_i half(a[r * stride + i]) * b[q * n + i], r < rows, q < nq
    // (attention scores: cached keys against the nq query heads of their group, each row read
    // once for them all). A row's sums have the same bits for any nq and out_stride.
    void (*dot_f16_rows)(const uint16_t* a, size_t stride, const float* b, int nq, int64_t n, int64_t rows,
                         float* out, size_t out_stride);
    // y[q * y_stride + i] += sum_r w[q * w_stride + r] * half(x[r * stride + i]), i < n, q < nq
    // (attention output: cached values weighted for each query head of their group, each row read
    // once for them all), rows added in order; the bits of y do not depend on nq or the strides.
    void (*axpy_f16_rows)(const float* w, size_t w_stride, int nq, const uint16_t* x, size_t stride, int64_t rows,
                          float* y, size_t y_stride, int64_t n);
    void (*f16_to_f32)(const uint16_t* src, float* dst, int64_t n);
    void (*f32_to_f16)(const float* src, uint16_t* dst, int64_t n);  // round to nearest even
    // g[i] = silu(g[i]) * u[i] = g[i] / (1 + exp(-g[i])) * u[i]  (SwiGLU)
    void (*swiglu)(float* g, const float* u, int64_t n);
    // x[i] = exp(x[i] - max) / sum in place (n >= 1); returns the entropy (nats) of the result
    // (attention weights and their summary)
    float (*softmax)(float* x, int64_t n);
    // x[0..n) -> n / 32 blocks (n a multiple of 32)
    void (*quantize_q8)(const float* x, BlockQ8* out, int64_t n);
    // Dot of one weight row of nb GGUF blocks (Q4_0 / Q4_1 / Q8_0 layout) with nb activation blocks.
    float (*dot_q4_0)(const void* w, const BlockQ8* a, int64_t nb);
    float (*dot_q4_1)(const void* w, const BlockQ8* a, int64_t nb);
    float (*dot_q8_0)(const void* w, const BlockQ8* a, int64_t nb);
    // A group of 4 packed weight rows (nb x4 chunks, layout below) against n_act (1..kMaxActs)
    // activation rows a + j * a_stride (blocks): out[i * n_act + j] = dot(weight row i, row j).
    // Each weight chunk is decoded once for all activation rows.
    void (*packed_q4_0)(const void* w, int64_t nb, const BlockQ8* a, int64_t a_stride, int n_act, float* out);
    void (*packed_q4_1)(const void* w, int64_t nb, const BlockQ8* a, int64_t a_stride, int n_act, float* out);
    void (*packed_q8_0)(const void* w, int64_t nb, const BlockQ8* a, int64_t a_stride, int n_act, float* out);
};

constexpr int kMaxActs = 8;  // n_act limit of the packed_* kernels

// Weights repacked 4 rows at a time (x4 layouts; matmul.h packs them at load). Block b of rows
// 4g .. 4g+3 becomes one chunk: the 4 rows' f16 scales, then their quants as in the GGUF block
// (Q4: element j in the low nibble of byte j, element j + 16 in its high nibble).
//   Q4_0x4 (72 bytes):  f16 d[4];           u8 qs[4][16]
//   Q4_1x4 (80 bytes):  f16 d[4]; f16 m[4]; u8 qs[4][16]
//   Q8_0x4 (136 bytes): f16 d[4];           i8 qs[4][32]
constexpr int kPackRows = 4;
constexpr int kChunkQ4_0 = 72, kChunkQ4_1 = 80, kChunkQ8_0 = 136;

const Kernels& portable();
// Every variant this CPU can run, fastest first (the portable one last).
std::vector<const Kernels*> available();
// The fastest variant this CPU can run (detected once).
const Kernels& best();

}  // namespace lmscope::engine::kernels
