// Portable C++ kernels: the reference the vectorised variants are tested against.
#include "engine/kernels.h"
#include "engine/kernels_variants.h"

#include "engine/ops.h"
#include "gguf/quant_blocks.h"
#include "gguf/quant.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace lmscope::engine::kernels {

namespace {

float half(uint16_t h) { return gguf::fp16_to_fp32(h); }

float dot_f32(const float* a, const float* b, int64_t n) {
    float s = 0.0f;
    for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

float dot_bf16(const uint16_t* a, const float* b, int64_t n) {
    float s = 0.0f;
    for (int64_t i = 0; i < n; ++i) s += gguf::bf16_to_fp32(a[i]) * b[i];
    return s;
}

float dot_f16(const uint16_t* a, const float* b, int64_t n) {
    float s = 0.0f;
    for (int64_t i = 0; i < n; ++i) s += half(a[i]) * b[i];
    return s;
}

void axpy_f32(float alpha, const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] += alpha * x[i];
}

void axpy_f16(float alpha, const uint16_t* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] += alpha * half(x[i]);
}

void dot_f16_rows(const uint16_t* a, size_t stride, const float* b, int nq, int64_t n, int64_t rows, float* out,
                  size_t out_stride) {
    for (int q = 0; q < nq; ++q)
        for (int64_t r = 0; r < rows; ++r) out[size_t(q) * out_stride + size_t(r)] = dot_f16(a + size_t(r) * stride, b + q * n, n);
}

void axpy_f16_rows(const float* w, size_t w_stride, int nq, const uint16_t* x, size_t stride, int64_t rows, float* y,
                   size_t y_stride, int64_t n) {
    for (int q = 0; q < nq; ++q)
        for (int64_t r = 0; r < rows; ++r)
            axpy_f16(w[size_t(q) * w_stride + size_t(r)], x + size_t(r) * stride, y + size_t(q) * y_stride, n);
}

void f16_to_f32(const uint16_t* src, float* dst, int64_t n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = half(src[i]);
}

void axpy_f32_rows(const float* w, size_t w_stride, int nq, const float* x, size_t x_stride, int64_t rows, float* y,
                   size_t y_stride, int64_t n) {
    for (int q = 0; q < nq; ++q)
        for (int64_t r = 0; r < rows; ++r) axpy_f32(w[size_t(q) * w_stride + size_t(r)], x + size_t(r) * x_stride, y + size_t(q) * y_stride, n);
}

void f16_to_f32_t(const uint16_t* src, size_t src_stride, int64_t rows, int64_t n, float* dst, size_t dst_stride) {
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t i = 0; i < n; ++i) dst[size_t(i) * dst_stride + size_t(r)] = half(src[size_t(r) * src_stride + size_t(i)]);
}

// In dot_f16's order: one running sum over the dimensions.
void dot_cols_f32(const float* a, int na, int64_t n, const float* bt, size_t bt_stride, int64_t cols, float* out,
                  size_t out_stride) {
    for (int q = 0; q < na; ++q)
        for (int64_t c = 0; c < cols; ++c) {
            float s = 0.0f;
            for (int64_t i = 0; i < n; ++i) s += bt[size_t(i) * bt_stride + size_t(c)] * a[q * n + i];
            out[size_t(q) * out_stride + size_t(c)] = s;
        }
}

void f32_to_f16(const float* src, uint16_t* dst, int64_t n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = gguf::fp32_to_fp16(src[i]);
}

void swiglu(float* g, const float* u, int64_t n) {
    for (int64_t i = 0; i < n; ++i) g[i] = g[i] / (1.0f + std::exp(-g[i])) * u[i];
}

float softmax(float* x, int64_t n) { return ops::softmax_entropy(x, n); }

void quantize_q8(const float* x, BlockQ8* out, int64_t n) {
    for (int64_t b = 0; b < n / kQ8Block; ++b) {
        const float* xb = x + b * kQ8Block;
        int sum[2] = {0, 0};
        for (int h = 0; h < 2; ++h) {
            float amax = 0.0f;
            for (int i = 16 * h; i < 16 * h + 16; ++i) amax = std::max(amax, std::fabs(xb[i]));
            const float d = amax / 127.0f;
            const float id = d != 0.0f ? 1.0f / d : 0.0f;
            for (int i = 16 * h; i < 16 * h + 16; ++i) {
                const int q = int(std::nearbyint(xb[i] * id));
                out[b].q[i] = int8_t(q);
                out[b].m[i] = uint8_t(std::abs(q));
                sum[h] += q;
            }
            out[b].d[h] = d;
            out[b].sum[h] = int16_t(sum[h]);
        }
        out[b].s = std::fma(out[b].d[0], float(sum[0]), out[b].d[1] * float(sum[1]));
    }
}

