// Internal to core/gguf: the NaN-safe conversions the encoders share, and the scale searches
// of the encoders that pick their scales by least squares (K-quants, IQ4).
//
// Every float-to-int conversion goes through round_clamped(), so NaN, inf or huge inputs give
// defined (if useless) codes, never undefined behaviour. Everything is deterministic: fixed
// candidate lists, fixed summation order.
#pragma once

#include "gguf/half.h"

#include <cmath>
#include <cstdint>
#include <initializer_list>

namespace lmscope::gguf::detail {

// Selects written so that NaN gives the bound and loops of them vectorize (no library calls).
inline float clamp_low(float v, float lo) { return v > lo ? v : lo; }
inline float clamp_high(float v, float hi) { return v < hi ? v : hi; }

// The nearest integer to v (halves round up), clamped to [lo, hi]; NaN gives lo. (The
// conversion truncates a non-negative value: a floor without a library call.)
inline int round_clamped(float v, int lo, int hi) {
    const float c = clamp_high(clamp_low(v - float(lo), 0.0f), float(hi - lo));
    return int(c + 0.5f) + lo;
}

// v as the f16 field stores it.
inline float f16_rounded(float v) { return half_to_float(float_to_half(v)); }

// Integer levels qmin..qmax (index i stands for qmin + i).
struct IntLevels {
    int qmin, qmax;
    int index(float v) const { return round_clamped(v, qmin, qmax) - qmin; }
    float value(int i) const { return float(qmin + i); }
    float low() const { return float(qmin); }
    float high() const { return float(qmax); }
};

// Candidate scales of a group: the exact fit (the group's extreme value, or its range, onto
// the end of the levels) stretched by (1 + step * k) for k in [-steps, steps].
struct ScaleSearch {
    int steps;   // candidates on each side of the exact fit
    float step;  // relative stretch between candidates
};

// A scale s for x[0..n) ~ s * L.value(q[j]). Each candidate of `search`, for each end of the
// levels (the value of largest magnitude put there), picks the nearest levels v; their least
// squares scale sum(x v) / sum(v v) with the least squared error wins. 0 when x is all zero.
template <class Levels>
float fit_symmetric(const float* x, int n, const Levels& L, ScaleSearch search) {
    float amax = 0.0f, vmax = 0.0f;  // largest magnitude, with its sign
    for (int j = 0; j < n; ++j) {
        const float a = std::fabs(x[j]);
        if (a > amax) {
            amax = a;
            vmax = x[j];
        }
    }
    if (!(amax > 0.0f)) return 0.0f;
    float best_s = 0.0f, best_gain = 0.0f;  // gain = sum(x v)^2 / sum(v v): error = sum(x x) - gain
    for (const float end : {L.low(), L.high()}) {
        for (int k = -search.steps; k <= search.steps; ++k) {
            const float iscale = end * (1.0f + search.step * float(k)) / vmax;
            float sxv = 0.0f, svv = 0.0f;
            for (int j = 0; j < n; ++j) {
                const float v = L.value(L.index(x[j] * iscale));
                sxv += x[j] * v;
                svv += v * v;
            }
            if (svv > 0.0f && sxv * sxv / svv > best_gain) {
                best_gain = sxv * sxv / svv;
                best_s = sxv / svv;
            }
        }
    }
    return best_s;
}

// A super-block of n values in groups of `group` sharing one f16 scale d:
// x[e] ~ d * sc[g] * L.value(idx[e]), sc[g] an integer in [sc_min, sc_max] (sc_min < 0).
// Each group's scale comes from fit_symmetric; d first puts the largest one at sc_min, then
// least squares refits of d (with the group scales and levels chosen again) are kept while they
// lower the error. Returns d (as the f16 field stores it); fills sc[n / group] and idx[n].
template <class Levels>
float fit_symmetric_superblock(const float* x, int n, int group, const Levels& L, ScaleSearch search,
                               int sc_min, int sc_max, int* sc, uint8_t* idx) {
    constexpr int kMaxGroups = 16;
    constexpr int kMaxValues = 256;
    const int ng = n / group;
    float s[kMaxGroups];  // [ng] the groups' own best scales
    float smax = 0.0f, amax = 0.0f;
    for (int g = 0; g < ng; ++g) {
        s[g] = fit_symmetric(x + g * group, group, L, search);
        if (std::fabs(s[g]) > amax) {
            amax = std::fabs(s[g]);
            smax = s[g];
        }
    }
    int try_sc[kMaxGroups];       // [ng]
    uint8_t try_idx[kMaxValues];  // [n]
    float d = f16_rounded(smax / float(sc_min));
    float best_d = 0.0f, best_err = 0.0f;
    for (int iter = 0; iter < 4; ++iter) {
        float err = 0.0f, sxa = 0.0f, saa = 0.0f;  // a = sc * level: x ~ d * a
        for (int g = 0; g < ng; ++g) {
            try_sc[g] = d != 0.0f ? round_clamped(s[g] / d, sc_min, sc_max) : 0;
            const float eff = d * float(try_sc[g]);
            const float inv = eff != 0.0f ? 1.0f / eff : 0.0f;
            for (int e = g * group; e < (g + 1) * group; ++e) {
                const int i = L.index(x[e] * inv);
                try_idx[e] = static_cast<uint8_t>(i);
                const float v = L.value(i);
                const float diff = x[e] - eff * v;
                err += diff * diff;
                const float a = float(try_sc[g]) * v;
                sxa += x[e] * a;
                saa += a * a;
            }
        }
        if (iter == 0 || err < best_err) {
            best_err = err;
            best_d = d;
            for (int g = 0; g < ng; ++g) sc[g] = try_sc[g];
            for (int e = 0; e < n; ++e) idx[e] = try_idx[e];
        } else {
            break;
        }
        if (!(saa > 0.0f)) break;
        const float next = f16_rounded(sxa / saa);
        if (next == d) break;
        d = next;
    }
    return best_d;
}

}  // namespace lmscope::gguf::detail
