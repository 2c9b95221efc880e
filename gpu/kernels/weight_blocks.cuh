// The GGUF weight types on the device: one decoder per type that turns chunk c (8 consecutive
// elements) of a block into floats, with the arithmetic of core/gguf's reference dequantizers
// (quant_basic.cpp, quant_k.cpp) and the layouts of gguf/quant_blocks.h. Weights stay in device
// memory as the file stores them; the GEMV, the prefill's dequantized tiles and the embedding
// gather decode them in registers through these.
//
// Host and device code (__host__ __device__): tests/gpu/test_weight_blocks.cpp runs them on the
// host against gguf::dequantize_row.
//
// The scale unpackers are quant_blocks.h's own (constexpr: device code calls them under nvcc's
// --expt-relaxed-constexpr).
//
// Alignment: a block passed to decode8 sits at an address that is a multiple of the largest
// power of two dividing its size, up to 16 (Q4_K: 16, Q5_1: 8, Q2_K: 4, Q6_K: 2; F16, BF16 and
// F32 chunks: 16). The device matrices guarantee it: every part starts 256-byte aligned and
// rows are whole blocks; for F16, BF16 and F32 the row length is a multiple of 8. Each load
// below says which alignment it needs.
#pragma once

#include "gguf/quant_blocks.h"
#include "gguf/tensor_type.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace lmscope::gpu::kernels {

#define LMSCOPE_HD __host__ __device__ __forceinline__

constexpr int kChunk = 8;  // elements one decode8 call yields

namespace blocks {

// A T at p; p must be aligned for T on the device (the host copies bytes).
template <class T>
LMSCOPE_HD T load(const uint8_t* p) {
#ifdef __CUDA_ARCH__
    return *reinterpret_cast<const T*>(p);
#else
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
#endif
}

// Little-endian IEEE half at p (2-byte aligned), exactly widened.
LMSCOPE_HD float f16_at(const uint8_t* p) { return __half2float(__ushort_as_half(load<uint16_t>(p))); }
LMSCOPE_HD float bf16_bits(uint32_t h) {
    const uint32_t u = h << 16;
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
}
// 8 bytes at p as two little-endian words: byte i is (w[i / 4] >> 8 (i % 4)) & 0xff.
struct Bytes8 {
    uint32_t w[2];
    LMSCOPE_HD uint32_t operator[](int i) const { return (w[i >> 2] >> (8 * (i & 3))) & 0xffu; }
};
LMSCOPE_HD Bytes8 bytes8_a4(const uint8_t* p) { return {{load<uint32_t>(p), load<uint32_t>(p + 4)}}; }  // p 4-aligned
LMSCOPE_HD Bytes8 bytes8_a2(const uint8_t* p) {  // p 2-aligned
    const uint32_t a = load<uint16_t>(p), b = load<uint16_t>(p + 2), c = load<uint16_t>(p + 4), d = load<uint16_t>(p + 6);
    return {{a | (b << 16), c | (d << 16)}};
}

// The IQ4 codebook packed into two words (entries 0..7, 8..15; one signed byte each), so
// device code reads it from registers: the same values as gguf::detail::kIQ4Values.
constexpr uint64_t iq4_pack(int first) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(gguf::detail::kIQ4Values[first + i])) << (8 * i);
    return v;
}
constexpr uint64_t kIQ4Lo = iq4_pack(0), kIQ4Hi = iq4_pack(8);
LMSCOPE_HD float iq4_value(uint32_t q) {  // q in 0..15
    const uint64_t v = q < 8 ? kIQ4Lo : kIQ4Hi;
    return float(int8_t(uint8_t(v >> (8 * (q & 7)))));
}

}  // namespace blocks

// Each decoder: kType, kBlock (elements per block), kBytes (bytes per block) and
// decode8(blk, c, v): v[i] = element kChunk * c + i of the block at blk, c < kBlock / kChunk.

