// The CPU backend's form of a model's weights: the matmul operands (quantized matrices repacked
// once into the x16 layout the kernels read), the norm and bias vectors as float, and each
// layer's plan. Built once per loaded model and shared by every CPU backend on it (the
// step-through session's and each lab's), so a lab run neither repacks nor copies weights.
#pragma once

#include "engine/matmul.h"
#include "model/spec.h"

#include <memory>
#include <vector>

namespace lmscope::engine {

class Model;

struct CpuLayerWeights {
    Linear wq, wk, wv, wo, gate, up, down;
    std::vector<float> attn_norm, ffn_norm;            // [n_embd]
    std::vector<float> bq, bk, bv;                     // [n_head*hd], [n_kv*hd], [n_kv*hd]; empty: none
    std::vector<float> q_norm, k_norm;                 // [hd]; empty: no QK-norm
    std::vector<float> post_attn_norm, post_ffn_norm;  // [n_embd]; empty: none
    model::LayerPlan plan;
};

class CpuWeights {
public:
    // The weights of `model`: the same object for as long as any backend holds it, built (and
    // packed) when none does. Thread-safe: a second caller waits for the first one's build.
    static std::shared_ptr<const CpuWeights> of(const std::shared_ptr<const Model>& model);

    explicit CpuWeights(std::shared_ptr<const Model> model);
    CpuWeights(const CpuWeights&) = delete;
    CpuWeights& operator=(const CpuWeights&) = delete;

    const Model& model() const { return *model_; }
    size_t packed_bytes() const { return packed_.bytes(); }

    std::vector<CpuLayerWeights> layers;  // [n_layer]
    Linear tok_embd;                      // read by row (never packed)
    Linear output;                        // [n_vocab][n_embd]
    std::vector<float> output_norm;       // [n_embd]

private:
    std::shared_ptr<const Model> model_;  // the mapping the Linears point into
    PackedWeights packed_;                // the x16 copies layers and output point into
};

}  // namespace lmscope::engine
