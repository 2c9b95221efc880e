// Encoders of the K-quant super-block types (256 elements): Q2_K, Q3_K, Q4_K, Q5_K, Q6_K.
// Each group's scale (and minimum) comes from a small search minimizing the squared error:
// candidate scales around the exact fit of the group's range, each refined by least squares.
// The group scales are then coded in the format's few bits under the f16 super-block scales,
// which least squares refits of their own adjust (quant_fit.h), and every element takes the
// level nearest to it under the coded scales.
#include "gguf/half.h"
#include "gguf/quant_blocks.h"
#include "gguf/quant_fit.h"

#include <limits>

namespace lmscope::gguf::detail {
namespace {

// ---- the formats with a scale and a minimum per group: x = d * sc * q - dmin * mn --------

struct ScaleMin {
    float scale = 0.0f;  // >= 0
    float min = 0.0f;    // >= 0: the group's values start at -min
};

// The group's x[0..n) ~ scale * q - min, q in [0, nmax], with the least squared error among
// the candidates: q from the range [min(x, 0), max(x)] stretched by each candidate of
// `search`, then (scale, min) by least squares (min kept >= 0, as the format requires).
ScaleMin fit_scale_min(const float* x, int n, int nmax, ScaleSearch search) {
    constexpr int kMaxN = 32;
    float lo = 0.0f, hi = -std::numeric_limits<float>::max();
    for (int j = 0; j < n; ++j) {
        if (x[j] < lo) lo = x[j];
        if (x[j] > hi) hi = x[j];
    }
    ScaleMin best;
    best.min = -lo;
    if (!(hi > lo)) return best;  // constant (or NaN) group: x = -min
    float best_err = std::numeric_limits<float>::infinity();
    uint8_t q[kMaxN];  // [n]
    for (int k = -search.steps; k <= search.steps; ++k) {
        const float iscale = float(nmax) * (1.0f + search.step * float(k)) / (hi - lo);
        float sq = 0.0f, sqq = 0.0f, sx = 0.0f, sqx = 0.0f;
        for (int j = 0; j < n; ++j) {
            q[j] = static_cast<uint8_t>(round_clamped((x[j] - lo) * iscale, 0, nmax));
            const float fq = float(q[j]);
            sq += fq;
            sqq += fq * fq;
            sx += x[j];
            sqx += fq * x[j];
        }
        const float det = float(n) * sqq - sq * sq;
        if (!(det > 0.0f)) continue;
        float scale = (float(n) * sqx - sq * sx) / det;
        float offset = (sqq * sx - sq * sqx) / det;  // = -min
        if (offset > 0.0f) {  // the format's minimum cannot be positive
            offset = 0.0f;
            scale = sqx / sqq;
        }
        if (!(scale > 0.0f)) continue;
        float err = 0.0f;
        for (int j = 0; j < n; ++j) {
            const float diff = scale * float(q[j]) + offset - x[j];
            err += diff * diff;
        }
        if (err < best_err) {
            best_err = err;
            best.scale = scale;
            best.min = -offset;
        }
    }
    return best;
}

struct AsymmetricFormat {
    int group;      // elements per group
    int nmax;       // largest quant
    int scale_max;  // largest coded group scale or minimum
    ScaleSearch search;
};

constexpr AsymmetricFormat kQ2K{16, 3, 15, {8, 0.05f}};
constexpr AsymmetricFormat kQ4K{32, 15, 63, {10, 0.008f}};
constexpr AsymmetricFormat kQ5K{32, 31, 63, {10, 0.004f}};

// One super-block: f16 d and dmin, coded scales sc[g] and minimums mn[g], quants q[256].
struct AsymmetricBlock {
    float d = 0.0f, dmin = 0.0f;
    int sc[16] = {}, mn[16] = {};
    uint8_t q[kQK_K] = {};
};

// Codes the groups' own (scale, min) under d and dmin, then the quants; returns the squared
// error and the least squares sums for a refit of (d, dmin) with these codes.
struct AsymmetricSums {
    float err = 0, saa = 0, sac = 0, scc = 0, sax = 0, scx = 0;  // a = sc * q, c = mn
};
AsymmetricSums assign(const float* x, const AsymmetricFormat& f, const ScaleMin* fit, AsymmetricBlock& blk) {
    AsymmetricSums s;
    for (int g = 0; g < kQK_K / f.group; ++g) {
        blk.sc[g] = blk.d > 0.0f ? round_clamped(fit[g].scale / blk.d, 0, f.scale_max) : 0;
        blk.mn[g] = blk.dmin > 0.0f ? round_clamped(fit[g].min / blk.dmin, 0, f.scale_max) : 0;
        const float ds = blk.d * float(blk.sc[g]), dm = blk.dmin * float(blk.mn[g]);
        const float inv = ds > 0.0f ? 1.0f / ds : 0.0f;
        for (int e = g * f.group; e < (g + 1) * f.group; ++e) {
            const int q = round_clamped((x[e] + dm) * inv, 0, f.nmax);
            blk.q[e] = static_cast<uint8_t>(q);
            const float diff = x[e] - (ds * float(q) - dm);
            s.err += diff * diff;
            const float a = float(blk.sc[g] * q), c = float(blk.mn[g]);
            s.saa += a * a;
            s.sac += a * c;
            s.scc += c * c;
            s.sax += a * x[e];
            s.scx += c * x[e];
        }
    }
    return s;
}

AsymmetricBlock fit_asymmetric(const float* x, const AsymmetricFormat& f) {
    ScaleMin fit[16];  // [groups]
    float max_scale = 0.0f, max_min = 0.0f;
    for (int g = 0; g < kQK_K / f.group; ++g) {
        fit[g] = fit_scale_min(x + g * f.group, f.group, f.nmax, f.search);
        max_scale = clamp_low(fit[g].scale, max_scale);
        max_min = clamp_low(fit[g].min, max_min);
    }
    AsymmetricBlock best, cur;
    cur.d = f16_rounded(max_scale / float(f.scale_max));
    cur.dmin = f16_rounded(max_min / float(f.scale_max));
    float best_err = 0.0f;
    for (int iter = 0; iter < 4; ++iter) {
        const AsymmetricSums s = assign(x, f, fit, cur);
        if (iter > 0 && !(s.err < best_err)) break;
        best = cur;
        best_err = s.err;
        // Least squares (d, dmin) for x ~ d * a - dmin * c with these codes.
        float d = 0.0f, dmin = cur.dmin;
        const float det = s.saa * s.scc - s.sac * s.sac;
        if (s.scc > 0.0f && det > 0.0f) {
            d = (s.sax * s.scc - s.sac * s.scx) / det;
            dmin = (s.sac * s.sax - s.saa * s.scx) / det;
        } else if (s.saa > 0.0f) {
            d = (s.sax + dmin * s.sac) / s.saa;
        }
        if (!(d > 0.0f) || !(dmin >= 0.0f)) break;
        cur.d = f16_rounded(d);
        cur.dmin = f16_rounded(dmin);
        if (cur.d == best.d && cur.dmin == best.dmin) break;
    }
    return best;
}

// Q4_K / Q5_K: 8 scales and 8 minimums of 6 bits in 12 bytes (the inverse of the decoder's
// scale_min_k4): bytes 0..3 scale g and 4..7 minimum g in the low 6 bits, groups 4..7's top 2
// bits in bits 6..7 of the same bytes, their low 4 bits in bytes 8..11.
void pack_scales_k4(const AsymmetricBlock& blk, uint8_t* s) {
    for (int g = 0; g < 4; ++g) {
        s[g] = static_cast<uint8_t>((blk.sc[g] & 63) | ((blk.sc[g + 4] >> 4) << 6));
        s[g + 4] = static_cast<uint8_t>((blk.mn[g] & 63) | ((blk.mn[g + 4] >> 4) << 6));
        s[g + 8] = static_cast<uint8_t>((blk.sc[g + 4] & 15) | ((blk.mn[g + 4] & 15) << 4));
    }
}

// ---- the symmetric formats: x = d * sc * (q - offset) ----------------------------------------

constexpr IntLevels kQ3Levels{-4, 3};
constexpr IntLevels kQ6Levels{-32, 31};
constexpr ScaleSearch kQ3Search{10, 0.03f};
constexpr ScaleSearch kQ6Search{6, 0.01f};

}  // namespace

void quant_q2_k(const float* src, BlockQ2_K* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK_K) {
        const AsymmetricBlock a = fit_asymmetric(src, kQ2K);
        BlockQ2_K& blk = dst[b];
        store_u16(blk.d, float_to_half(a.d));
        store_u16(blk.dmin, float_to_half(a.dmin));
        for (int g = 0; g < 16; ++g) blk.scales[g] = static_cast<uint8_t>(a.sc[g] | (a.mn[g] << 4));
        // Element e: bits 2 * ((e % 128) / 32) of byte 32 * (e / 128) + e % 32.
        for (int i = 0; i < kQK_K / 4; ++i) blk.qs[i] = 0;
        for (int e = 0; e < kQK_K; ++e)
            blk.qs[32 * (e / 128) + e % 32] |= static_cast<uint8_t>(a.q[e] << (2 * ((e % 128) / 32)));
    }
}

