#include "engine/block.h"

namespace lmscope::engine {

namespace {

// x += proj(in) (post-normed when the recipe says so), with hook `out` on the projection and
// hook `sum` on x afterwards. The projection is kept apart only when its hook is asked for.
void residual(BlockOps& ops, int32_t l, Projection which, bool post_norm, trace::Hook out, trace::Hook sum) {
    if (ops.wants(out, l)) {
        ops.project(l, which);
        if (post_norm) ops.post_norm(l, which);
        ops.hook(out, l);
        ops.add_out();
    } else {
        ops.project_add(l, which, post_norm);
    }
    ops.hook(sum, l);
}

}  // namespace

void run_block(BlockOps& ops, const model::ModelSpec& spec, int32_t l, std::span<const LayerHead> ablate) {
    using trace::Hook;
    const model::Architecture& arch = spec.arch;
    const model::LayerPlan& plan = spec.layers[size_t(l)];

    // attention
    ops.hook(Hook::ResidPre, l);
    ops.norm_in(l, BlockNorm::Attn);
    ops.hook(Hook::AttnIn, l);
    ops.qkv(l);
    if (arch.qk_norm) ops.qk_norm(l);
    ops.hook(Hook::Q, l);
    ops.hook(Hook::K, l);
    ops.hook(Hook::V, l);
    if (plan.rope) ops.rope(plan.rope_table);
    ops.hook(Hook::QRot, l);
    ops.hook(Hook::KRot, l);
    ops.store_kv(l);
    ops.attention(l, plan.window);
    for (const LayerHead& off : ablate)
        if (off.layer == l) ops.zero_head(off.head);
    ops.hook(Hook::Z, l);
    residual(ops, l, Projection::Attn, arch.post_norms, Hook::AttnOut, Hook::ResidMid);

    // feed-forward (SwiGLU or GeGLU)
    ops.norm_in(l, BlockNorm::Ffn);
    ops.hook(Hook::MlpIn, l);
    ops.gate_up(l, arch.ffn_act);
    ops.hook(Hook::MlpAct, l);
    residual(ops, l, Projection::Ffn, arch.post_norms, Hook::MlpOut, Hook::ResidPost);
}

}  // namespace lmscope::engine