struct DecodeF32 {
    static constexpr gguf::TensorType kType = gguf::TensorType::F32;
    static constexpr int kBlock = kChunk, kBytes = 4 * kChunk;
    LMSCOPE_HD static void decode8(const uint8_t* b, int, float (&v)[kChunk]) {  // b 16-aligned
#ifdef __CUDA_ARCH__
        const float4 a = reinterpret_cast<const float4*>(b)[0], c = reinterpret_cast<const float4*>(b)[1];
        v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
        v[4] = c.x; v[5] = c.y; v[6] = c.z; v[7] = c.w;
#else
        std::memcpy(v, b, sizeof(v));
#endif
    }
};

struct DecodeF16 {
    static constexpr gguf::TensorType kType = gguf::TensorType::F16;
    static constexpr int kBlock = kChunk, kBytes = 2 * kChunk;
    LMSCOPE_HD static void decode8(const uint8_t* b, int, float (&v)[kChunk]) {  // b 16-aligned
        const uint4 q = blocks::load<uint4>(b);
        const uint32_t w[4] = {q.x, q.y, q.z, q.w};
        for (int i = 0; i < 4; ++i) {
            v[2 * i] = __half2float(__ushort_as_half(uint16_t(w[i] & 0xffffu)));
            v[2 * i + 1] = __half2float(__ushort_as_half(uint16_t(w[i] >> 16)));
        }
    }
};

struct DecodeBF16 {
    static constexpr gguf::TensorType kType = gguf::TensorType::BF16;
    static constexpr int kBlock = kChunk, kBytes = 2 * kChunk;
    LMSCOPE_HD static void decode8(const uint8_t* b, int, float (&v)[kChunk]) {  // b 16-aligned
        const uint4 q = blocks::load<uint4>(b);
        const uint32_t w[4] = {q.x, q.y, q.z, q.w};
        for (int i = 0; i < 4; ++i) {
            v[2 * i] = blocks::bf16_bits(w[i] & 0xffffu);
            v[2 * i + 1] = blocks::bf16_bits(w[i] >> 16);
        }
    }
};

// Q4_0 (18 bytes, 2-aligned): x = d (q - 8); chunks 0, 1 low nibbles of qs[0..16), 2, 3 high.
struct DecodeQ4_0 {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q4_0;
    static constexpr int kBlock = gguf::detail::kQK, kBytes = sizeof(gguf::detail::BlockQ4_0);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        const float d = blocks::f16_at(b + offsetof(gguf::detail::BlockQ4_0, d));
        const blocks::Bytes8 q = blocks::bytes8_a2(b + offsetof(gguf::detail::BlockQ4_0, qs) + 8 * (c & 1));
        const int shift = c < 2 ? 0 : 4;
        for (int i = 0; i < kChunk; ++i) v[i] = d * float(int((q[i] >> shift) & 0x0f) - 8);
    }
};

// Q4_1 (20 bytes, 4-aligned): x = d q + m.
struct DecodeQ4_1 {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q4_1;
    static constexpr int kBlock = gguf::detail::kQK, kBytes = sizeof(gguf::detail::BlockQ4_1);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        const float d = blocks::f16_at(b + offsetof(gguf::detail::BlockQ4_1, d));
        const float m = blocks::f16_at(b + offsetof(gguf::detail::BlockQ4_1, m));
        const blocks::Bytes8 q = blocks::bytes8_a4(b + offsetof(gguf::detail::BlockQ4_1, qs) + 8 * (c & 1));
        const int shift = c < 2 ? 0 : 4;
        for (int i = 0; i < kChunk; ++i) v[i] = d * float((q[i] >> shift) & 0x0f) + m;
    }
};