void quant_q3_k(const float* src, BlockQ3_K* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK_K) {
        int sc[16];
        uint8_t idx[kQK_K];  // q + 4, 0..7
        const float d = fit_symmetric_superblock(src, kQK_K, 16, kQ3Levels, kQ3Search, -32, 31, sc, idx);
        BlockQ3_K& blk = dst[b];
        store_u16(blk.d, float_to_half(d));
        for (int i = 0; i < 12; ++i) blk.scales[i] = 0;
        for (int g = 0; g < 16; ++g) {
            const int u = sc[g] + 32;  // 0..63
            blk.scales[g % 8] |= static_cast<uint8_t>((u & 0x0f) << (g < 8 ? 0 : 4));
            blk.scales[8 + g % 4] |= static_cast<uint8_t>((u >> 4) << (2 * (g / 4)));
        }
        // Low 2 bits as Q2_K; the high bit of element e is bit e / 32 of hmask[e % 32].
        for (int i = 0; i < kQK_K / 4; ++i) blk.qs[i] = 0;
        for (int i = 0; i < kQK_K / 8; ++i) blk.hmask[i] = 0;
        for (int e = 0; e < kQK_K; ++e) {
            blk.qs[32 * (e / 128) + e % 32] |= static_cast<uint8_t>((idx[e] & 3) << (2 * ((e % 128) / 32)));
            blk.hmask[e % 32] |= static_cast<uint8_t>((idx[e] >> 2) << (e / 32));
        }
    }
}

