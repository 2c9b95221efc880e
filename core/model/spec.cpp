#include "model/spec.h"

#include "gguf/quant.h"
#include "model/chat_template.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lmscope::model {

std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

int32_t ModelSpec::n_ctx_train() const {
    return int32_t(std::min<uint64_t>(hp.context_length, uint64_t(std::numeric_limits<int32_t>::max())));
}

ModelSpec ModelSpec::from_file(const gguf::File& f) {
    ModelSpec s;
    s.hp = HParams::from_file(f);
    const std::string a = s.hp.architecture + ".";
    if (s.hp.architecture == "qwen2") {
        s.arch = Arch::Qwen2;
        s.rope_style = RopeStyle::NeoX;
        s.qkv_bias = true;
    } else {
        s.arch = Arch::Llama;
        s.rope_style = RopeStyle::Normal;
    }
    s.tied_output = f.find_tensor("output.weight") == nullptr;
    // A session renders chats with it: a template that is not text is refused here, where
    // info, dump and run all look, not only when a session starts.
    (void)chat_template_text(f);

    // RoPE frequencies: base^(-2i/n_rot), divided by a linear scaling factor and by the
    // per-pair factors of rope_freqs.weight (Llama 3.x).
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
    const int32_t half = s.n_rot() / 2;
    s.rope_inv_freq.resize(size_t(half));
    for (int32_t i = 0; i < half; ++i)
        s.rope_inv_freq[size_t(i)] =
            float(std::pow(s.hp.rope_freq_base, -2.0 * i / double(s.n_rot())) / linear);
    if (const gguf::TensorInfo* rf = f.find_tensor("rope_freqs.weight")) {
        if (rf->n_dims != 1 || rf->ne[0] != half)
            throw FormatError(f.path(), "rope_freqs.weight",
                              "shape " + rf->shape_string() + ", expected [" + std::to_string(half) + "]");
        if (!gguf::is_supported(rf->type))
            throw UnsupportedError(f.path() + ": rope_freqs.weight: tensor type " +
                                   std::string(gguf::type_name(rf->type)) + " is not supported");
        const std::vector<float> factors = gguf::dequantize(*rf);
        for (int32_t i = 0; i < half; ++i) {
            const float fac = factors[size_t(i)];
            if (!std::isfinite(fac) || fac <= 0.0f)
                throw FormatError(f.path(), "rope_freqs.weight",
                                  "factor " + std::to_string(i) + " is " + std::to_string(fac) + ", expected > 0");
            s.rope_inv_freq[size_t(i)] /= fac;
        }
        s.has_rope_freqs = true;
    }
    return s;
}

std::vector<TensorSpec> ModelSpec::expected_tensors() const {
    const int64_t E = n_embd(), Q = int64_t(n_head()) * head_dim(), KV = int64_t(n_head_kv()) * head_dim();
    const int64_t V = n_vocab(), F = n_ff();
    std::vector<TensorSpec> t;
    t.push_back({"token_embd.weight", {E, V}});
    t.push_back({"output_norm.weight", {E}});
    if (!tied_output) t.push_back({"output.weight", {E, V}});
    for (int32_t l = 0; l < n_layer(); ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        t.push_back({b + "attn_norm.weight", {E}});
        t.push_back({b + "attn_q.weight", {E, Q}});
        t.push_back({b + "attn_k.weight", {E, KV}});
        t.push_back({b + "attn_v.weight", {E, KV}});
        t.push_back({b + "attn_output.weight", {Q, E}});
        if (qkv_bias) {
            t.push_back({b + "attn_q.bias", {Q}});
            t.push_back({b + "attn_k.bias", {KV}});
            t.push_back({b + "attn_v.bias", {KV}});
        }
        t.push_back({b + "ffn_norm.weight", {E}});
        t.push_back({b + "ffn_gate.weight", {E, F}});
        t.push_back({b + "ffn_up.weight", {E, F}});
        t.push_back({b + "ffn_down.weight", {F, E}});
    }
    return t;
}

}  // namespace lmscope::model