// GGUF block layouts: Q4_0 {f16 d; u8 qs[16]}, Q4_1 {f16 d; f16 m; u8 qs[16]},
// Q8_0 {f16 d; i8 qs[32]}; nibble j of qs holds element j (low) and element j + 16 (high).
uint16_t load_u16(const uint8_t* p) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

float dot_q4_0(const void* w, const BlockQ8* a, int64_t nb) {
    const uint8_t* p = static_cast<const uint8_t*>(w);
    float s = 0.0f;
    for (int64_t b = 0; b < nb; ++b, p += 18) {
        const float d = half(load_u16(p));
        const uint8_t* qs = p + 2;
        int isum[2] = {0, 0};  // [half]
        for (int j = 0; j < 16; ++j) {
            isum[0] += (qs[j] & 0x0F) * a[b].q[j];
            isum[1] += (qs[j] >> 4) * a[b].q[j + 16];
        }
        s += d * (a[b].d[0] * float(isum[0])) + d * (a[b].d[1] * float(isum[1])) - 8.0f * d * a[b].s;
    }
    return s;
}

float dot_q4_1(const void* w, const BlockQ8* a, int64_t nb) {
    const uint8_t* p = static_cast<const uint8_t*>(w);
    float s = 0.0f;
    for (int64_t b = 0; b < nb; ++b, p += 20) {
        const float d = half(load_u16(p));
        const float m = half(load_u16(p + 2));
        const uint8_t* qs = p + 4;
        int isum[2] = {0, 0};  // [half]
        for (int j = 0; j < 16; ++j) {
            isum[0] += (qs[j] & 0x0F) * a[b].q[j];
            isum[1] += (qs[j] >> 4) * a[b].q[j + 16];
        }
        s += d * (a[b].d[0] * float(isum[0])) + d * (a[b].d[1] * float(isum[1])) + m * a[b].s;
    }
    return s;
}

float dot_q8_0(const void* w, const BlockQ8* a, int64_t nb) {
    const uint8_t* p = static_cast<const uint8_t*>(w);
    float s = 0.0f;
    for (int64_t b = 0; b < nb; ++b, p += 34) {
        const float d = half(load_u16(p));
        const int8_t* qs = reinterpret_cast<const int8_t*>(p + 2);
        int isum[2] = {0, 0};
        for (int j = 0; j < 32; ++j) isum[j / 16] += qs[j] * a[b].q[j];
        s += d * (a[b].d[0] * float(isum[0])) + d * (a[b].d[1] * float(isum[1]));
    }
    return s;
}

// One x16 chunk group (kernels.h) against n_act activation rows. Q4 types store unsigned
// nibbles: value = d * q + m (Q4_0: m = -8 d); Q8_0 stores signed bytes: value = d * q.
template <int Chunk, bool Nibbles, bool HasMin>
void packed(const void* w, int64_t nb, const BlockQ8* a, int64_t a_stride, int n_act, int rows, float* y,
            int64_t y_stride) {
    const uint8_t* base = static_cast<const uint8_t*>(w);
    constexpr int kQs = HasMin ? 64 : 32;  // offset of the quants in a chunk
    constexpr int kWord = 4 * kPackRows;   // bytes of one word of every row
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < n_act; ++j) {
            float s = 0.0f;
            for (int64_t b = 0; b < nb; ++b) {
                const uint8_t* c = base + b * Chunk;
                const BlockQ8& ab = a[j * a_stride + b];
                const float d = half(load_u16(c + 2 * i));
                int isum[2] = {0, 0};  // [half]
                for (int k = 0; k < (Nibbles ? 4 : 8); ++k)
                    for (int e = 0; e < 4; ++e) {
                        const uint8_t q = c[kQs + k * kWord + 4 * i + e];
                        if (Nibbles) {
                            isum[0] += (q & 0x0F) * ab.q[4 * k + e];
                            isum[1] += (q >> 4) * ab.q[16 + 4 * k + e];
                        } else {
                            isum[k / 4] += int8_t(q) * ab.q[4 * k + e];
                        }
                    }
                const float m = HasMin ? half(load_u16(c + 32 + 2 * i)) : Nibbles ? -8.0f * d : 0.0f;
                s += d * (ab.d[0] * float(isum[0])) + d * (ab.d[1] * float(isum[1])) + m * ab.s;
            }
            y[j * y_stride + i] = s;
        }
}