// Q5_0 (22 bytes, 2-aligned): x = d (q - 16), q = nibble | bit e of qh << 4.
struct DecodeQ5_0 {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q5_0;
    static constexpr int kBlock = gguf::detail::kQK, kBytes = sizeof(gguf::detail::BlockQ5_0);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        using B = gguf::detail::BlockQ5_0;
        const float d = blocks::f16_at(b + offsetof(B, d));
        const uint32_t qh = blocks::load<uint16_t>(b + offsetof(B, qh)) |
                            (uint32_t(blocks::load<uint16_t>(b + offsetof(B, qh) + 2)) << 16);
        const blocks::Bytes8 q = blocks::bytes8_a2(b + offsetof(B, qs) + 8 * (c & 1));
        const int shift = c < 2 ? 0 : 4;
        for (int i = 0; i < kChunk; ++i) {
            const int e = kChunk * c + i;
            v[i] = d * float((int((q[i] >> shift) & 0x0f) | int(((qh >> e) & 1u) << 4)) - 16);
        }
    }
};

// Q5_1 (24 bytes, 8-aligned): x = d q + m, bits as Q5_0.
struct DecodeQ5_1 {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q5_1;
    static constexpr int kBlock = gguf::detail::kQK, kBytes = sizeof(gguf::detail::BlockQ5_1);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        using B = gguf::detail::BlockQ5_1;
        const float d = blocks::f16_at(b + offsetof(B, d));
        const float m = blocks::f16_at(b + offsetof(B, m));
        const uint32_t qh = blocks::load<uint32_t>(b + offsetof(B, qh));
        const blocks::Bytes8 q = blocks::bytes8_a4(b + offsetof(B, qs) + 8 * (c & 1));
        const int shift = c < 2 ? 0 : 4;
        for (int i = 0; i < kChunk; ++i) {
            const int e = kChunk * c + i;
            v[i] = d * float(int((q[i] >> shift) & 0x0f) | int(((qh >> e) & 1u) << 4)) + m;
        }
    }
};

// Q8_0 (34 bytes, 2-aligned): x = d qs[e].
struct DecodeQ8_0 {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q8_0;
    static constexpr int kBlock = gguf::detail::kQK, kBytes = sizeof(gguf::detail::BlockQ8_0);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        using B = gguf::detail::BlockQ8_0;
        const float d = blocks::f16_at(b + offsetof(B, d));
        const blocks::Bytes8 q = blocks::bytes8_a2(b + offsetof(B, qs) + kChunk * c);
        for (int i = 0; i < kChunk; ++i) v[i] = d * float(int8_t(uint8_t(q[i])));
    }
};

// IQ4_NL (18 bytes, 2-aligned): x = d kIQ4Values[q], nibbles as Q4_0.
struct DecodeIQ4_NL {
    static constexpr gguf::TensorType kType = gguf::TensorType::IQ4_NL;
    static constexpr int kBlock = gguf::detail::kQK, kBytes = sizeof(gguf::detail::BlockIQ4_NL);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        using B = gguf::detail::BlockIQ4_NL;
        const float d = blocks::f16_at(b + offsetof(B, d));
        const blocks::Bytes8 q = blocks::bytes8_a2(b + offsetof(B, qs) + 8 * (c & 1));
        const int shift = c < 2 ? 0 : 4;
        for (int i = 0; i < kChunk; ++i) v[i] = d * blocks::iq4_value((q[i] >> shift) & 0x0f);
    }
};

// Q2_K (84 bytes, 4-aligned). Element e = 128 h + 32 s + 16 p + l is bits 2s..2s+1 of
// qs[32 h + 16 p + l], in group e / 16: x = d (sc & 15) q - dmin (sc >> 4).
struct DecodeQ2_K {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q2_K;
    static constexpr int kBlock = gguf::detail::kQK_K, kBytes = sizeof(gguf::detail::BlockQ2_K);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        using B = gguf::detail::BlockQ2_K;
        const int e0 = kChunk * c, h = e0 >> 7, r = e0 & 127, s = r >> 5;
        const float d = blocks::f16_at(b + offsetof(B, d));
        const float dmin = blocks::f16_at(b + offsetof(B, dmin));
        const int sc = b[offsetof(B, scales) + (e0 >> 4)];
        const float dl = d * float(sc & 0x0f), ml = dmin * float(sc >> 4);
        const blocks::Bytes8 q = blocks::bytes8_a4(b + offsetof(B, qs) + 32 * h + (r & 31));
        for (int i = 0; i < kChunk; ++i) v[i] = dl * float((q[i] >> (2 * s)) & 3) - ml;
    }
};

