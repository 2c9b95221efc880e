// Decoders and reference encoders of the 16-bit float types and the 32-element block types
// (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0). Plain loops over fixed-size blocks that compilers vectorize.
#include "gguf/half.h"
#include "gguf/quant_blocks.h"
#include "gguf/quant_fit.h"

#include <cmath>

namespace lmscope::gguf::detail {

// ---- 16-bit floats -------------------------------------------------------------------------

void dequant_f16(const uint8_t* src, float* __restrict dst, int64_t n) {  // src: [n] f16
    for (int64_t i = 0; i < n; ++i) dst[i] = half_to_float(load_u16(src + 2 * i));
}

void dequant_bf16(const uint8_t* src, float* __restrict dst, int64_t n) {  // src: [n] bf16
    for (int64_t i = 0; i < n; ++i) dst[i] = bf16_to_float(load_u16(src + 2 * i));
}

void quant_f16(const float* src, uint8_t* dst, int64_t n) {  // dst: [n] f16
    for (int64_t i = 0; i < n; ++i) store_u16(dst + 2 * i, float_to_half(src[i]));
}

void quant_bf16(const float* src, uint8_t* dst, int64_t n) {  // dst: [n] bf16
    for (int64_t i = 0; i < n; ++i) store_u16(dst + 2 * i, float_to_bf16(src[i]));
}

// ---- decoders ------------------------------------------------------------------------------

void dequant_q4_0(const BlockQ4_0* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, dst += kQK) {
        const BlockQ4_0& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        for (int j = 0; j < kQK / 2; ++j) dst[j] = d * float((blk.qs[j] & 0x0f) - 8);
        for (int j = 0; j < kQK / 2; ++j) dst[j + kQK / 2] = d * float((blk.qs[j] >> 4) - 8);
    }
}

void dequant_q4_1(const BlockQ4_1* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, dst += kQK) {
        const BlockQ4_1& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        const float m = half_to_float(load_u16(blk.m));
        for (int j = 0; j < kQK / 2; ++j) dst[j] = d * float(blk.qs[j] & 0x0f) + m;
        for (int j = 0; j < kQK / 2; ++j) dst[j + kQK / 2] = d * float(blk.qs[j] >> 4) + m;
    }
}

void dequant_q5_0(const BlockQ5_0* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, dst += kQK) {
        const BlockQ5_0& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        const uint32_t qh = load_u32(blk.qh);
        for (int j = 0; j < kQK / 2; ++j)
            dst[j] = d * float((int(blk.qs[j] & 0x0f) | int(((qh >> j) & 1u) << 4)) - 16);
        for (int j = 0; j < kQK / 2; ++j)
            dst[j + kQK / 2] = d * float((int(blk.qs[j] >> 4) | int(((qh >> (j + 16)) & 1u) << 4)) - 16);
    }
}

void dequant_q5_1(const BlockQ5_1* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, dst += kQK) {
        const BlockQ5_1& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        const float m = half_to_float(load_u16(blk.m));
        const uint32_t qh = load_u32(blk.qh);
        for (int j = 0; j < kQK / 2; ++j)
            dst[j] = d * float(int(blk.qs[j] & 0x0f) | int(((qh >> j) & 1u) << 4)) + m;
        for (int j = 0; j < kQK / 2; ++j)
            dst[j + kQK / 2] = d * float(int(blk.qs[j] >> 4) | int(((qh >> (j + 16)) & 1u) << 4)) + m;
    }
}

void dequant_q8_0(const BlockQ8_0* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, dst += kQK) {
        const BlockQ8_0& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        for (int j = 0; j < kQK; ++j) dst[j] = d * float(blk.qs[j]);
    }
}

