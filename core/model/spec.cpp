#include "model/spec.h"

#include "gguf/quant.h"
#include "model/chat_template.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace lmscope::model {

std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

int32_t ModelSpec::n_ctx_train() const {
    return int32_t(std::min<uint64_t>(hp.context_length, uint64_t(std::numeric_limits<int32_t>::max())));
}

namespace {

// HParams::describe checks the angles of the metadata's bases and scaling factor; with
// rope_freqs.weight's factors (or the local layers' default base) a table may still overflow:
// the factors are to blame, else the scaling factor.
void check_angles(const gguf::File& f, const ModelSpec& s, const std::vector<float>& table, bool has_factors) {
    const int32_t pair = first_infinite_angle(table, s.hp.context_length);
    if (pair >= 0)
        throw FormatError(f.path(), has_factors ? "rope_freqs.weight" : s.hp.architecture + ".rope.scaling.factor",
                          infinite_angle_reason(pair, s.hp.context_length));
}

// rope_freqs.weight (Llama 3.x): [n_rot / 2] positive divisors; empty when absent.
std::vector<float> read_rope_factors(const gguf::File& f, int32_t half) {
    const gguf::TensorInfo* rf = f.find_tensor("rope_freqs.weight");
    if (!rf) return {};
    if (rf->n_dims != 1 || rf->ne[0] != half)
        throw FormatError(f.path(), "rope_freqs.weight",
                          "shape " + rf->shape_string() + ", expected [" + std::to_string(half) + "]");
    if (!gguf::is_supported(rf->type))
        throw UnsupportedError(f.path() + ": rope_freqs.weight: tensor type " +
                               std::string(gguf::type_name(rf->type)) + " is not supported");
    std::vector<float> factors = gguf::dequantize(*rf);
    for (int32_t i = 0; i < half; ++i) {
        const float fac = factors[size_t(i)];
        if (!std::isfinite(fac) || fac <= 0.0f)
            throw FormatError(f.path(), "rope_freqs.weight",
                              "factor " + std::to_string(i) + " is " + std::to_string(fac) + ", expected > 0");
    }
    return factors;
}

}  // namespace

ModelSpec ModelSpec::from_file(const gguf::File& f) {
    ModelSpec s;
    s.hp = HParams::from_file(f);
    const std::string a = s.hp.architecture + ".";
    const Architecture* arch = find_architecture(s.hp.architecture);
    if (!arch)  // HParams::from_file refuses these first; kept for a clear message regardless
        throw UnsupportedError(f.path() + ": general.architecture: unsupported architecture '" +
                               s.hp.architecture + "'");
    s.arch = *arch;
    s.tied_output = f.find_tensor("output.weight") == nullptr;
    // A session renders chats with it: a template that is not text is refused here, where
    // info, dump and run all look, not only when a session starts.
    (void)chat_template_text(f);

    double linear = 1.0;
    if (s.hp.rope_scaling && s.hp.rope_scaling->type != "none") {
        if (s.hp.rope_scaling->type != "linear")
            throw UnsupportedError(f.path() + ": " + a + "rope.scaling.type '" + s.hp.rope_scaling->type +
                                   "' is not supported (none and linear are)");
        linear = s.hp.rope_scaling->factor;
        if (!std::isfinite(linear) || linear <= 0.0)
            throw FormatError(f.path(), a + "rope.scaling.factor", "must be a positive finite number");
    }
    if (!std::isfinite(s.hp.rope_freq_base) || s.hp.rope_freq_base <= 0.0)
        throw FormatError(f.path(), a + "rope.freq_base", "must be a positive finite number");
    for (const char* name : {"rope_factors_long.weight", "rope_factors_short.weight"})
        if (f.find_tensor(name))
            throw UnsupportedError(f.path() + ": " + name + ": long-context RoPE scaling (LongRoPE) is not supported");
    const std::vector<float> factors = read_rope_factors(f, s.n_rot() / 2);
    s.has_rope_freqs = !factors.empty();
    s.rope_inv_freq.push_back(model::rope_inv_freq(s.hp.rope_freq_base, s.n_rot(), linear, factors));
    check_angles(f, s, s.rope_inv_freq.back(), !factors.empty());

    // The layer plan: sliding windows on the local layers (with their own RoPE base where the
    // recipe says so), no RoPE on the architecture's NoPE layers.
    s.layers.assign(size_t(s.n_layer()), LayerPlan{});
    if (s.arch.swa_pattern > 0) {
        const uint32_t pattern = s.hp.sliding_window_pattern.value_or(s.arch.swa_pattern);
        const double base_swa = s.hp.rope_freq_base_swa.value_or(10000.0);
        if (!std::isfinite(base_swa) || base_swa <= 0.0)
            throw FormatError(f.path(), a + "rope.freq_base_swa", "must be a positive finite number");
        if (s.arch.swa_rope_base) {
            s.rope_inv_freq.push_back(model::rope_inv_freq(base_swa, s.n_rot(), linear, factors));
            check_angles(f, s, s.rope_inv_freq.back(), !factors.empty());
        }
        const int32_t table = s.arch.swa_rope_base ? 1 : 0;
        for (uint32_t il = 0; il < uint32_t(s.n_layer()); ++il)
            if (il % pattern < pattern - 1)
                s.layers[il] = {.rope = true, .rope_table = table, .window = int32_t(s.hp.sliding_window)};
    }
    if (s.arch.nope_every > 0)
        for (uint32_t il = 0; il < uint32_t(s.n_layer()); ++il)
            if ((il + 1) % s.arch.nope_every == 0) s.layers[il].rope = false;

    s.embed_scale = s.arch.embed_scale ? float(std::sqrt(double(s.n_embd()))) : 1.0f;
    // Gemma 3 27B (62 layers) and Gemma 2 27B (46 layers) scale queries by 1/sqrt(n_embd /
    // n_head), every other model by 1/sqrt(head_dim).
    const bool gemma27b = (s.hp.architecture == "gemma3" && s.n_layer() == 62) ||
                          (s.hp.architecture == "gemma2" && s.n_layer() == 46);
    s.attn_scale = float(1.0 / std::sqrt(double(gemma27b ? s.n_embd() / s.n_head() : s.head_dim())));
    s.final_softcap = float(s.hp.final_logit_softcap);
    s.attn_softcap = float(s.hp.attn_logit_softcap);
    return s;
}