// The x formats (pack_formats.h), element by element: per row, sub-block and half h,
// s += sc * (sum q * a - offset * sum a) * (D * a.d[h]), and the minima as the vector kernels
// add them.
template <PackFormat F>
void xpacked(const void* w, int64_t nb, const BlockQ8* a, int64_t a_stride, int n_act, int rows, float* y,
             int64_t y_stride) {
    constexpr XLayout L = x_layout(F);
    const uint8_t* base = static_cast<const uint8_t*>(w);
    auto q_of = [&](const uint8_t* planes, int i, int e) {  // element e (0..31) of row i
        const uint8_t* row = planes + 4 * i;
        int q = 0, plane = 0;
        if (L.nibble) q = (row[64 * (e % 16 / 4) + e % 4] >> (4 * (e / 16))) & 15, plane = 4;
        if (L.two) q |= ((row[64 * (plane + e / 16) + e % 4] >> (2 * (e % 16 / 4))) & 3) << L.two_shift, plane += 2;
        if (L.one) q |= ((row[64 * plane + e % 4] >> (e / 4)) & 1) << L.one_shift;
        return L.codebook ? int(gguf::detail::kIQ4Values[q]) : q - L.offset;
    };
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < n_act; ++j) {
            float s = 0.0f;
            for (int64_t cb = 0; cb < nb / L.n_sub(); ++cb) {
                const uint8_t* c = base + cb * L.chunk_bytes();
                const float D = half(load_u16(c + 2 * i));
                const float M = L.min != XMin::None ? half(load_u16(c + 32 + 2 * i)) : 0.0f;
                const uint8_t* sub = c + L.head_bytes();
                for (int sb = 0; sb < L.n_sub(); ++sb, sub += L.sub_bytes()) {
                    const BlockQ8& ab = a[j * a_stride + cb * L.n_sub() + sb];
                    const int8_t* sc = reinterpret_cast<const int8_t*>(sub);
                    const int8_t* mn = sc + L.sc_bytes();
                    const uint8_t* planes = sub + L.sc_bytes() + L.mn_bytes();
                    for (int h = 0; h < 2; ++h) {
                        int dot = 0;
                        for (int e = 16 * h; e < 16 * h + 16; ++e) dot += q_of(planes, i, e) * ab.q[e];
                        const int I = (L.scale == XScale::Per16 ? sc[16 * h + i] : L.scale == XScale::Per32 ? sc[i] : 1) * dot;
                        s += float(I) * (D * ab.d[h]);
                    }
                    if (L.min == XMin::Block) s += M * ab.s;
                    if (L.min == XMin::Per32) s -= M * float(mn[i]) * ab.s;
                    if (L.min == XMin::Per16)
                        for (int h = 0; h < 2; ++h) s -= M * float(mn[16 * h + i]) * (ab.d[h] * float(ab.sum[h]));
                }
            }
            y[j * y_stride + i] = s;
        }
}

}  // namespace

const Kernels& portable() {
    static const Kernels k{.name = "portable", .dot_f32 = dot_f32, .dot_f16 = dot_f16, .dot_bf16 = dot_bf16, .axpy_f32 = axpy_f32,
                           .axpy_f16 = axpy_f16, .dot_f16_rows = dot_f16_rows, .axpy_f16_rows = axpy_f16_rows,
                           .f16_to_f32 = f16_to_f32, .axpy_f32_rows = axpy_f32_rows, .f16_to_f32_t = f16_to_f32_t,
                           .dot_cols_f32 = dot_cols_f32, .f32_to_f16 = f32_to_f16, .swiglu = swiglu, .softmax = softmax,
                           .quantize_q8 = quantize_q8, .dot_q4_0 = dot_q4_0, .dot_q4_1 = dot_q4_1, .dot_q8_0 = dot_q8_0,
                           .packed = packed_by_format(packed<kChunkQ4_0, true, false>, packed<kChunkQ4_1, true, true>,
                                                      packed<kChunkQ8_0, false, false>,
                                                      []<PackFormat F>() -> PackedKernel { return xpacked<F>; })};
    return k;
}

std::vector<const Kernels*> available() {
    std::vector<const Kernels*> v;
    if (const Kernels* k = avx512_kernels()) v.push_back(k);
    if (const Kernels* k = avx2_kernels()) v.push_back(k);
    v.push_back(&portable());
    return v;
}

const Kernels& best() {
    static const Kernels* k = available().front();
    return *k;
}

}  // namespace lmscope::engine::kernels
