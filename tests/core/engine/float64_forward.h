// An independent float64 forward pass, written from ../shared/docs/ARCHITECTURES.md (not from
// the engine's recipe table), producing every hook point of trace/hooks.h for a teacher-forced
// run at position 0. The hook tests hold the engine's captures to it.
#pragma once

#include "engine/model.h"
#include "gguf/quant.h"
#include "trace/hooks.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lmscope::testing {

struct Float64Run {
    // [layer + 1][hook] (layer n_layer: final_norm and logits), row-major in hook_shape's order
    std::map<std::pair<int32_t, trace::Hook>, std::vector<double>> hooks;

    const std::vector<double>& at(trace::Hook h, int32_t layer) const { return hooks.at({layer, h}); }
};

namespace f64 {

using Vec = std::vector<double>;

inline Vec tensor(const gguf::TensorInfo* t) {
    if (!t) return {};
    const std::vector<float> f = gguf::dequantize(*t);
    return Vec(f.begin(), f.end());
}

// y[r] = sum_c W[r][c] x[c]; W: [rows][cols] (GGUF row order)
inline Vec matvec(const Vec& w, const double* x, size_t rows, size_t cols) {
    Vec y(rows, 0.0);
    for (size_t r = 0; r < rows; ++r) {
        double s = 0;
        for (size_t c = 0; c < cols; ++c) s += w[r * cols + c] * x[c];
        y[r] = s;
    }
    return y;
}

inline void rms_norm(double* x, const Vec& w, double eps, size_t n) {
    double ss = 0;
    for (size_t i = 0; i < n; ++i) ss += x[i] * x[i];
    const double k = 1.0 / std::sqrt(ss / double(n) + eps);
    for (size_t i = 0; i < n; ++i) x[i] = x[i] * k * w[i];
}

}  // namespace f64

