#include "trace/hooks.h"

#include "util/error.h"
#include "util/parse_list.h"

#include <algorithm>
#include <array>

namespace lmscope::trace {

namespace {

constexpr std::array<std::string_view, kHookCount> kIds{
    "resid_pre", "attn_in", "q", "k", "v", "q_rot", "k_rot", "scores", "pattern", "z", "attn_out",
    "resid_mid", "mlp_in", "mlp_act", "mlp_out", "resid_post", "final_norm", "logits",
};

std::string known_names() {
    std::string s;
    for (int i = 0; i < kHookCount; ++i) {
        const Hook h = Hook(i);
        s += (i ? ", " : "") + (is_layer_hook(h) ? "blk.L." + std::string(kIds[size_t(i)]) : std::string(kIds[size_t(i)]));
    }
    return s;
}

}  // namespace

bool is_layer_hook(Hook h) { return h != Hook::FinalNorm && h != Hook::Logits; }

std::string_view hook_id(Hook h) { return kIds[size_t(h)]; }

std::string hook_name(const HookPoint& p) {
    if (!is_layer_hook(p.hook)) return std::string(hook_id(p.hook));
    return "blk." + std::to_string(p.layer) + "." + std::string(hook_id(p.hook));
}

HookPoint parse_hook_point(std::string_view text, int32_t n_layer) {
    const std::string shown(text);
    auto id_of = [](std::string_view name) -> int {
        for (int i = 0; i < kHookCount; ++i)
            if (kIds[size_t(i)] == name) return i;
        return -1;
    };
    if (!text.starts_with("blk.")) {
        const int i = id_of(text);
        if (i >= 0 && !is_layer_hook(Hook(i))) return {Hook(i), -1};
        throw UsageError("hook '" + shown + "': " +
                         (i >= 0 ? "a layer hook needs its layer (blk.L." + shown + ")"
                                 : "not a hook name (known: " + known_names() + ")"));
    }
    const std::string_view rest = text.substr(4);
    const size_t dot = rest.find('.');
    const std::string_view digits = rest.substr(0, dot);
    const std::optional<int32_t> parsed = parse_integer<int32_t>(digits);
    if (dot == std::string_view::npos || !parsed)
        throw UsageError("hook '" + shown + "': expected blk.L.NAME with a layer number L");
    const int32_t layer = *parsed;
    if (layer < 0 || layer >= n_layer)
        throw UsageError("hook '" + shown + "': layer " + std::string(digits) + " does not exist (0 .. " +
                         std::to_string(n_layer - 1) + ")");
    const int i = id_of(rest.substr(dot + 1));
    if (i < 0 || !is_layer_hook(Hook(i)))
        throw UsageError("hook '" + shown + "': '" + std::string(rest.substr(dot + 1)) +
                         "' is not a layer hook (known: " + known_names() + ")");
    return {Hook(i), layer};
}

std::vector<HookPoint> parse_hook_list(std::string_view text, int32_t n_layer) {
    return parse_list<HookPoint>(text, [&](std::string_view item) { return parse_hook_point(item, n_layer); },
                                 Repeats::Drop);
}

std::vector<int64_t> hook_shape(Hook h, const HookDims& d, int64_t n, int64_t n_keys, int64_t n_out) {
    switch (h) {
    case Hook::Q:
    case Hook::QRot:
    case Hook::Z: return {n, d.n_head, d.head_dim};
    case Hook::K:
    case Hook::V:
    case Hook::KRot: return {n, d.n_kv, d.head_dim};
    case Hook::Scores:
    case Hook::Pattern: return {d.n_head, n, n_keys};
    case Hook::MlpAct: return {n, d.n_ff};
    case Hook::FinalNorm: return {n_out, d.n_embd};
    case Hook::Logits: return {n_out, d.n_vocab};
    default: return {n, d.n_embd};
    }
}

}  // namespace lmscope::trace
