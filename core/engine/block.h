// The decoder block, written once: the recipe's steps in order (recipe.h gives the math) over
// the operations a backend implements. The CPU backend (cpu_backend.cpp) is the reference; the
// CUDA backend (gpu/cuda_backend.cpp) implements the same operations on the device, and its
// parity suite holds it to the CPU.
//
// A backend holds the step's buffers; the operations name them by role, rows [0, n) of the
// step (or of the CUDA segment):
//   x      [n][n_embd]     the residual stream
//   xn     [n][n_embd]     the normed rows fed to a block's matrices
//   q      [n][n_head][hd] queries; k, v [n][n_kv][hd] the rows' keys and values
//   z      [n][n_head][hd] each head's weighted sum of values
//   act    [n][n_ff]       act(gate) * up
//   out    [n][n_embd]     a block's projection (before it is added to x)
// Hook points (trace/hooks.h) are named where their value is complete; the backend copies out
// the ones the step asks for (scores and pattern inside its attention).
#pragma once

#include "model/spec.h"
#include "trace/hooks.h"
#include "util/types.h"

#include <cstdint>
#include <span>

namespace lmscope::engine {

enum class BlockNorm : uint8_t { Attn, Ffn };         // the layer's attn_norm, ffn_norm
enum class Projection : uint8_t { Attn, Ffn };        // z Wo, act Wdown (with post_attn_norm, post_ffn_norm)

class BlockOps {
public:
    virtual ~BlockOps() = default;
    // xn = rmsnorm(x) * the layer's attn_norm or ffn_norm
    virtual void norm_in(int32_t layer, BlockNorm which) = 0;
    // q, k, v = xn Wq, Wk, Wv, plus the layer's biases when it has them
    virtual void qkv(int32_t layer) = 0;
    // each head of q and k: rmsnorm over head_dim * attn_q_norm / attn_k_norm
    virtual void qk_norm(int32_t layer) = 0;
    // q and k rotated at their rows' positions with frequency table `table` (ModelSpec::rope_inv_freq)
    virtual void rope(int32_t table) = 0;
    // k and v of the rows into the layer's KV cache
    virtual void store_kv(int32_t layer) = 0;
    // z = softmax(q k^T * scale, masked: the future, and keys outside `window` when > 0) v, over
    // the cache, with the attention capture the step asks for (planes, summaries, scores, pattern)
    virtual void attention(int32_t layer, int32_t window) = 0;
    // z of `head` = 0 in every row (the head switched off)
    virtual void zero_head(int32_t head) = 0;
    // out = z Wo (Attn) or act Wdown (Ffn)
    virtual void project(int32_t layer, Projection which) = 0;
    // out = rmsnorm(out) * the layer's post_attn_norm (Attn) or post_ffn_norm (Ffn)
    virtual void post_norm(int32_t layer, Projection which) = 0;
    // x += out
    virtual void add_out() = 0;
    // out = 0 (a skipped sub-layer's output, for its hook)
    virtual void clear_out() = 0;
    // x += z Wo or act Wdown (post-normed when post_norm) in as few passes as the backend can;
    // out is not kept
    virtual void project_add(int32_t layer, Projection which, bool post_norm) = 0;
    // act = act(xn Wgate) * (xn Wup)
    virtual void gate_up(int32_t layer, model::FfnActivation act) = 0;
    // Whether the step captures hook h of `layer`, and the copy of its value when it does.
    virtual bool wants(trace::Hook h, int32_t layer) const = 0;
    virtual void hook(trace::Hook h, int32_t layer) = 0;
};

// The interventions of a step (ForwardRequest::ablate, ::skip).
struct Interventions {
    std::span<const LayerHead> heads_off;  // their z is zero
    std::span<const LayerSkip> skipped;    // their output is not added
};

// One layer of the model over ops, per spec's recipe and layer plan, with this layer's share of
// the interventions.
void run_block(BlockOps& ops, const model::ModelSpec& spec, int32_t layer, const Interventions& iv);

}  // namespace lmscope::engine
