#include "engine/layer_probe.h"

#include "engine/model.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace lmscope::engine {

namespace {

using trace::Hook;

// The layer's hooks the rows hold, in LayerRows' order.
constexpr Hook kLayerHooks[] = {Hook::ResidPre, Hook::AttnIn, Hook::Q,       Hook::QRot,     Hook::Z,
                                Hook::K,        Hook::KRot,   Hook::V,       Hook::AttnOut,  Hook::ResidMid,
                                Hook::MlpIn,    Hook::MlpAct, Hook::MlpOut,  Hook::ResidPost};
constexpr Hook kStreamHooks[] = {Hook::ResidPre, Hook::AttnOut, Hook::MlpOut};  // StreamPart order

std::vector<float>* buffer_of(LayerRows& r, Hook h) {
    switch (h) {
    case Hook::ResidPre: return &r.resid_pre;
    case Hook::AttnIn: return &r.attn_in;
    case Hook::Q: return &r.q;
    case Hook::QRot: return &r.q_rot;
    case Hook::Z: return &r.z;
    case Hook::K: return &r.k;
    case Hook::KRot: return &r.k_rot;
    case Hook::V: return &r.v;
    case Hook::AttnOut: return &r.attn_out;
    case Hook::ResidMid: return &r.resid_mid;
    case Hook::MlpIn: return &r.mlp_in;
    case Hook::MlpAct: return &r.mlp_act;
    case Hook::MlpOut: return &r.mlp_out;
    case Hook::ResidPost: return &r.resid_post;
    default: return nullptr;
    }
}

// Floats per position of a layer hook.
size_t row_width(Hook h, const trace::HookDims& d) {
    const std::vector<int64_t> shape = trace::hook_shape(h, d, 1, 1, 1);
    size_t w = 1;
    for (int64_t s : shape) w *= size_t(s);
    return w;
}

float norm(std::span<const float> x) {
    double s = 0.0;
    for (float v : x) s += double(v) * double(v);
    return float(std::sqrt(s));
}

}  // namespace

LayerProbe::LayerProbe(Backend& backend) : backend_(backend) {}

int32_t LayerProbe::common_prefix(std::span<const int32_t> tokens, std::span<const std::vector<LayerHead>> ablate,
                                  int32_t layer) const {
    if (layer != rows_.layer) return 0;
    const int32_t held = std::min<int32_t>(rows_.n, int32_t(tokens.size()));
    int32_t n = 0;
    while (n < held && tokens[size_t(n)] == tokens_[size_t(n)] &&
           (ablate.empty() ? ablate_[size_t(n)].empty() : ablate[size_t(n)] == ablate_[size_t(n)]))
        ++n;
    return n;
}

void LayerProbe::truncate(int32_t n) {
    const trace::HookDims& d = rows_.dims;
    for (Hook h : kLayerHooks) buffer_of(rows_, h)->resize(size_t(n) * row_width(h, d));
    rows_.stream.resize(size_t(n) * size_t(backend_.model().spec().n_layer()) * 3);
    rows_.n = n;
    tokens_.resize(size_t(n));
    ablate_.resize(size_t(n));
    backend_.kv_truncate(std::min(n, backend_.kv_tokens()));
    // A sliding-window layer may have forgotten positions before n: feed them again, untraced.
    const int32_t kept = backend_.kv_tokens();
    std::vector<float> logits(size_t(backend_.model().spec().n_vocab()));
    for (int32_t p = kept; p < n;) {
        int32_t e = p + 1;
        while (e < n && e - p < kChunkRows && ablate_[size_t(e)] == ablate_[size_t(p)]) ++e;
        backend_.forward({.tokens = std::span(tokens_).subspan(size_t(p), size_t(e - p)), .pos0 = p,
                          .logits = logits, .ablate = ablate_[size_t(p)]});
        p = e;
    }
}

