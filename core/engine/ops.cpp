#include "engine/ops.h"

#include <algorithm>
#include <cmath>

namespace lmscope::engine::ops {

void rms_norm(const float* x, const float* w, float eps, float* out, int64_t n) {
    // the sum of squares in eight independent chains (one chain waits on every add); in double,
    // where the order moves the sum by ~1e-16 of itself, far below the float scale's last bit
    constexpr int64_t kChains = 8;
    double part[kChains] = {};
    int64_t i = 0;
    for (; i + kChains <= n; i += kChains)
        for (int64_t c = 0; c < kChains; ++c) part[c] += double(x[i + c]) * double(x[i + c]);
    double ss = 0.0;
    for (; i < n; ++i) ss += double(x[i]) * double(x[i]);
    for (const double p : part) ss += p;
    const float scale = float(1.0 / std::sqrt(ss / double(n) + double(eps)));
    for (int64_t k = 0; k < n; ++k) out[k] = x[k] * scale * w[k];
}

void rope_angles(const float* inv_freq, int32_t n_rot, float pos, float* cs) {
    for (int32_t i = 0; i < n_rot / 2; ++i) {
        const float theta = pos * inv_freq[i];
        cs[2 * i] = std::cos(theta);
        cs[2 * i + 1] = std::sin(theta);
    }
}

void rope(float* v, int32_t n_rot, const float* cs, bool neox) {
    const int32_t half = n_rot / 2;
    for (int32_t i = 0; i < half; ++i) {
        const float c = cs[2 * i], s = cs[2 * i + 1];
        const int32_t a = neox ? i : 2 * i;
        const int32_t b = neox ? i + half : 2 * i + 1;
        const float x0 = v[a], x1 = v[b];
        v[a] = x0 * c - x1 * s;
        v[b] = x0 * s + x1 * c;
    }
}

void softmax(float* x, int64_t n) {
    float mx = x[0];
    for (int64_t i = 1; i < n; ++i) mx = std::max(mx, x[i]);
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        x[i] = std::exp(x[i] - mx);
        sum += x[i];
    }
    const float inv = float(1.0 / sum);
    for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}

float softmax_entropy(float* x, int64_t n) {
    float mx = x[0];
    for (int64_t i = 1; i < n; ++i) mx = std::max(mx, x[i]);
    double sum = 0.0, weighted = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        const float d = x[i] - mx;
        x[i] = std::exp(d);
        sum += x[i];
        weighted += double(x[i]) * double(d);
    }
    const float inv = float(1.0 / sum);
    for (int64_t i = 0; i < n; ++i) x[i] *= inv;
    return float(std::max(0.0, std::log(sum) - weighted / sum));
}

void geglu_tanh(float* g, const float* u, int64_t n) {
    constexpr float kSqrt2OverPi = 0.7978845608028654f;
    for (int64_t i = 0; i < n; ++i) {
        const float x = g[i];
        g[i] = 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x))) * u[i];
    }
}

void add(float* y, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] += x[i];
}

}  // namespace lmscope::engine::ops
