// Decoders of the K-quant super-block types (256 elements): Q2_K, Q3_K, Q4_K, Q5_K, Q6_K.
#include "gguf/half.h"
#include "gguf/quant_blocks.h"

namespace lmscope::gguf::detail {

// Two halves of 128; each half: 4 shifts x (16 from qs[0..16) + 16 from qs[16..32)).
void dequant_q2_k(const BlockQ2_K* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ2_K& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        const float dmin = half_to_float(load_u16(blk.dmin));
        int g = 0;
        for (int half = 0; half < 2; ++half) {
            const uint8_t* q = blk.qs + 32 * half;  // [32]
            for (int shift = 0; shift < 8; shift += 2) {
                for (int part = 0; part < 2; ++part, ++g, dst += 16) {
                    const float dl = d * float(blk.scales[g] & 0x0f);
                    const float ml = dmin * float(blk.scales[g] >> 4);
                    for (int l = 0; l < 16; ++l)
                        dst[l] = dl * float((q[16 * part + l] >> shift) & 3) - ml;
                }
            }
        }
    }
}

// Low 2 bits as Q2_K; the high bit of element 32*k + l is bit k of hmask[l]: when it is
// clear, 4 is subtracted.
void dequant_q3_k(const BlockQ3_K* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ3_K& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        int g = 0, bit = 0;
        for (int half = 0; half < 2; ++half) {
            const uint8_t* q = blk.qs + 32 * half;  // [32]
            for (int shift = 0; shift < 8; shift += 2, ++bit) {
                for (int part = 0; part < 2; ++part, ++g, dst += 16) {
                    const float dl = d * float(scale_q3_k(blk.scales, g));
                    const uint8_t* h = blk.hmask + 16 * part;  // [16]
                    for (int l = 0; l < 16; ++l) {
                        const int lo = (q[16 * part + l] >> shift) & 3;
                        const int sub = ((h[l] >> bit) & 1) ? 0 : 4;
                        dst[l] = dl * float(lo - sub);
                    }
                }
            }
        }
    }
}

// 4 chunks of 64 elements; chunk c: low nibbles of qs[32c..32c+32) are group 2c, high nibbles
// group 2c+1.
void dequant_q4_k(const BlockQ4_K* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ4_K& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        const float dmin = half_to_float(load_u16(blk.dmin));
        for (int c = 0; c < 4; ++c, dst += 64) {
            const uint8_t* q = blk.qs + 32 * c;  // [32]
            int sc0, mn0, sc1, mn1;
            scale_min_k4(blk.scales, 2 * c, sc0, mn0);
            scale_min_k4(blk.scales, 2 * c + 1, sc1, mn1);
            const float d0 = d * float(sc0), m0 = dmin * float(mn0);
            const float d1 = d * float(sc1), m1 = dmin * float(mn1);
            for (int l = 0; l < 32; ++l) dst[l] = d0 * float(q[l] & 0x0f) - m0;
            for (int l = 0; l < 32; ++l) dst[l + 32] = d1 * float(q[l] >> 4) - m1;
        }
    }
}

// As Q4_K; bit g of qh[l] adds 16 to element 32*g + l.
void dequant_q5_k(const BlockQ5_K* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ5_K& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        const float dmin = half_to_float(load_u16(blk.dmin));
        for (int c = 0; c < 4; ++c, dst += 64) {
            const uint8_t* q = blk.qs + 32 * c;  // [32]
            int sc0, mn0, sc1, mn1;
            scale_min_k4(blk.scales, 2 * c, sc0, mn0);
            scale_min_k4(blk.scales, 2 * c + 1, sc1, mn1);
            const float d0 = d * float(sc0), m0 = dmin * float(mn0);
            const float d1 = d * float(sc1), m1 = dmin * float(mn1);
            const int b0 = 2 * c, b1 = 2 * c + 1;
            for (int l = 0; l < 32; ++l)
                dst[l] = d0 * float((q[l] & 0x0f) | (((blk.qh[l] >> b0) & 1) << 4)) - m0;
            for (int l = 0; l < 32; ++l)
                dst[l + 32] = d1 * float((q[l] >> 4) | (((blk.qh[l] >> b1) & 1) << 4)) - m1;
        }
    }
}

// Two halves of 128. In half h, for l in 0..32 with ql = ql[64h..], qh = qh[32h..]:
//   element l      : low nibble of ql[l]      | bits 0..1 of qh[l]
//   element l + 32 : low nibble of ql[l + 32] | bits 2..3 of qh[l]
//   element l + 64 : high nibble of ql[l]     | bits 4..5 of qh[l]
//   element l + 96 : high nibble of ql[l + 32]| bits 6..7 of qh[l]
// minus 32; element e of the half uses scale 8h + e / 16.
void dequant_q6_k(const BlockQ6_K* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ6_K& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        for (int half = 0; half < 2; ++half, dst += 128) {
            const uint8_t* ql = blk.ql + 64 * half;      // [64]
            const uint8_t* qh = blk.qh + 32 * half;      // [32]
            const int8_t* sc = blk.scales + 8 * half;    // [8]
            for (int part = 0; part < 2; ++part) {       // l in [16 part, 16 part + 16)
                const float s0 = d * float(sc[part + 0]);
                const float s1 = d * float(sc[part + 2]);
                const float s2 = d * float(sc[part + 4]);
                const float s3 = d * float(sc[part + 6]);
                for (int i = 0; i < 16; ++i) {
                    const int l = 16 * part + i;
                    const int q0 = ((ql[l] & 0x0f) | (((qh[l] >> 0) & 3) << 4)) - 32;
                    const int q1 = ((ql[l + 32] & 0x0f) | (((qh[l] >> 2) & 3) << 4)) - 32;
                    const int q2 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                    const int q3 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                    dst[l] = s0 * float(q0);
                    dst[l + 32] = s1 * float(q1);
                    dst[l + 64] = s2 * float(q2);
                    dst[l + 96] = s3 * float(q3);
                }
            }
        }
    }
}

}  // namespace lmscope::gguf::detail