void LayerProbe::feed(std::span<const int32_t> tokens, int32_t pos0, std::span<const LayerHead> ablate,
                      const CancelToken* cancel) {
    const model::ModelSpec& s = backend_.model().spec();
    const int32_t n_layer = s.n_layer(), n = int32_t(tokens.size());
    trace::CapturePolicy policy;
    policy.mode = trace::CaptureMode::None;
    for (Hook h : kLayerHooks) policy.hooks.push_back({h, rows_.layer});
    for (int32_t l = 0; l < n_layer; ++l)
        for (Hook h : kStreamHooks)
            if (l != rows_.layer) policy.hooks.push_back({h, l});  // the probed layer's are asked for above

    trace::StepCapture capture;
    std::vector<float> logits(size_t(s.n_vocab()));
    backend_.forward({.tokens = tokens, .pos0 = pos0, .policy = policy, .capture = &capture, .logits = logits,
                      .cancel = cancel, .ablate = ablate});

    for (Hook h : kLayerHooks) {
        const trace::HookTensor* t = capture.hook({h, rows_.layer});
        std::vector<float>& dst = *buffer_of(rows_, h);
        dst.insert(dst.end(), t->data.begin(), t->data.end());
    }
    const size_t E = size_t(s.n_embd());
    rows_.stream.resize(size_t(pos0 + n) * size_t(n_layer) * 3);
    for (int32_t l = 0; l < n_layer; ++l)
        for (int part = 0; part < 3; ++part) {
            const trace::HookTensor* t = capture.hook({kStreamHooks[part], l});
            for (int32_t r = 0; r < n; ++r)
                rows_.stream[(size_t(pos0 + r) * size_t(n_layer) + size_t(l)) * 3 + size_t(part)] =
                    norm(std::span<const float>(t->data).subspan(size_t(r) * E, E));
        }
    rows_.n = pos0 + n;
}

const LayerRows& LayerProbe::run(std::span<const int32_t> tokens, std::span<const std::vector<LayerHead>> ablate,
                                 int32_t layer, const CancelToken* cancel) {
    const model::ModelSpec& s = backend_.model().spec();
    if (layer < 0 || layer >= s.n_layer())
        throw UsageError("layer probe: layer " + std::to_string(layer) + " does not exist (0 .. " +
                         std::to_string(s.n_layer() - 1) + ")");
    if (!ablate.empty() && ablate.size() != tokens.size())
        throw UsageError("layer probe: " + std::to_string(ablate.size()) + " ablation sets for " +
                         std::to_string(tokens.size()) + " tokens");
    if (int64_t(tokens.size()) > int64_t(backend_.n_ctx()))
        throw UsageError("layer probe: " + std::to_string(tokens.size()) + " tokens exceed the context of " +
                         std::to_string(backend_.n_ctx()));
    for (size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i] < 0 || tokens[i] >= s.n_vocab())
            throw UsageError("layer probe: token id " + std::to_string(tokens[i]) + " at index " + std::to_string(i) +
                             " is outside the vocabulary [0, " + std::to_string(s.n_vocab()) + ")");

    const int32_t keep = common_prefix(tokens, ablate, layer);
    if (layer != rows_.layer) {
        rows_ = LayerRows{};
        rows_.layer = layer;
        rows_.dims = {s.n_embd(), s.n_head(), s.n_head_kv(), s.head_dim(), s.n_ff(), s.n_vocab()};
        tokens_.clear();
        ablate_.clear();
    }
    truncate(keep);
    static const std::vector<LayerHead> kNone;
    const int32_t n = int32_t(tokens.size());
    for (int32_t p = keep; p < n;) {
        check_cancel(cancel);
        const std::vector<LayerHead>& off = ablate.empty() ? kNone : ablate[size_t(p)];
        int32_t e = p + 1;
        while (e < n && e - p < kChunkRows && (ablate.empty() || ablate[size_t(e)] == off)) ++e;
        feed(tokens.subspan(size_t(p), size_t(e - p)), p, off, cancel);
        tokens_.insert(tokens_.end(), tokens.begin() + p, tokens.begin() + e);
        ablate_.insert(ablate_.end(), size_t(e - p), off);
        p = e;
    }
    return rows_;
}

}  // namespace lmscope::engine
