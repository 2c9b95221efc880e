// Shared helpers of the engine tests: the fixture models and their reference runs.
#pragma once

#include "common/testing.h"
#include "engine/backend.h"
#include "engine/cpu_backend.h"
#include "engine/model.h"
#include "trace/capture.h"
#include "trace/hooks.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <span>
#include <string>
#include <vector>

namespace lmscope::testing {

// One reference run: ../shared/testdata/reference/MODEL.s1.*
struct ReferenceRun {
    std::string model_path;
    std::vector<int32_t> tokens;  // [n]
    std::vector<float> logits;    // [n][n_vocab]
    std::vector<float> attention; // [n_layer][n_head][n][n]
};

// Empty model_path when the test data is absent.
inline ReferenceRun load_reference(const std::string& model) {
    ReferenceRun r;
    const std::string gguf = testdata_file("models/" + model + ".gguf");
    const std::string json = testdata_file("reference/" + model + ".s1.json");
    if (gguf.empty() || json.empty()) return r;
    std::ifstream in(json);
    const nlohmann::json j = nlohmann::json::parse(in);
    r.tokens = j.at("prompt_tokens").get<std::vector<int32_t>>();
    r.logits = read_f32_file(testdata_file("reference/" + model + ".s1.logits.f32"));
    r.attention = read_f32_file(testdata_file("reference/" + model + ".s1.attn.f32"));
    r.model_path = gguf;
    return r;
}

// Logits of every position, fed all at once (prefill) or one token per step (decode).
inline std::vector<float> run_logits(engine::Backend& b, const std::vector<int32_t>& tokens, bool one_by_one) {
    const size_t V = size_t(b.model().spec().n_vocab());
    std::vector<float> logits(tokens.size() * V);
    if (!one_by_one) {
        b.forward({.tokens = tokens, .logits = logits, .all_logits = true});
        return logits;
    }
    for (size_t t = 0; t < tokens.size(); ++t)
        b.forward({.tokens = std::span(tokens).subspan(t, 1), .pos0 = int32_t(t), .logits = std::span(logits).subspan(t * V, V)});
    return logits;
}

// rms(actual - expected) / std(expected)
inline double rms_over_std(std::span<const float> actual, std::span<const float> expected) {
    const CompareResult c = compare(actual, expected, 1e30, 0.0);
    return c.expected_std > 0 ? c.rms / c.expected_std : c.rms;
}

// Full attention [n_layer][n_head][n][n] from a capture of a prefill at position 0.
inline std::vector<float> attention_cube(const trace::StepCapture& c) {
    const size_t n = size_t(c.n_rows);
    std::vector<float> out(size_t(c.n_layer) * size_t(c.n_head) * n * n, 0.0f);
    for (const trace::AttentionPlane& p : c.planes) {
        const size_t base = (size_t(p.at.layer) * size_t(c.n_head) + size_t(p.at.head)) * n * n;
        for (size_t i = 0; i < n * n && i < p.weights.size(); ++i) out[base + i] = p.weights[i];
    }
    return out;
}

// Every hook of every layer, then final_norm and logits.
inline std::vector<trace::HookPoint> every_hook(const engine::Backend& b) {
    std::vector<trace::HookPoint> hooks;
    for (int32_t l = 0; l < b.model().spec().n_layer(); ++l)
        for (int i = 0; i < trace::kHookCount; ++i)
            if (trace::is_layer_hook(trace::Hook(i))) hooks.push_back({trace::Hook(i), l});
    hooks.push_back({trace::Hook::FinalNorm, -1});
    hooks.push_back({trace::Hook::Logits, -1});
    return hooks;
}

struct Captured {
    trace::StepCapture capture;
    std::vector<float> logits;  // [n][n_vocab]
};

// One step of `tokens` at pos0 that copies out `hooks` (every row) and the logits of every row.
inline Captured run_hooks(engine::Backend& b, std::span<const int32_t> tokens, int32_t pos0,
                          std::vector<trace::HookPoint> hooks, std::span<const LayerHead> ablate = {},
                          std::span<const LayerSkip> skip = {}) {
    Captured c;
    trace::CapturePolicy p;
    p.mode = trace::CaptureMode::None;
    p.hooks = std::move(hooks);
    c.logits.resize(tokens.size() * size_t(b.model().spec().n_vocab()));
    b.forward({.tokens = tokens, .pos0 = pos0, .policy = p, .capture = &c.capture, .logits = c.logits,
               .all_logits = true, .ablate = ablate, .skip = skip});
    return c;
}

inline const trace::HookTensor& hook(const Captured& c, trace::Hook h, int32_t layer) {
    const trace::HookTensor* t = c.capture.hook({h, layer});
    if (!t) throw Error("hook " + trace::hook_name({h, layer}) + " was not captured");
    return *t;
}

inline double max_abs_diff(std::span<const float> a, std::span<const float> b) {
    double m = a.size() == b.size() ? 0.0 : INFINITY;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, double(std::fabs(a[i] - b[i])));
    return m;
}

}  // namespace lmscope::testing
