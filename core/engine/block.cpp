#include "engine/block.h"

#include <algorithm>

namespace lmscope::engine {

namespace {

bool skipped(const Interventions& iv, int32_t l, Sublayer part) {
    return std::find(iv.skipped.begin(), iv.skipped.end(), LayerSkip{l, part}) != iv.skipped.end();
}

// x += proj(in) (post-normed when the recipe says so), with hook `out` on the projection and
// hook `sum` on x afterwards. The projection is kept apart only when its hook is asked for; a
// skipped sub-layer adds nothing (its hook shows zeros).
void residual(BlockOps& ops, int32_t l, Projection which, bool post_norm, bool skip, trace::Hook out, trace::Hook sum) {
    if (skip) {
        if (ops.wants(out, l)) {
            ops.clear_out();
            ops.hook(out, l);
        }
    } else if (ops.wants(out, l)) {
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

void run_block(BlockOps& ops, const model::ModelSpec& spec, int32_t l, const Interventions& iv) {
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
    for (const LayerHead& off : iv.heads_off)
        if (off.layer == l) ops.zero_head(off.head);
    ops.hook(Hook::Z, l);
    residual(ops, l, Projection::Attn, arch.post_norms, skipped(iv, l, Sublayer::Attn), Hook::AttnOut, Hook::ResidMid);

    // feed-forward (SwiGLU or GeGLU)
    ops.norm_in(l, BlockNorm::Ffn);
    ops.hook(Hook::MlpIn, l);
    ops.gate_up(l, arch.ffn_act);
    ops.hook(Hook::MlpAct, l);
    residual(ops, l, Projection::Ffn, arch.post_norms, skipped(iv, l, Sublayer::Ffn), Hook::MlpOut, Hook::ResidPost);
}

}  // namespace lmscope::engine
