// Internal to core/gguf: the byte layouts of the quantized GGUF block types, and the kernels
// that decode/encode them. Every field is a byte array, so a block may sit at any address
// (tensor data is only as aligned as the file's general.alignment). Multi-byte fields are
// little-endian, as the format stores them.
#pragma once

#include <cstdint>

namespace lmscope::gguf::detail {

constexpr int kQK = 32;    // elements per block of the simple types
constexpr int kQK_K = 256; // elements per super-block of the K types

// IEEE half stored little-endian.
constexpr uint16_t load_u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
inline uint32_t load_u32(const uint8_t* p) {
    return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}
inline void store_u16(uint8_t* p, uint16_t v) {
    p[0] = static_cast<uint8_t>(v);
    p[1] = static_cast<uint8_t>(v >> 8);
}
inline void store_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// x[j] = d * (q[j] - 8); byte k holds element k (low nibble) and element k+16 (high nibble).
struct BlockQ4_0 {
    uint8_t d[2];        // f16 scale
    uint8_t qs[kQK / 2]; // [16] nibbles
};
// x[j] = d * q[j] + m; nibble order as Q4_0.
struct BlockQ4_1 {
    uint8_t d[2];        // f16 scale
    uint8_t m[2];        // f16 minimum
    uint8_t qs[kQK / 2]; // [16] nibbles
};
// x[j] = d * (q[j] - 16); q = nibble | (bit j of qh) << 4.
struct BlockQ5_0 {
    uint8_t d[2];        // f16 scale
    uint8_t qh[4];       // u32 LE: bit j = 5th bit of element j
    uint8_t qs[kQK / 2]; // [16] low nibbles, order as Q4_0
};
// x[j] = d * q[j] + m; bits as Q5_0.
struct BlockQ5_1 {
    uint8_t d[2];        // f16 scale
    uint8_t m[2];        // f16 minimum
    uint8_t qh[4];       // u32 LE: bit j = 5th bit of element j
    uint8_t qs[kQK / 2]; // [16] low nibbles
};
// x[j] = d * qs[j].
struct BlockQ8_0 {
    uint8_t d[2];   // f16 scale
    int8_t qs[kQK]; // [32] quants
};

// 16 groups of 16: x = d * (scales[g] & 15) * q - dmin * (scales[g] >> 4), q 2 bits.
struct BlockQ2_K {
    uint8_t scales[kQK_K / 16]; // [16] 4-bit scale (low) and 4-bit min (high) per group
    uint8_t qs[kQK_K / 4];      // [64] 2-bit quants: two halves of 32 bytes x 4 shifts
    uint8_t d[2];               // f16 super-block scale of the scales
    uint8_t dmin[2];            // f16 super-block scale of the mins
};
// 16 groups of 16: x = d * (scale6[g] - 32) * (q - (high bit clear ? 4 : 0)), q 2 bits.
struct BlockQ3_K {
    uint8_t hmask[kQK_K / 8]; // [32] bit b of byte l = high bit of element 32*b + l
    uint8_t qs[kQK_K / 4];    // [64] low 2 bits, as Q2_K
    uint8_t scales[12];       // 16 packed 6-bit scales
    uint8_t d[2];             // f16 super-block scale
};
// 8 groups of 32: x = d * sc[g] * q - dmin * mn[g], q 4 bits; sc/mn 6-bit, packed in 12 bytes.
struct BlockQ4_K {
    uint8_t d[2];           // f16 super-block scale of the scales
    uint8_t dmin[2];        // f16 super-block scale of the mins
    uint8_t scales[12];     // 8 scales + 8 mins, 6 bits each
    uint8_t qs[kQK_K / 2];  // [128] 4 chunks of 32 bytes: low nibbles group 2c, high 2c+1
};
// As Q4_K with a 5th bit per element.
struct BlockQ5_K {
    uint8_t d[2];           // f16 super-block scale of the scales
    uint8_t dmin[2];        // f16 super-block scale of the mins
    uint8_t scales[12];     // 8 scales + 8 mins, 6 bits each
    uint8_t qh[kQK_K / 8];  // [32] bit g of byte l = 5th bit of element 32*g + l
    uint8_t qs[kQK_K / 2];  // [128] low nibbles, as Q4_K
};
// 16 groups of 16: x = d * scales[g] * (q - 32), q 6 bits.
struct BlockQ6_K {
    uint8_t ql[kQK_K / 2];      // [128] low 4 bits: two halves of 64 bytes
    uint8_t qh[kQK_K / 4];      // [64] high 2 bits: two halves of 32 bytes, 4 shifts
    int8_t scales[kQK_K / 16];  // [16] 8-bit signed group scales
    uint8_t d[2];               // f16 super-block scale
};

// Non-linear 4-bit: x[j] = d * kIQ4Values[q[j]], nibble order as Q4_0.
struct BlockIQ4_NL {
    uint8_t d[2];        // f16 scale
    uint8_t qs[kQK / 2]; // [16] codebook indices: byte k holds element k (low), k+16 (high)
};
// 8 groups of 32 sharing the codebook: x = d * (ls[g] - 32) * kIQ4Values[q], ls 6 bits =
// low 4 bits from scales_l (nibble g % 2 of byte g / 2), high 2 bits from scales_h bits 2g..2g+1.
struct BlockIQ4_XS {
    uint8_t d[2];            // f16 super-block scale
    uint8_t scales_h[2];     // u16 LE: 2 high bits of each group's scale
    uint8_t scales_l[4];     // [4] low 4 bits of the scales, two groups a byte
    uint8_t qs[kQK_K / 2];   // [128] group g: 16 bytes, element j low nibble, j + 16 high
};
// The IQ4 codebook (16 signed levels, denser near zero).
inline constexpr int8_t kIQ4Values[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                          1,    13,   25,  38,  53,  69,  89,  113};

static_assert(sizeof(BlockIQ4_NL) == 18 && sizeof(BlockIQ4_XS) == 136);
static_assert(sizeof(BlockQ4_0) == 18 && sizeof(BlockQ4_1) == 20 && sizeof(BlockQ5_0) == 22 &&
              sizeof(BlockQ5_1) == 24 && sizeof(BlockQ8_0) == 34);
static_assert(sizeof(BlockQ2_K) == 84 && sizeof(BlockQ3_K) == 110 && sizeof(BlockQ4_K) == 144 &&
              sizeof(BlockQ5_K) == 176 && sizeof(BlockQ6_K) == 210);

// Q4_K / Q5_K: scale and min of group g (0..7) from the 12 packed bytes.
// Groups 0..3: low 6 bits of bytes g (scale) and g+4 (min).
// Groups 4..7: low nibble (scale) / high nibble (min) of byte g+4, with the top two bits of
// bytes g-4 (scale) and g (min) as bits 4..5.
constexpr void scale_min_k4(const uint8_t* s, int g, int& sc, int& mn) {
    if (g < 4) {
        sc = s[g] & 63;
        mn = s[g + 4] & 63;
    } else {
        sc = (s[g + 4] & 0x0f) | ((s[g - 4] >> 6) << 4);
        mn = (s[g + 4] >> 4) | ((s[g] >> 6) << 4);
    }
}

// Q3_K: signed scale of group g (0..15) from the 12 packed bytes: low 4 bits in byte g
// (g < 8, low nibble) or g-8 (high nibble); bits 4..5 in byte 8 + g%4 at bit 2*(g/4).
constexpr int scale_q3_k(const uint8_t* s, int g) {
    const int lo = g < 8 ? (s[g] & 0x0f) : (s[g - 8] >> 4);
    const int hi = (s[8 + g % 4] >> (2 * (g / 4))) & 3;
    return (lo | (hi << 4)) - 32;
}

// IQ4_XS: signed scale of group g (0..7): 4 low bits from scales_l, 2 high from scales_h, - 32.
constexpr int scale_iq4_xs(const BlockIQ4_XS& b, int g) {
    const int lo = (b.scales_l[g / 2] >> (4 * (g % 2))) & 0x0f;
    const int hi = (load_u16(b.scales_h) >> (2 * g)) & 3;
    return (lo | (hi << 4)) - 32;
}

// Decoders: nb blocks from src into dst[0 .. nb * block size).
void dequant_f16(const uint8_t* src, float* dst, int64_t n);
void dequant_bf16(const uint8_t* src, float* dst, int64_t n);
void dequant_q4_0(const BlockQ4_0* src, float* dst, int64_t nb);
void dequant_q4_1(const BlockQ4_1* src, float* dst, int64_t nb);
void dequant_q5_0(const BlockQ5_0* src, float* dst, int64_t nb);
void dequant_q5_1(const BlockQ5_1* src, float* dst, int64_t nb);
void dequant_q8_0(const BlockQ8_0* src, float* dst, int64_t nb);
void dequant_q2_k(const BlockQ2_K* src, float* dst, int64_t nb);
void dequant_q3_k(const BlockQ3_K* src, float* dst, int64_t nb);
void dequant_q4_k(const BlockQ4_K* src, float* dst, int64_t nb);
void dequant_q5_k(const BlockQ5_K* src, float* dst, int64_t nb);
void dequant_q6_k(const BlockQ6_K* src, float* dst, int64_t nb);
void dequant_iq4_nl(const BlockIQ4_NL* src, float* dst, int64_t nb);
void dequant_iq4_xs(const BlockIQ4_XS* src, float* dst, int64_t nb);

// Encoders: nb blocks from src[0 .. nb * block size). The 32-element types round to nearest
// under the block's extreme (the reference encoders' rounding); the K and IQ4 types search
// their scales for the least squared error (quant_fit.h).
void quant_f16(const float* src, uint8_t* dst, int64_t n);
void quant_bf16(const float* src, uint8_t* dst, int64_t n);
void quant_q4_0(const float* src, BlockQ4_0* dst, int64_t nb);
void quant_q4_1(const float* src, BlockQ4_1* dst, int64_t nb);
void quant_q5_0(const float* src, BlockQ5_0* dst, int64_t nb);
void quant_q5_1(const float* src, BlockQ5_1* dst, int64_t nb);
void quant_q8_0(const float* src, BlockQ8_0* dst, int64_t nb);
void quant_q2_k(const float* src, BlockQ2_K* dst, int64_t nb);
void quant_q3_k(const float* src, BlockQ3_K* dst, int64_t nb);
void quant_q4_k(const float* src, BlockQ4_K* dst, int64_t nb);
void quant_q5_k(const float* src, BlockQ5_K* dst, int64_t nb);
void quant_q6_k(const float* src, BlockQ6_K* dst, int64_t nb);
void quant_iq4_nl(const float* src, BlockIQ4_NL* dst, int64_t nb);
void quant_iq4_xs(const float* src, BlockIQ4_XS* dst, int64_t nb);

}  // namespace lmscope::gguf::detail