// Q3_K (110 bytes, 2-aligned). Low 2 bits as Q2_K; bit (4 h + s) of hmask[e % 32] is the high
// bit (4 is subtracted where it is clear); x = d scale6(e / 16) (q - sub).
struct DecodeQ3_K {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q3_K;
    static constexpr int kBlock = gguf::detail::kQK_K, kBytes = sizeof(gguf::detail::BlockQ3_K);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        using B = gguf::detail::BlockQ3_K;
        const int e0 = kChunk * c, h = e0 >> 7, r = e0 & 127, s = r >> 5, bit = 4 * h + s;
        const float d = blocks::f16_at(b + offsetof(B, d));
        const float dl = d * float(gguf::detail::scale_q3_k(b + offsetof(B, scales), e0 >> 4));
        const blocks::Bytes8 q = blocks::bytes8_a2(b + offsetof(B, qs) + 32 * h + (r & 31));
        const blocks::Bytes8 hm = blocks::bytes8_a2(b + offsetof(B, hmask) + (r & 31));
        for (int i = 0; i < kChunk; ++i) {
            const int lo = int((q[i] >> (2 * s)) & 3);
            const int sub = ((hm[i] >> bit) & 1u) ? 0 : 4;
            v[i] = dl * float(lo - sub);
        }
    }
};

// Q4_K / Q5_K (144 / 176 bytes, 16-aligned). Group g = e / 32: nibble g % 2 of
// qs[32 (g / 2) + e % 32]; Q5_K: bit g of qh[e % 32] adds 16; x = d sc q - dmin mn.
template <class B, bool kHigh>
LMSCOPE_HD void decode8_k45(const uint8_t* b, int c, float (&v)[kChunk]) {
    const int e0 = kChunk * c, grp = e0 >> 5;
    const float d = blocks::f16_at(b + offsetof(B, d));
    const float dmin = blocks::f16_at(b + offsetof(B, dmin));
    int sc, mn;
    gguf::detail::scale_min_k4(b + offsetof(B, scales), grp, sc, mn);
    const float dl = d * float(sc), ml = dmin * float(mn);
    const blocks::Bytes8 q = blocks::bytes8_a4(b + offsetof(B, qs) + 32 * (grp >> 1) + (e0 & 31));
    const int shift = 4 * (grp & 1);
    if constexpr (kHigh) {
        const blocks::Bytes8 qh = blocks::bytes8_a4(b + offsetof(B, qh) + (e0 & 31));
        for (int i = 0; i < kChunk; ++i) v[i] = dl * float(((q[i] >> shift) & 0x0f) | (((qh[i] >> grp) & 1u) << 4)) - ml;
    } else {
        for (int i = 0; i < kChunk; ++i) v[i] = dl * float((q[i] >> shift) & 0x0f) - ml;
    }
}

struct DecodeQ4_K {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q4_K;
    static constexpr int kBlock = gguf::detail::kQK_K, kBytes = sizeof(gguf::detail::BlockQ4_K);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        decode8_k45<gguf::detail::BlockQ4_K, false>(b, c, v);
    }
};

struct DecodeQ5_K {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q5_K;
    static constexpr int kBlock = gguf::detail::kQK_K, kBytes = sizeof(gguf::detail::BlockQ5_K);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        decode8_k45<gguf::detail::BlockQ5_K, true>(b, c, v);
    }
};

