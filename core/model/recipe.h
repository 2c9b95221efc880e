// Architecture recipes: what each architecture lmscope runs changes in the common decoder
// block (one row of the table in recipe.cpp), and the per-layer plan that a model's metadata
// makes of its row. Adding an architecture is a new row here (and its tensors, if it has new
// ones, in spec.cpp's expected_tensors); engine/block.cpp orders a layer's operations by the row
// and the plan, over the operations both backends implement.
//
// The common block (llama), per layer, x the residual stream [n][n_embd]:
//   h = rmsnorm(x) * attn_norm
//   q, k, v = Wq h (+bq), Wk h (+bk), Wv h (+bv)        [n_head, hd], [n_kv, hd], [n_kv, hd]
//   (fused_qkv: one matrix attn_qkv whose rows are Wq's, then Wk's, then Wv's)
//   (qk_norm) q, k = rmsnorm over each head * attn_q_norm / attn_k_norm
//   (layer.rope) q, k = rope(q, k, pos, the layer's frequency table)
//   s_j = q . k_j * attn_scale ; (attn_softcap c > 0) s_j = c * tanh(s_j / c)
//   z = softmax(s_j + mask_j) . v_j   (mask: the future, and outside layer.window)
//   a = Wo concat(z) ; (post_norms) a = rmsnorm(a) * post_attention_norm ; x += a
//   h = rmsnorm(x) * ffn_norm
//   f = Wdown (act(Wgate h) * Wup h) ; (post_norms) f = rmsnorm(f) * post_ffw_norm ; x += f
//   (fused_gate_up: one matrix ffn_up whose rows are Wgate's, then Wup's)
// then logits = Wout rmsnorm(x) * output_norm, soft-capped when final_softcap > 0.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lmscope::model {

enum class RopeStyle : uint8_t {
    Normal,  // rotate adjacent pairs (2i, 2i+1): llama, smollm3
    NeoX,    // rotate pairs (i, i + n_rot/2): qwen2, qwen3, gemma2, gemma3, phi3
};

// The gated feed-forward's activation: act(gate) * up.
enum class FfnActivation : uint8_t {
    SiLU,      // SwiGLU: g / (1 + exp(-g))
    GeluTanh,  // GeGLU: 0.5 g (1 + tanh(sqrt(2/pi) (g + 0.044715 g^3)))
};

// One architecture: a row of the recipe table.
struct Architecture {
    std::string_view name;        // general.architecture
    RopeStyle rope_style = RopeStyle::Normal;
    bool qkv_bias = false;        // attn_q.bias, attn_k.bias, attn_v.bias
    bool qk_norm = false;         // attn_q_norm.weight, attn_k_norm.weight [hd], before RoPE
    bool post_norms = false;      // post_attention_norm.weight, post_ffw_norm.weight [n_embd]
    bool fused_qkv = false;       // attn_qkv.weight [n_embd] x (n_head + 2 n_kv) * hd rows instead of attn_q/k/v
    bool fused_gate_up = false;   // ffn_up.weight [n_embd] x 2 n_ff rows (gate, then up) instead of ffn_gate + ffn_up
    FfnActivation ffn_act = FfnActivation::SiLU;
    bool embed_scale = false;     // embeddings multiplied by sqrt(n_embd)
    // Sliding-window attention: 0 = none; P = layer il is local (windowed) iff il % P < P - 1,
    // P read from {arch}.attention.sliding_window_pattern when present.
    uint32_t swa_pattern = 0;
    // Local layers rotate with their own base, rope.freq_base_swa (default 10000); false: with
    // rope.freq_base like the global ones.
    bool swa_rope_base = false;
    // No RoPE on layers with (il + 1) % nope_every == 0 (fixed by the architecture); 0 = none.
    uint32_t nope_every = 0;
};

// The row of `name`, or null when lmscope does not run that architecture.
const Architecture* find_architecture(std::string_view name);
// "llama, qwen2, qwen3, gemma2, gemma3, smollm3 and phi3" (for messages).
std::string supported_architectures_text();

// One layer's plan: what differs from layer to layer.
struct LayerPlan {
    bool rope = true;        // false: a NoPE layer (q and k are not rotated)
    int32_t rope_table = 0;  // ModelSpec::rope_inv_freq[rope_table]: 0 global base, 1 local (swa) base
    int32_t window = 0;      // 0: every earlier key; W > 0: query i sees key j iff i - j < W
};

}  // namespace lmscope::model
