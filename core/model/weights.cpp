#include "model/weights.h"

#include "gguf/quant.h"
#include "util/error.h"

#include <charconv>
#include <set>
#include <string_view>

namespace lmscope::model {

namespace {

const gguf::TensorInfo* checked(const gguf::File& f, const TensorSpec& want) {
    const gguf::TensorInfo* t = f.find_tensor(want.name);
    if (!t) throw FormatError(f.path(), want.name, "missing tensor (expected shape " + shape_string(want.shape) + ")");
    std::vector<int64_t> have(t->ne.begin(), t->ne.begin() + t->n_dims);
    if (have != want.shape)
        throw FormatError(f.path(), want.name,
                          "shape " + shape_string(have) + ", expected " + shape_string(want.shape));
    if (!gguf::is_supported(t->type))
        throw UnsupportedError(f.path() + ": " + want.name + ": tensor type " +
                               std::string(gguf::type_name(t->type)) + " is not supported");
    const uint32_t block = gguf::traits(t->type).block_size;
    if (t->ne[0] % int64_t(block) != 0)
        throw FormatError(f.path(), want.name,
                          "row length " + std::to_string(t->ne[0]) + " is not a multiple of the " +
                              std::string(gguf::type_name(t->type)) + " block size " + std::to_string(block));
    return t;
}

// A layer tensor the recipe does not read: a layer past block_count (the model would not be
// the one in the file), or a part this architecture does not have.
void refuse_unused_layer_tensors(const gguf::File& f, const ModelSpec& spec, const std::vector<TensorSpec>& expected) {
    std::set<std::string_view> names;
    for (const TensorSpec& ts : expected) names.insert(ts.name);
    for (const gguf::TensorInfo& t : f.tensors()) {
        if (t.name.rfind("blk.", 0) != 0 || names.count(t.name)) continue;
        const std::string a = spec.hp.architecture;
        int64_t layer = -1;
        const auto [end, ec] = std::from_chars(t.name.data() + 4, t.name.data() + t.name.size(), layer);
        if (ec == std::errc() && *end == '.' && layer >= spec.n_layer())
            throw FormatError(f.path(), t.name, "a tensor of layer " + std::to_string(layer) + ", but " + a +
                                                    ".block_count is " + std::to_string(spec.n_layer()) +
                                                    " (the model would leave it out)");
        throw FormatError(f.path(), t.name, "a layer tensor the " + a + " recipe does not read");
    }
}

}  // namespace

// The tensors come in the order of ModelSpec::expected_tensors (spec.cpp).
Weights Weights::bind(const gguf::File& file, const ModelSpec& spec) {
    const std::vector<TensorSpec> expected = spec.expected_tensors();
    std::vector<const gguf::TensorInfo*> found;
    for (const TensorSpec& ts : expected) found.push_back(checked(file, ts));
    refuse_unused_layer_tensors(file, spec, expected);

    Weights w;
    size_t i = 0;
    w.token_embd = found[i++];
    w.output_norm = found[i++];
    w.output = spec.tied_output ? w.token_embd : found[i++];
    w.layers.resize(size_t(spec.n_layer()));
    for (LayerWeights& L : w.layers) {
        L.attn_norm = found[i++];
        if (spec.arch.fused_qkv) {
            L.wqkv = found[i++];
        } else {
            L.wq = found[i++];
            L.wk = found[i++];
            L.wv = found[i++];
        }
        L.wo = found[i++];
        if (spec.arch.qkv_bias) {
            L.bq = found[i++];
            L.bk = found[i++];
            L.bv = found[i++];
        }
        if (spec.arch.qk_norm) {
            L.q_norm = found[i++];
            L.k_norm = found[i++];
        }
        if (spec.arch.post_norms) L.post_attn_norm = found[i++];
        L.ffn_norm = found[i++];
        if (spec.arch.fused_gate_up) {
            L.ffn_gate_up = found[i++];
        } else {
            L.ffn_gate = found[i++];
            L.ffn_up = found[i++];
        }
        L.ffn_down = found[i++];
        if (spec.arch.post_norms) L.post_ffn_norm = found[i++];
    }
    return w;
}

}  // namespace lmscope::model