kv::Shape ModelSpec::kv_shape() const {
    kv::Shape k{hp.n_layer, hp.n_head, hp.n_head_kv, hp.head_dim};
    for (const LayerPlan& p : layers)
        if (p.window > 0) {
            ++k.n_local;
            k.window = std::max(k.window, uint64_t(p.window));  // one window per model (sliding_window)
        }
    return k;
}

std::vector<TensorSpec> ModelSpec::expected_tensors() const {
    const int64_t E = n_embd(), Q = int64_t(n_head()) * head_dim(), KV = int64_t(n_head_kv()) * head_dim();
    const int64_t V = n_vocab(), F = n_ff(), HD = head_dim();
    std::vector<TensorSpec> t;
    t.push_back({"token_embd.weight", {E, V}});
    t.push_back({"output_norm.weight", {E}});
    if (!tied_output) t.push_back({"output.weight", {E, V}});
    for (int32_t l = 0; l < n_layer(); ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        t.push_back({b + "attn_norm.weight", {E}});
        if (arch.fused_qkv) {
            t.push_back({b + "attn_qkv.weight", {E, Q + 2 * KV}});
        } else {
            t.push_back({b + "attn_q.weight", {E, Q}});
            t.push_back({b + "attn_k.weight", {E, KV}});
            t.push_back({b + "attn_v.weight", {E, KV}});
        }
        t.push_back({b + "attn_output.weight", {Q, E}});
        if (arch.qkv_bias) {
            t.push_back({b + "attn_q.bias", {Q}});
            t.push_back({b + "attn_k.bias", {KV}});
            t.push_back({b + "attn_v.bias", {KV}});
        }
        if (arch.qk_norm) {
            t.push_back({b + "attn_q_norm.weight", {HD}});
            t.push_back({b + "attn_k_norm.weight", {HD}});
        }
        if (arch.post_norms) t.push_back({b + "post_attention_norm.weight", {E}});
        t.push_back({b + "ffn_norm.weight", {E}});
        if (arch.fused_gate_up) {
            t.push_back({b + "ffn_up.weight", {E, 2 * F}});
        } else {
            t.push_back({b + "ffn_gate.weight", {E, F}});
            t.push_back({b + "ffn_up.weight", {E, F}});
        }
        t.push_back({b + "ffn_down.weight", {F, E}});
        if (arch.post_norms) t.push_back({b + "post_ffw_norm.weight", {E}});
    }
    return t;
}