// ---- encoders ------------------------------------------------------------------------------
namespace {

// Reductions over a block keep 8 independent partial results, so the dependency chain is
// 4 long instead of 32 (float max reductions do not vectorize without fast-math).
constexpr int kLanes = 8;

float block_absmax(const float* x) {
    float m[kLanes] = {};
    for (int j = 0; j < kQK; j += kLanes)
        for (int k = 0; k < kLanes; ++k) m[k] = clamp_low(std::fabs(x[j + k]), m[k]);
    float amax = 0.0f;
    for (int k = 0; k < kLanes; ++k) amax = clamp_low(m[k], amax);
    return amax;
}

// The first value of largest magnitude in x[0..kQK), with its sign (symmetric formats).
float signed_absmax(const float* x) {
    const float amax = block_absmax(x);
    for (int j = 0; j < kQK; ++j)
        if (std::fabs(x[j]) == amax) return x[j];
    return 0.0f;
}

void block_min_max(const float* x, float& lo, float& hi) {
    float mn[kLanes], mx[kLanes];
    for (int k = 0; k < kLanes; ++k) mn[k] = mx[k] = x[k];
    for (int j = kLanes; j < kQK; j += kLanes) {
        for (int k = 0; k < kLanes; ++k) {
            mn[k] = clamp_high(x[j + k], mn[k]);
            mx[k] = clamp_low(x[j + k], mx[k]);
        }
    }
    lo = mn[0];
    hi = mx[0];
    for (int k = 1; k < kLanes; ++k) {
        lo = clamp_high(mn[k], lo);
        hi = clamp_low(mx[k], hi);
    }
}

// floor(v) clamped to [0, hi]; NaN gives 0.
inline int floor_clamped(float v, float hi) { return int(clamp_high(clamp_low(v, 0.0f), hi)); }

// q[j] = round(x[j] * id) (half away from zero) clamped to [-127, 127]; NaN gives -127.
// Two passes over a local copy, in the forms compilers vectorize without fast-math.
void round_block_127(const float* x, float id, int8_t* q) {
    float v[kQK];  // [32] scaled and clamped
    for (int j = 0; j < kQK; ++j) v[j] = clamp_high(clamp_low(x[j] * id, -127.0f), 127.0f);
    for (int j = 0; j < kQK; ++j) {
        const float a = std::fabs(v[j]);
        const int t = int(a);                                // truncated
        const int r = t + int((a - float(t)) * 2.0f);        // +1 when the fraction >= 0.5 (exact)
        q[j] = static_cast<int8_t>(v[j] < 0.0f ? -r : r);
    }
}

}  // namespace

// Symmetric 4 bits: d = vmax / -8 so the extreme value maps to q = 0 exactly.
void quant_q4_0(const float* src, BlockQ4_0* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK) {
        const float d = signed_absmax(src) / -8.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst[b].d, float_to_half(d));
        for (int j = 0; j < kQK / 2; ++j) {
            const int q0 = floor_clamped(src[j] * id + 8.5f, 15.0f);
            const int q1 = floor_clamped(src[j + kQK / 2] * id + 8.5f, 15.0f);
            dst[b].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
        }
    }
}

// Asymmetric 4 bits: x = d * q + min over [min, max].
void quant_q4_1(const float* src, BlockQ4_1* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK) {
        float lo, hi;
        block_min_max(src, lo, hi);
        const float d = (hi - lo) / 15.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst[b].d, float_to_half(d));
        store_u16(dst[b].m, float_to_half(lo));
        for (int j = 0; j < kQK / 2; ++j) {
            const int q0 = floor_clamped((src[j] - lo) * id + 0.5f, 15.0f);
            const int q1 = floor_clamped((src[j + kQK / 2] - lo) * id + 0.5f, 15.0f);
            dst[b].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
        }
    }
}

// Symmetric 5 bits: d = vmax / -16.
void quant_q5_0(const float* src, BlockQ5_0* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK) {
        const float d = signed_absmax(src) / -16.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst[b].d, float_to_half(d));
        uint32_t qh = 0;
        for (int j = 0; j < kQK / 2; ++j) {
            const int q0 = floor_clamped(src[j] * id + 16.5f, 31.0f);
            const int q1 = floor_clamped(src[j + kQK / 2] * id + 16.5f, 31.0f);
            dst[b].qs[j] = static_cast<uint8_t>((q0 & 0x0f) | ((q1 & 0x0f) << 4));
            qh |= uint32_t(q0 >> 4) << j;
            qh |= uint32_t(q1 >> 4) << (j + kQK / 2);
        }
        store_u32(dst[b].qh, qh);
    }
}

// Asymmetric 5 bits.
void quant_q5_1(const float* src, BlockQ5_1* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK) {
        float lo, hi;
        block_min_max(src, lo, hi);
        const float d = (hi - lo) / 31.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst[b].d, float_to_half(d));
        store_u16(dst[b].m, float_to_half(lo));
        uint32_t qh = 0;
        for (int j = 0; j < kQK / 2; ++j) {
            const int q0 = floor_clamped((src[j] - lo) * id + 0.5f, 31.0f);
            const int q1 = floor_clamped((src[j + kQK / 2] - lo) * id + 0.5f, 31.0f);
            dst[b].qs[j] = static_cast<uint8_t>((q0 & 0x0f) | ((q1 & 0x0f) << 4));
            qh |= uint32_t(q0 >> 4) << j;
            qh |= uint32_t(q1 >> 4) << (j + kQK / 2);
        }
        store_u32(dst[b].qh, qh);
    }
}

// Symmetric 8 bits: d = amax / 127, q = round(x / d) (half away from zero).
void quant_q8_0(const float* src, BlockQ8_0* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK) {
        const float d = block_absmax(src) / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst[b].d, float_to_half(d));
        round_block_127(src, id, dst[b].qs);
    }
}

}  // namespace lmscope::gguf::detail
