// Decoders and encoders of the non-linear 4-bit types IQ4_NL (blocks of 32, one f16 scale) and
// IQ4_XS (super-blocks of 256: one f16 scale, a 6-bit scale per group of 32), both indexing
// the 16-level codebook kIQ4Values.
#include "gguf/half.h"
#include "gguf/quant_blocks.h"
#include "gguf/quant_fit.h"

#include <array>

namespace lmscope::gguf::detail {
namespace {

constexpr int kGroupXS = 32;  // elements per IQ4_XS group

// The codebook as levels for the scale searches. The midpoints between neighbouring entries
// are multiples of 1/2, so the nearest entry of v is a table lookup at v's half-unit step
// (v clamped to [-128, 128); NaN gives entry 0; a v exactly on a midpoint, equally near both,
// takes the upper one).
constexpr int kIQ4N = 16;
constexpr int kHalfSteps = 512;  // half units over [-128, 128)
constexpr std::array<uint8_t, kHalfSteps> kNearestIQ4 = [] {
    std::array<uint8_t, kHalfSteps> t{};
    for (int s = 0; s < kHalfSteps; ++s) {  // s stands for v = s / 2 - 128
        int i = 0;
        for (int k = 0; k + 1 < kIQ4N; ++k) i += s - 256 >= kIQ4Values[k] + kIQ4Values[k + 1] ? 1 : 0;
        t[size_t(s)] = static_cast<uint8_t>(i);
    }
    return t;
}();

struct IQ4Levels {
    static constexpr int kN = kIQ4N;
    int index(float v) const {
        const float c = clamp_high(clamp_low(2.0f * v + 256.0f, 0.0f), float(kHalfSteps - 1));
        return kNearestIQ4[size_t(c)];
    }
    float value(int i) const { return float(kIQ4Values[i]); }
    float low() const { return float(kIQ4Values[0]); }
    float high() const { return float(kIQ4Values[kN - 1]); }
};

// Candidate scales from 0.84x to 1.16x of the exact fit of the largest value, at each end of
// the codebook.
constexpr ScaleSearch kSearch{8, 0.02f};

}  // namespace

void dequant_iq4_nl(const BlockIQ4_NL* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, dst += kQK) {
        const BlockIQ4_NL& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        for (int j = 0; j < kQK / 2; ++j) {
            dst[j] = d * float(kIQ4Values[blk.qs[j] & 0x0f]);
            dst[j + kQK / 2] = d * float(kIQ4Values[blk.qs[j] >> 4]);
        }
    }
}

void dequant_iq4_xs(const BlockIQ4_XS* src, float* __restrict dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b) {
        const BlockIQ4_XS& blk = src[b];
        const float d = half_to_float(load_u16(blk.d));
        for (int g = 0; g < kQK_K / kGroupXS; ++g, dst += kGroupXS) {
            const float dl = d * float(scale_iq4_xs(blk, g));
            const uint8_t* q = blk.qs + 16 * g;  // [16]
            for (int j = 0; j < 16; ++j) {
                dst[j] = dl * float(kIQ4Values[q[j] & 0x0f]);
                dst[j + 16] = dl * float(kIQ4Values[q[j] >> 4]);
            }
        }
    }
}

// One scale per block: the best candidate (fit_symmetric), stored as f16, then every element
// takes the codebook entry nearest to x / d.
void quant_iq4_nl(const float* src, BlockIQ4_NL* dst, int64_t nb) {
    const IQ4Levels levels;
    for (int64_t b = 0; b < nb; ++b, src += kQK) {
        const float d = f16_rounded(fit_symmetric(src, kQK, levels, kSearch));
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst[b].d, float_to_half(d));
        for (int j = 0; j < kQK / 2; ++j) {
            const int q0 = levels.index(src[j] * id);
            const int q1 = levels.index(src[j + kQK / 2] * id);
            dst[b].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
        }
    }
}

// Group scales in [-32, 31] (stored + 32) under one f16 scale (fit_symmetric_superblock).
void quant_iq4_xs(const float* src, BlockIQ4_XS* dst, int64_t nb) {
    const IQ4Levels levels;
    constexpr int kGroups = kQK_K / kGroupXS;
    for (int64_t b = 0; b < nb; ++b, src += kQK_K) {
        BlockIQ4_XS& blk = dst[b];
        int sc[kGroups];
        uint8_t idx[kQK_K];
        const float d = fit_symmetric_superblock(src, kQK_K, kGroupXS, levels, kSearch, -32, 31, sc, idx);
        store_u16(blk.d, float_to_half(d));
        uint16_t high = 0;
        for (int g = 0; g < kGroups; ++g) {
            const int u = sc[g] + 32;  // 0..63
            if (g % 2 == 0) blk.scales_l[g / 2] = static_cast<uint8_t>(u & 0x0f);
            else blk.scales_l[g / 2] = static_cast<uint8_t>(blk.scales_l[g / 2] | ((u & 0x0f) << 4));
            high = static_cast<uint16_t>(high | ((u >> 4) << (2 * g)));
            const uint8_t* q = idx + kGroupXS * g;  // [32]
            for (int j = 0; j < 16; ++j) blk.qs[16 * g + j] = static_cast<uint8_t>(q[j] | (q[j + 16] << 4));
        }
        store_u16(blk.scales_h, high);
    }
}

}  // namespace lmscope::gguf::detail
