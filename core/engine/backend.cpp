#include "engine/backend.h"

#include "engine/model.h"
#include "model/interventions.h"
#include "util/error.h"

#include <algorithm>
#include <string>

namespace lmscope::engine {

uint64_t kv_offload_budget(double mib) {
    return mib > 0 ? std::max<uint64_t>(1, uint64_t(mib * 1048576.0)) : 0;
}

void check_forward_request(const ForwardRequest& r, const Model& model, int32_t kv_tokens, int32_t n_ctx) {
    const model::ModelSpec& s = model.spec();
    const int32_t n_vocab = s.n_vocab();
    if (r.tokens.empty()) throw UsageError("forward: no tokens");
    if (r.pos0 < 0 || r.pos0 > kv_tokens)
        throw UsageError("forward: position " + std::to_string(r.pos0) + " is past the " +
                         std::to_string(kv_tokens) + " cached positions");
    if (int64_t(r.pos0) + int64_t(r.tokens.size()) > int64_t(n_ctx))
        throw UsageError("forward: " + std::to_string(int64_t(r.pos0) + int64_t(r.tokens.size())) +
                         " positions exceed the context of " + std::to_string(n_ctx));
    for (size_t i = 0; i < r.tokens.size(); ++i)
        if (r.tokens[i] < 0 || r.tokens[i] >= n_vocab)
            throw UsageError("forward: token id " + std::to_string(r.tokens[i]) + " at index " +
                             std::to_string(i) + " is outside the vocabulary [0, " + std::to_string(n_vocab) + ")");
    const size_t want = (r.all_logits ? r.tokens.size() : 1) * size_t(n_vocab);
    if (r.logits.size() != want)
        throw UsageError("forward: logits buffer holds " + std::to_string(r.logits.size()) +
                         " floats, expected " + std::to_string(want));
    model::check_heads(s, r.ablate, "forward: switching off heads");
    model::check_skips(s, r.skip, "forward: skipping sub-layers");
    for (const trace::HookPoint& h : r.policy.hooks)
        if (trace::is_layer_hook(h.hook) ? h.layer < 0 || h.layer >= s.n_layer() : h.layer != -1)
            throw UsageError("forward: hook " + trace::hook_name(h) + " does not exist in a model of " +
                             std::to_string(s.n_layer()) + " layers");
}

}  // namespace lmscope::engine
