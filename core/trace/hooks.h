// Named hook points: the values between the matrices of one forward step, in one vocabulary
// (TransformerLens' names, which people know) for the capture policy, the trace, the CLI and
// the views. Per layer L ("blk.L.NAME"), in the order the block computes them:
//   resid_pre   the residual stream entering the layer           [n, n_embd]
//   attn_in     after the attention norm                         [n, n_embd]
//   q, k, v     the projections (+ biases, after QK-norm where the recipe has it), before RoPE
//                                                                 q [n, n_head, hd]; k, v [n, n_kv, hd]
//   q_rot, k_rot  q and k after RoPE (equal to q, k on NoPE layers)
//   scores      q . k_j * scale, -inf where masked (the future, outside a local layer's window)
//                                                                 [n_head, n, n_keys]
//   pattern     softmax(scores): the attention weights          [n_head, n, n_keys]
//   z           each head's weighted sum of values               [n, n_head, hd]
//   attn_out    Wo concat(z) (after the post-attention norm where the recipe has it)  [n, n_embd]
//   resid_mid   resid_pre + attn_out                             [n, n_embd]
//   mlp_in      after the FFN norm                               [n, n_embd]
//   mlp_act     act(gate) * up, before the down projection       [n, n_ff]
//   mlp_out     Wdown mlp_act (after the post-FFN norm where the recipe has it)  [n, n_embd]
//   resid_post  resid_mid + mlp_out                              [n, n_embd]
// and after the last layer: final_norm [n_out, n_embd], logits [n_out, n_vocab], where n_out
// is the rows whose logits the step computes (every row, or only the last).
// n is the rows fed this step, n_keys = pos0 + n the keys the last row sees.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lmscope::trace {

enum class Hook : uint8_t {
    ResidPre, AttnIn, Q, K, V, QRot, KRot, Scores, Pattern, Z, AttnOut, ResidMid, MlpIn, MlpAct,
    MlpOut, ResidPost,  // per layer
    FinalNorm, Logits,  // after the last layer
};
inline constexpr int kHookCount = 18;

struct HookPoint {
    Hook hook = Hook::ResidPre;
    int32_t layer = -1;  // layer hooks: [0, n_layer); final_norm and logits: -1
    bool operator==(const HookPoint&) const = default;
};

bool is_layer_hook(Hook h);
std::string_view hook_id(Hook h);           // "resid_pre", ..., "logits"
std::string hook_name(const HookPoint& p);  // "blk.3.q", "final_norm"
// Parses "blk.L.NAME", "final_norm" or "logits" for a model of n_layer layers. Throws
// UsageError naming the text and what is wrong ("blk.9.q: layer 9 does not exist (0 .. 3)").
HookPoint parse_hook_point(std::string_view text, int32_t n_layer);
// A comma-separated list of them (duplicates dropped, the order kept).
std::vector<HookPoint> parse_hook_list(std::string_view text, int32_t n_layer);

// The sizes a hook's shape is made of.
struct HookDims {
    int32_t n_embd = 0, n_head = 0, n_kv = 0, head_dim = 0, n_ff = 0, n_vocab = 0;
};
// The shape (outer dimension first) of hook h over n rows with n_keys keys (n_out rows for
// final_norm and logits), as listed above.
std::vector<int64_t> hook_shape(Hook h, const HookDims& d, int64_t n, int64_t n_keys, int64_t n_out);

// One captured hook.
struct HookTensor {
    HookPoint at;
    std::vector<int64_t> shape;
    std::vector<float> data;  // row-major over shape
};

}  // namespace lmscope::trace