// Q4_K / Q5_K: the fitted block's scales, and its low nibbles as dequant_q4_k reads them; the
// 5th bits (Q5_K) into qh.
template <class B>
void store_k45(const AsymmetricBlock& a, B& blk, uint8_t* qh) {
    store_u16(blk.d, float_to_half(a.d));
    store_u16(blk.dmin, float_to_half(a.dmin));
    pack_scales_k4(a, blk.scales);
    for (int c = 0; c < 4; ++c)
        for (int l = 0; l < 32; ++l)
            blk.qs[32 * c + l] = static_cast<uint8_t>((a.q[64 * c + l] & 0x0f) | ((a.q[64 * c + 32 + l] & 0x0f) << 4));
    if (!qh) return;
    for (int l = 0; l < 32; ++l) {
        uint8_t h = 0;
        for (int g = 0; g < 8; ++g) h = static_cast<uint8_t>(h | ((a.q[32 * g + l] >> 4) << g));
        qh[l] = h;
    }
}

void quant_q4_k(const float* src, BlockQ4_K* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK_K) store_k45(fit_asymmetric(src, kQ4K), dst[b], nullptr);
}

void quant_q5_k(const float* src, BlockQ5_K* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK_K) store_k45(fit_asymmetric(src, kQ5K), dst[b], dst[b].qh);
}

void quant_q6_k(const float* src, BlockQ6_K* dst, int64_t nb) {
    for (int64_t b = 0; b < nb; ++b, src += kQK_K) {
        int sc[16];
        uint8_t u[kQK_K];  // q + 32, 0..63
        const float d = fit_symmetric_superblock(src, kQK_K, 16, kQ6Levels, kQ6Search, -128, 127, sc, u);
        BlockQ6_K& blk = dst[b];
        store_u16(blk.d, float_to_half(d));
        for (int g = 0; g < 16; ++g) blk.scales[g] = static_cast<int8_t>(sc[g]);
        // Half h, l in 0..32: elements l, l + 32, l + 64, l + 96 of the half (see dequant_q6_k).
        for (int h = 0; h < 2; ++h) {
            const uint8_t* v = u + 128 * h;  // [128]
            for (int l = 0; l < 32; ++l) {
                blk.ql[64 * h + l] = static_cast<uint8_t>((v[l] & 0x0f) | ((v[l + 64] & 0x0f) << 4));
                blk.ql[64 * h + l + 32] = static_cast<uint8_t>((v[l + 32] & 0x0f) | ((v[l + 96] & 0x0f) << 4));
                blk.qh[32 * h + l] = static_cast<uint8_t>((v[l] >> 4) | ((v[l + 32] >> 4) << 2) |
                                                          ((v[l + 64] >> 4) << 4) | ((v[l + 96] >> 4) << 6));
            }
        }
    }
}

}  // namespace lmscope::gguf::detail
