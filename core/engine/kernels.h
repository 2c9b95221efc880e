// The CPU backend's inner loops (dot products, quantized dot products, axpy, fp16 conversion),
// in several instruction-set variants picked at run time from util/cpu_info.h:
// AVX-512 (F, BW, VL, VNNI), AVX2 + FMA + F16C, and portable C++ (the reference for the others).
#pragma once

#include "engine/pack_formats.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace lmscope::engine::kernels {

constexpr int kQ8Block = 32;

// One block of 32 activation values quantized to 8 bits (the activation side of every
// quantized weight dot product), a scale for each half: value[i] = d[i / 16] * q[i];
// sum[h] = the sum of q[16 h .. 16 h + 15]; s = fma(d[0], sum[0], d[1] * sum[1]) (the block's
// sum, for the weights' minima and offsets); m[i] = |q[i]| (the unsigned operand of AVX2's
// IQ4 kernels in decode, whose codebook values are signed). Two scales of 16 rather than one of
// 32 halve the values an outlier coarsens (Gemma's normed activations hold channels 30x their
// median).
struct BlockQ8 {
    float d[2];
    float s;
    int16_t sum[2];
    int8_t q[kQ8Block];
    uint8_t m[kQ8Block];
};

// A group of 16 packed weight rows (one chunk per elements_per_chunk(format) inputs, layouts in
// pack_formats.h) against n_act (1..kMaxActs) activation rows a + j * a_stride (blocks of 32):
// y[j * y_stride + i] = dot(weight row i, activation row j) for the group's first `rows` rows
// (1..16; the others are padding); nb = inputs / 32. Each chunk is decoded once for all
// activation rows, and a row's result has the same bits for any n_act.
using PackedKernel = void (*)(const void* w, int64_t nb, const BlockQ8* a, int64_t a_stride, int n_act, int rows,
                              float* y, int64_t y_stride);

// A packed group's values expanded once to bytes, for a prefill's chunks of activation rows,
// where decoding them again for every chunk costs more than reading them back (AVX2: each word
// of the codebook types looked up, and each of the types with bits in several planes put
// together, once for all the rows instead of once for every four of them).
// expand writes ex (nb * bytes_per_block bytes, 32-byte aligned) from the group w; kernel is
// PackedKernel's contract with the values read from ex and the scales from w, and gives the bits
// the packed kernel gives. A format without one has bytes_per_block 0 and null functions.
using ExpandedKernel = void (*)(const void* w, const void* ex, int64_t nb, const BlockQ8* a, int64_t a_stride,
                                int n_act, int rows, float* y, int64_t y_stride);
struct Expansion {
    int64_t bytes_per_block = 0;
    void (*expand)(const void* w, int64_t nb, void* ex) = nullptr;
    ExpandedKernel kernel = nullptr;
};