// The facts of ARCHITECTURES.md for one model: which layers are local, which rotate, and the
// RoPE frequencies of each layer.
inline Float64Run float64_forward(const engine::Model& m, const std::vector<int32_t>& tokens) {
    using namespace f64;
    using trace::Hook;
    const model::ModelSpec& s = m.spec();
    const model::HParams& hp = s.hp;
    const gguf::File& file = m.file();
    const model::Weights& w = m.weights();
    const std::string arch = hp.architecture;
    const size_t n = tokens.size(), E = size_t(s.n_embd()), H = size_t(s.n_head()), KV = size_t(s.n_head_kv());
    const size_t HD = size_t(s.head_dim()), F = size_t(s.n_ff()), V = size_t(s.n_vocab()), NR = size_t(s.n_rot());
    const double eps = hp.rms_eps;
    // gemma2: gemma3 without QK-norm, scores soft-capped, every other layer local on one RoPE base;
    // phi3: fused q/k/v and gate/up matrices, NeoX RoPE
    const bool gemma = arch == "gemma3" || arch == "gemma2";
    const bool neox = arch == "qwen2" || arch == "qwen3" || gemma || arch == "phi3";

    // RoPE: angle of pair i at position p = p * base^(-2i/n_rot) / f_i / linear factor
    const Vec factors = tensor(file.find_tensor("rope_freqs.weight"));
    const double linear = hp.rope_scaling && hp.rope_scaling->type == "linear" ? hp.rope_scaling->factor : 1.0;
    auto inv_freq = [&](double base) {
        Vec f(NR / 2);
        for (size_t i = 0; i < NR / 2; ++i)
            f[i] = std::pow(base, -2.0 * double(i) / double(NR)) / linear / (factors.empty() ? 1.0 : factors[i]);
        return f;
    };
    const Vec freq_global = inv_freq(hp.rope_freq_base);
    const Vec freq_local = arch == "gemma2" ? freq_global : inv_freq(hp.rope_freq_base_swa.value_or(10000.0));
    const uint32_t pattern = arch == "gemma2" ? 2 : hp.sliding_window_pattern.value_or(6);
    const double attn_cap = hp.attn_logit_softcap;
    auto rope = [&](double* v, double pos, const Vec& freq) {
        for (size_t i = 0; i < NR / 2; ++i) {
            const size_t a = neox ? i : 2 * i, b = neox ? i + NR / 2 : 2 * i + 1;
            const double c = std::cos(pos * freq[i]), sn = std::sin(pos * freq[i]);
            const double x0 = v[a], x1 = v[b];
            v[a] = x0 * c - x1 * sn;
            v[b] = x0 * sn + x1 * c;
        }
    };

    Float64Run out;
    auto put = [&](Hook h, int32_t layer, Vec v) { out.hooks[{layer, h}] = std::move(v); };

    const Vec embd = tensor(w.token_embd);
    Vec x(n * E);
    for (size_t t = 0; t < n; ++t)
        for (size_t i = 0; i < E; ++i)
            x[t * E + i] = embd[size_t(tokens[t]) * E + i] * (gemma ? std::sqrt(double(E)) : 1.0);

    for (int32_t l = 0; l < s.n_layer(); ++l) {
        const model::LayerWeights& L = w.layers[size_t(l)];
        const bool local = gemma && uint32_t(l) % pattern < pattern - 1;
        const bool use_rope = !(arch == "smollm3" && (l + 1) % 4 == 0);
        const int64_t window = local ? int64_t(hp.sliding_window) : 0;
        const Vec& freq = local ? freq_local : freq_global;
        put(Hook::ResidPre, l, x);
        Vec h = x;
        const Vec attn_norm = tensor(L.attn_norm);
        for (size_t t = 0; t < n; ++t) rms_norm(&h[t * E], attn_norm, eps, E);
        put(Hook::AttnIn, l, h);
        // a fused matrix's rows: q, then k, then v
        const Vec wqkv = tensor(L.wqkv);
        auto part = [](const Vec& mat, size_t r0, size_t rows, size_t cols) {
            return Vec(mat.begin() + std::ptrdiff_t(r0 * cols), mat.begin() + std::ptrdiff_t((r0 + rows) * cols));
        };
        const Vec wq = L.wqkv ? part(wqkv, 0, H * HD, E) : tensor(L.wq);
        const Vec wk = L.wqkv ? part(wqkv, H * HD, KV * HD, E) : tensor(L.wk);
        const Vec wv = L.wqkv ? part(wqkv, (H + KV) * HD, KV * HD, E) : tensor(L.wv);
        const Vec wo = tensor(L.wo);
        const Vec bq = tensor(L.bq), bk = tensor(L.bk), bv = tensor(L.bv);
        const Vec qn = tensor(L.q_norm), kn = tensor(L.k_norm);
        Vec q(n * H * HD), k(n * KV * HD), v(n * KV * HD);
        for (size_t t = 0; t < n; ++t) {
            Vec qt = matvec(wq, &h[t * E], H * HD, E), kt = matvec(wk, &h[t * E], KV * HD, E), vt = matvec(wv, &h[t * E], KV * HD, E);
            for (size_t i = 0; i < bq.size(); ++i) qt[i] += bq[i];
            for (size_t i = 0; i < bk.size(); ++i) kt[i] += bk[i];
            for (size_t i = 0; i < bv.size(); ++i) vt[i] += bv[i];
            if (!qn.empty()) {
                for (size_t hh = 0; hh < H; ++hh) rms_norm(&qt[hh * HD], qn, eps, HD);
                for (size_t hh = 0; hh < KV; ++hh) rms_norm(&kt[hh * HD], kn, eps, HD);
            }
            std::copy(qt.begin(), qt.end(), q.begin() + std::ptrdiff_t(t * H * HD));
            std::copy(kt.begin(), kt.end(), k.begin() + std::ptrdiff_t(t * KV * HD));
            std::copy(vt.begin(), vt.end(), v.begin() + std::ptrdiff_t(t * KV * HD));
        }
        put(Hook::Q, l, q);
        put(Hook::K, l, k);
        put(Hook::V, l, v);
        if (use_rope)
            for (size_t t = 0; t < n; ++t) {
                for (size_t hh = 0; hh < H; ++hh) rope(&q[(t * H + hh) * HD], double(t), freq);
                for (size_t hh = 0; hh < KV; ++hh) rope(&k[(t * KV + hh) * HD], double(t), freq);
            }
        put(Hook::QRot, l, q);
        put(Hook::KRot, l, k);
        // scale 1/sqrt(hd) (no fixture is a Gemma 3 27B)
        const double scale = 1.0 / std::sqrt(double(HD));
        Vec scores(H * n * n, -INFINITY), pat(H * n * n, 0.0), z(n * H * HD, 0.0);
        for (size_t hh = 0; hh < H; ++hh) {
            const size_t g = hh / (H / KV);
            for (size_t i = 0; i < n; ++i) {
                double* sr = &scores[(hh * n + i) * n];
                double* pr = &pat[(hh * n + i) * n];
                double mx = -INFINITY;
                for (size_t j = 0; j <= i; ++j) {
                    if (window > 0 && int64_t(i) - int64_t(j) >= window) continue;
                    double d = 0;
                    for (size_t c = 0; c < HD; ++c) d += q[(i * H + hh) * HD + c] * k[(j * KV + g) * HD + c];
                    sr[j] = attn_cap > 0 ? attn_cap * std::tanh(d * scale / attn_cap) : d * scale;
                    mx = std::max(mx, sr[j]);
                }
                double sum = 0;
                for (size_t j = 0; j <= i; ++j)
                    if (std::isfinite(sr[j])) sum += pr[j] = std::exp(sr[j] - mx);
                for (size_t j = 0; j <= i; ++j) pr[j] /= sum;
                for (size_t j = 0; j <= i; ++j)
                    for (size_t c = 0; c < HD; ++c) z[(i * H + hh) * HD + c] += pr[j] * v[(j * KV + g) * HD + c];
            }
        }
        put(Hook::Scores, l, scores);
        put(Hook::Pattern, l, pat);
        put(Hook::Z, l, z);
        const Vec post_attn = tensor(L.post_attn_norm), post_ffn = tensor(L.post_ffn_norm);
        Vec a(n * E);
        for (size_t t = 0; t < n; ++t) {
            Vec at = matvec(wo, &z[t * H * HD], E, H * HD);
            if (!post_attn.empty()) rms_norm(at.data(), post_attn, eps, E);
            std::copy(at.begin(), at.end(), a.begin() + std::ptrdiff_t(t * E));
        }
        put(Hook::AttnOut, l, a);
        for (size_t i = 0; i < x.size(); ++i) x[i] += a[i];
        put(Hook::ResidMid, l, x);
        h = x;
        const Vec ffn_norm = tensor(L.ffn_norm);
        for (size_t t = 0; t < n; ++t) rms_norm(&h[t * E], ffn_norm, eps, E);
        put(Hook::MlpIn, l, h);
        // a fused gate/up matrix's rows: gate, then up
        const Vec wgu = tensor(L.ffn_gate_up);
        const Vec wg = L.ffn_gate_up ? part(wgu, 0, F, E) : tensor(L.ffn_gate);
        const Vec wu = L.ffn_gate_up ? part(wgu, F, F, E) : tensor(L.ffn_up);
        const Vec wd = tensor(L.ffn_down);
        Vec act(n * F), mo(n * E);
        for (size_t t = 0; t < n; ++t) {
            const Vec g = matvec(wg, &h[t * E], F, E), u = matvec(wu, &h[t * E], F, E);
            for (size_t i = 0; i < F; ++i) {
                const double xg = g[i];
                const double a_g = gemma ? 0.5 * xg * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (xg + 0.044715 * xg * xg * xg)))
                                         : xg / (1.0 + std::exp(-xg));
                act[t * F + i] = a_g * u[i];
            }
            Vec d = matvec(wd, &act[t * F], E, F);
            if (!post_ffn.empty()) rms_norm(d.data(), post_ffn, eps, E);
            std::copy(d.begin(), d.end(), mo.begin() + std::ptrdiff_t(t * E));
        }
        put(Hook::MlpAct, l, act);
        put(Hook::MlpOut, l, mo);
        for (size_t i = 0; i < x.size(); ++i) x[i] += mo[i];
        put(Hook::ResidPost, l, x);
    }
    const Vec out_norm = tensor(w.output_norm), head = tensor(w.output);
    Vec fn = x, logits(n * V);
    for (size_t t = 0; t < n; ++t) {
        rms_norm(&fn[t * E], out_norm, eps, E);
        const Vec lt = matvec(head, &fn[t * E], V, E);
        const double cap = hp.final_logit_softcap;
        for (size_t i = 0; i < V; ++i) logits[t * V + i] = cap > 0 ? cap * std::tanh(lt[i] / cap) : lt[i];
    }
    put(Hook::FinalNorm, -1, fn);
    put(Hook::Logits, -1, logits);
    return out;
}

}  // namespace lmscope::testing
