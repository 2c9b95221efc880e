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
    void (*f16_to_f32)(const uint16_t* src, float* dst, int64_t n);
    void (*f32_to_f16)(const float* src, uint16_t* dst, int64_t n);  // round to nearest even
    // x[0..n) -> n / 32 blocks (n a multiple of 32)
    void (*quantize_q8)(const float* x, BlockQ8* out, int64_t n);
    // Dot of one weight row of nb GGUF blocks (Q4_0 / Q4_1 / Q8_0 layout) with nb activation blocks.
    float (*dot_q4_0)(const void* w, const BlockQ8* a, int64_t nb);
    float (*dot_q4_1)(const void* w, const BlockQ8* a, int64_t nb);
    float (*dot_q8_0)(const void* w, const BlockQ8* a, int64_t nb);
    // One weight row against n_rows (1..4) activation rows a + r * a_stride (blocks), at once:
    // out[r] = dot(w, row r). The weight blocks are decoded once for all rows (prefill).
    void (*rows_q4_0)(const void* w, const BlockQ8* a, int64_t a_stride, int n_rows, int64_t nb, float* out);
    void (*rows_q4_1)(const void* w, const BlockQ8* a, int64_t a_stride, int n_rows, int64_t nb, float* out);
    void (*rows_q8_0)(const void* w, const BlockQ8* a, int64_t a_stride, int n_rows, int64_t nb, float* out);

    // 4 weight rows (w + i * w_stride bytes) against 4 activation rows (a + j * a_stride
    // blocks): out[i * 4 + j]. Prefill's inner kernel: every load serves 4 products.
    void (*tile_q4_0)(const void* w, size_t w_stride, const BlockQ8* a, int64_t a_stride, int64_t nb, float* out);
    void (*tile_q4_1)(const void* w, size_t w_stride, const BlockQ8* a, int64_t a_stride, int64_t nb, float* out);
    void (*tile_q8_0)(const void* w, size_t w_stride, const BlockQ8* a, int64_t a_stride, int64_t nb, float* out);
    // 4 weight rows against one activation row: out[i] (decode's inner kernel).
    void (*col_q4_0)(const void* w, size_t w_stride, const BlockQ8* a, int64_t nb, float* out);
    void (*col_q4_1)(const void* w, size_t w_stride, const BlockQ8* a, int64_t nb, float* out);
    void (*col_q8_0)(const void* w, size_t w_stride, const BlockQ8* a, int64_t nb, float* out);
};

constexpr int kMaxTileRows = 4;  // n_rows limit of the rows_* kernels; tile_* size

const Kernels& portable();
// Every variant this CPU can run, fastest first (the portable one last).
std::vector<const Kernels*> available();
// The fastest variant this CPU can run (detected once).
const Kernels& best();

}  // namespace lmscope::engine::kernels