struct Kernels {
    const char* name;
    // sum a[i] * b[i]
    float (*dot_f32)(const float* a, const float* b, int64_t n);
    // sum half(a[i]) * b[i]; a holds IEEE half bits
    float (*dot_f16)(const uint16_t* a, const float* b, int64_t n);
    // sum bf16(a[i]) * b[i]; a holds bfloat16 bits (BF16 weight rows)
    float (*dot_bf16)(const uint16_t* a, const float* b, int64_t n);
    // y[i] += alpha * x[i]
    void (*axpy_f32)(float alpha, const float* x, float* y, int64_t n);
    // y[i] += alpha * half(x[i])
    void (*axpy_f16)(float alpha, const uint16_t* x, float* y, int64_t n);
    // out[q * out_stride + r] = sum_i half(a[r * stride + i]) * b[q * n + i], r < rows, q < nq
    // (attention scores: cached keys against the nq query heads of their group, each row read
    // once for them all). A row's sums have the same bits for any nq and out_stride; the rows go
    // in fours, and the last rows % 4 each as dot_f16 does it (whose bits may differ).
    void (*dot_f16_rows)(const uint16_t* a, size_t stride, const float* b, int nq, int64_t n, int64_t rows,
                         float* out, size_t out_stride);
    // y[q * y_stride + i] += sum_r w[q * w_stride + r] * half(x[r * stride + i]), i < n, q < nq
    // (attention output: cached values weighted for each query head of their group, each row read
    // once for them all), rows added in order; the bits of y do not depend on nq or the strides.
    void (*axpy_f16_rows)(const float* w, size_t w_stride, int nq, const uint16_t* x, size_t stride, int64_t rows,
                          float* y, size_t y_stride, int64_t n);
    void (*f16_to_f32)(const uint16_t* src, float* dst, int64_t n);
    // y[q * y_stride + i] += sum_r w[q * w_stride + r] * x[r * x_stride + i], i < n, q < nq:
    // axpy_f16_rows on float rows (a prefill tile's values, converted once for its query rows:
    // up to 6 vectors share each row's loads), with the bits axpy_f16_rows gives for the same
    // values.
    void (*axpy_f32_rows)(const float* w, size_t w_stride, int nq, const float* x, size_t x_stride, int64_t rows,
                          float* y, size_t y_stride, int64_t n);
    // dst[i * dst_stride + r] = half(src[r * src_stride + i]), r < rows, i < n (a tile of
    // cached keys converted with its rows turned into columns, for dot_cols_f32)
    void (*f16_to_f32_t)(const uint16_t* src, size_t src_stride, int64_t rows, int64_t n, float* dst, size_t dst_stride);
    // out[q * out_stride + c] = sum_i a[q * n + i] * bt[i * bt_stride + c], c < cols, q < na,
    // n a multiple of 8 (attention scores of a prefill tile: query vectors against keys stored as
    // columns). Each sum has the bits dot_f16_rows gives for the same key among its fours.
    void (*dot_cols_f32)(const float* a, int na, int64_t n, const float* bt, size_t bt_stride, int64_t cols, float* out,
                         size_t out_stride);
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
    std::array<PackedKernel, kNumPackFormats> packed;  // [PackFormat] (packed_by_format)
    std::array<Expansion, kNumPackFormats> expanded;   // [PackFormat]; empty where none pays
};

// The packed kernels of a variant, each at its format's index: Q4_0, Q4_1 and Q8_0 (layouts of
// their own), then x.template operator()<F>() for every x format F (kFirstXFormat on).
template <class XKernel>
constexpr std::array<PackedKernel, kNumPackFormats> packed_by_format(PackedKernel q4_0, PackedKernel q4_1,
                                                                     PackedKernel q8_0, XKernel x) {
    std::array<PackedKernel, kNumPackFormats> t{};
    t[size_t(PackFormat::Q4_0)] = q4_0;
    t[size_t(PackFormat::Q4_1)] = q4_1;
    t[size_t(PackFormat::Q8_0)] = q8_0;
    [&]<int... I>(std::integer_sequence<int, I...>) {
        ((t[size_t(kFirstXFormat + I)] = x.template operator()<PackFormat(kFirstXFormat + I)>()), ...);
    }(std::make_integer_sequence<int, kNumPackFormats - kFirstXFormat>{});
    return t;
}

constexpr int kMaxActs = 8;  // n_act limit of the packed_* kernels

// Weights repacked 16 rows at a time (x16 layouts; repack.h packs them at load). Block b of rows
// 16g .. 16g+15 becomes one chunk: the 16 rows' f16 scales (Q4_1: then their f16 minima), then
// their quants in 4-byte words interleaved row by row, so that one 512-bit register holds the
// same 4 bytes of each of the 16 rows (one VNNI instruction: 16 rows x 4 products):
//   Q4_0x16 (288 bytes): f16 d[16];            u8 qs[4][16][4]   (word k of row r: qs[k][r])
//   Q4_1x16 (320 bytes): f16 d[16]; f16 m[16]; u8 qs[4][16][4]
//   Q8_0x16 (544 bytes): f16 d[16];            i8 qs[8][16][4]
// The words are the GGUF block's bytes in order: Q4 byte j holds element j in its low nibble and
// element j + 16 in its high one, so word k of a Q4 row holds elements 4k..4k+3 and 16+4k..16+4k+3.
constexpr int kPackRows = 16;
constexpr int kChunkQ4_0 = 288, kChunkQ4_1 = 320, kChunkQ8_0 = 544;

const Kernels& portable();
// Every variant this CPU can run, fastest first (the portable one last).
std::vector<const Kernels*> available();
// The fastest variant this CPU can run (detected once).
const Kernels& best();

}  // namespace lmscope::engine::kernels