std::vector<RecipeFeature> recipe_features(const ModelSpec& s) {
    using K = RecipeFeature::Kind;
    std::vector<RecipeFeature> f;
    if (int64_t(s.n_head()) * s.head_dim() != s.n_embd())
        f.push_back({K::WideHeads, double(s.n_head()), double(s.head_dim()), double(s.n_embd())});
    if (s.arch.fused_qkv) f.push_back({K::FusedQkv});
    if (s.arch.qkv_bias) f.push_back({K::QkvBias});
    if (s.arch.qk_norm) f.push_back({K::QkNorm});
    f.push_back({s.neox() ? K::RopeNeoX : K::RopeNormal, s.hp.rope_freq_base});
    if (s.has_rope_freqs) f.push_back({K::RopeFreqs});
    const auto nope = std::count_if(s.layers.begin(), s.layers.end(), [](const LayerPlan& p) { return !p.rope; });
    if (nope > 0) f.push_back({K::NoRope, double(nope), double(s.n_layer())});
    const auto local = std::count_if(s.layers.begin(), s.layers.end(), [](const LayerPlan& p) { return p.window > 0; });
    if (local > 0)
        f.push_back({K::SlidingWindow, double(s.hp.sliding_window), double(local), double(s.n_layer()),
                     s.rope_inv_freq.size() > 1 ? s.hp.rope_freq_base_swa.value_or(10000.0) : 0.0});
    if (s.arch.post_norms) f.push_back({K::PostNorms});
    f.push_back({s.arch.ffn_act == FfnActivation::GeluTanh ? K::GeGlu : K::SwiGlu});
    if (s.embed_scale != 1.0f) f.push_back({K::EmbedScale, double(s.n_embd())});
    if (s.arch.fused_gate_up) f.push_back({K::FusedGateUp});
    if (s.attn_softcap > 0) f.push_back({K::AttnSoftcap, double(s.attn_softcap)});
    if (s.final_softcap > 0) f.push_back({K::FinalSoftcap, double(s.final_softcap)});
    return f;
}

std::string recipe_text(const ModelSpec& s) {
    using K = RecipeFeature::Kind;
    auto num = [](double v) {
        std::ostringstream o;
        o << v;
        return o.str();
    };
    std::string out;
    for (const RecipeFeature& f : recipe_features(s)) {
        std::string w;
        switch (f.kind) {
        case K::WideHeads: w = num(f.a) + " x " + num(f.b) + " heads != " + num(f.c); break;
        case K::QkvBias: w = "q/k/v biases"; break;
        case K::QkNorm: w = "QK-norm"; break;
        case K::RopeNormal: w = "RoPE (adjacent pairs, base " + num(f.a) + ")"; break;
        case K::RopeNeoX: w = "NeoX RoPE (base " + num(f.a) + ")"; break;
        case K::RopeFreqs: w = "rope_freqs factors"; break;
        case K::NoRope: w = "no RoPE on " + num(f.a) + " of " + num(f.b) + " layers"; break;
        case K::SlidingWindow:
            w = "sliding window " + num(f.a) + " on " + num(f.b) + " of " + num(f.c) + " layers";
            if (f.d > 0) w += " (RoPE base " + num(f.d) + " there)";
            break;
        case K::PostNorms: w = "post-attention and post-FFN norms"; break;
        case K::SwiGlu: w = "SwiGLU"; break;
        case K::GeGlu: w = "GeGLU (GELU tanh)"; break;
        case K::EmbedScale: w = "embeddings x sqrt(" + num(f.a) + ")"; break;
        case K::FinalSoftcap: w = "logits soft-capped at " + num(f.a); break;
        case K::AttnSoftcap: w = "attention scores soft-capped at " + num(f.a); break;
        case K::FusedQkv: w = "fused q/k/v matrix"; break;
        case K::FusedGateUp: w = "fused gate/up matrix"; break;
        }
        out += (out.empty() ? "" : ", ") + w;
    }
    return out;
}

}  // namespace lmscope::model