// Q6_K (210 bytes, 2-aligned). Element e = 128 h + 32 k + l: nibble k / 2 of
// ql[64 h + 32 (k % 2) + l] | bits 2k..2k+1 of qh[32 h + l] << 4, minus 32; scale 8 h + (e % 128) / 16.
struct DecodeQ6_K {
    static constexpr gguf::TensorType kType = gguf::TensorType::Q6_K;
    static constexpr int kBlock = gguf::detail::kQK_K, kBytes = sizeof(gguf::detail::BlockQ6_K);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        using B = gguf::detail::BlockQ6_K;
        const int e0 = kChunk * c, h = e0 >> 7, r = e0 & 127, k = r >> 5, l0 = r & 31;
        const float d = blocks::f16_at(b + offsetof(B, d));
        const float s = d * float(int8_t(b[offsetof(B, scales) + 8 * h + (r >> 4)]));
        const blocks::Bytes8 ql = blocks::bytes8_a2(b + offsetof(B, ql) + 64 * h + 32 * (k & 1) + l0);
        const blocks::Bytes8 qh = blocks::bytes8_a2(b + offsetof(B, qh) + 32 * h + l0);
        const int shift = 4 * (k >> 1);
        for (int i = 0; i < kChunk; ++i) {
            const int q = int(((ql[i] >> shift) & 0x0f) | (((qh[i] >> (2 * k)) & 3u) << 4)) - 32;
            v[i] = s * float(q);
        }
    }
};

// IQ4_XS (136 bytes, 8-aligned). Group g = e / 32, j = e % 32: nibble j / 16 of
// qs[16 g + j % 16]; x = d scale(g) kIQ4Values[q].
struct DecodeIQ4_XS {
    static constexpr gguf::TensorType kType = gguf::TensorType::IQ4_XS;
    static constexpr int kBlock = gguf::detail::kQK_K, kBytes = sizeof(gguf::detail::BlockIQ4_XS);
    LMSCOPE_HD static void decode8(const uint8_t* b, int c, float (&v)[kChunk]) {
        using B = gguf::detail::BlockIQ4_XS;
        const int e0 = kChunk * c, grp = e0 >> 5, j0 = e0 & 31;
        const float d = blocks::f16_at(b + offsetof(B, d));
        const float dl = d * float(gguf::detail::scale_iq4_xs(*reinterpret_cast<const B*>(b), grp));
        const blocks::Bytes8 q = blocks::bytes8_a4(b + offsetof(B, qs) + 16 * grp + (j0 & 15));
        const int shift = j0 < 16 ? 0 : 4;
        for (int i = 0; i < kChunk; ++i) v[i] = dl * blocks::iq4_value((q[i] >> shift) & 0x0f);
    }
};

// Calls f(Decoder{}) with the decoder of `type`; false when the device has none for it.
template <class F>
bool visit_decoder(gguf::TensorType type, F&& f) {
    using T = gguf::TensorType;
    switch (type) {
        case T::F32: f(DecodeF32{}); return true;
        case T::F16: f(DecodeF16{}); return true;
        case T::BF16: f(DecodeBF16{}); return true;
        case T::Q4_0: f(DecodeQ4_0{}); return true;
        case T::Q4_1: f(DecodeQ4_1{}); return true;
        case T::Q5_0: f(DecodeQ5_0{}); return true;
        case T::Q5_1: f(DecodeQ5_1{}); return true;
        case T::Q8_0: f(DecodeQ8_0{}); return true;
        case T::IQ4_NL: f(DecodeIQ4_NL{}); return true;
        case T::Q2_K: f(DecodeQ2_K{}); return true;
        case T::Q3_K: f(DecodeQ3_K{}); return true;
        case T::Q4_K: f(DecodeQ4_K{}); return true;
        case T::Q5_K: f(DecodeQ5_K{}); return true;
        case T::Q6_K: f(DecodeQ6_K{}); return true;
        case T::IQ4_XS: f(DecodeIQ4_XS{}); return true;
        default: return false;
    }
}

#undef LMSCOPE_HD

}  // namespace lmscope::gpu::kernels
