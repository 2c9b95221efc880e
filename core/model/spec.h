// The model spec: what the engine needs to know about a GGUF model, derived from its metadata
// and its architecture's recipe (recipe.h) and checked for consistency: the per-layer plan,
// RoPE frequency tables, scales, plus the list of tensors such a model must have with their
// expected shapes (checked by weights.h).
#pragma once

#include "gguf/gguf.h"
#include "kv/kv_math.h"
#include "model/hparams.h"
#include "model/recipe.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lmscope::model {

// One tensor the spec expects: GGUF name and shape in GGUF order (ne[0] = row length).
struct TensorSpec {
    std::string name;
    std::vector<int64_t> shape;
};

struct ModelSpec {
    HParams hp;                 // the validated hyperparameters (hparams.h)
    Architecture arch;          // the recipe's row for hp.architecture
    bool tied_output = false;   // no output.weight: the head reuses token_embd
    bool has_rope_freqs = false;  // Llama 3.x: rope_freqs.weight scales each pair's frequency
    // RoPE angle of pair i at position p = p * rope_inv_freq[table][i]; [table][n_rot / 2].
    // Table 0 uses rope.freq_base, table 1 (models with local layers) rope.freq_base_swa; both
    // include linear scaling (rope.scaling.factor) and the rope_freqs factors.
    std::vector<std::vector<float>> rope_inv_freq;
    std::vector<LayerPlan> layers;  // [n_layer]
    float embed_scale = 1.0f;   // embeddings are multiplied by it (gemma3: sqrt(n_embd))
    float attn_scale = 1.0f;    // scores are q . k * attn_scale (1 / sqrt(head_dim) unless the recipe says otherwise)
    float final_softcap = 0.0f; // > 0: logits = c * tanh(logits / c)
    float attn_softcap = 0.0f;  // > 0: attention scores s = c * tanh(s / c) before the mask

    RopeStyle rope_style() const { return arch.rope_style; }
    bool neox() const { return arch.rope_style == RopeStyle::NeoX; }

    // Convenience views of hp as the engine's int32 sizes (hp bounds them far below 2^31).
    int32_t n_vocab() const { return int32_t(hp.n_vocab); }
    int32_t n_embd() const { return int32_t(hp.n_embd); }
    int32_t n_layer() const { return int32_t(hp.n_layer); }
    int32_t n_head() const { return int32_t(hp.n_head); }
    int32_t n_head_kv() const { return int32_t(hp.n_head_kv); }
    int32_t head_dim() const { return int32_t(hp.head_dim); }
    int32_t n_ff() const { return int32_t(hp.n_ff); }
    int32_t n_rot() const { return int32_t(hp.n_rot); }
    // context length the model was trained for, capped to what an int32 position holds
    int32_t n_ctx_train() const;
    int32_t n_group() const { return n_head() / n_head_kv(); }  // query heads per kv head
    // The attention shape that sizes the KV cache, with the local layers and their window.
    kv::Shape kv_shape() const;

    // HParams::from_file plus what the engine derives from the recipe (layer plan, RoPE tables,
    // scales, tied head). Throws FormatError naming the file and key, UnsupportedError for an
    // architecture or RoPE scaling lmscope does not implement.
    static ModelSpec from_file(const gguf::File& file);

    // Every tensor of such a model with its expected shape.
    std::vector<TensorSpec> expected_tensors() const;
};

std::string shape_string(const std::vector<int64_t>& shape);  // "[576, 49152]"

// What a model's recipe does, as items with their numbers, for the words of info and the
// model panel (each front end says them in its own language).
struct RecipeFeature {
    enum class Kind : uint8_t {
        WideHeads,      // a heads x b head dim != c embedding width
        QkvBias,        // q/k/v biases
        QkNorm,         // RMSNorm of each q and k head before RoPE
        RopeNormal,     // RoPE on adjacent pairs, base a
        RopeNeoX,       // NeoX RoPE, base a
        RopeFreqs,      // Llama 3.x per-pair frequency factors
        NoRope,         // no RoPE on a of b layers
        SlidingWindow,  // window a on b of c layers; local RoPE base d (0: the same base)
        PostNorms,      // post-attention and post-FFN norms
        SwiGlu,
        GeGlu,          // GELU (tanh) gated
        EmbedScale,     // embeddings x sqrt(a)
        FinalSoftcap,   // logits = a tanh(logits / a)
        AttnSoftcap,    // attention scores = a tanh(scores / a)
        FusedQkv,       // q, k, v from one matrix
        FusedGateUp,    // gate and up from one matrix
    };
    Kind kind;
    double a = 0, b = 0, c = 0, d = 0;
};
std::vector<RecipeFeature> recipe_features(const ModelSpec& spec);
// The recipe in English: "8 x 64 heads != 256, QK-norm, NeoX RoPE (base 1e+06), SwiGLU".
std::string recipe_text(const ModelSpec& spec);

}  // namespace lmscope::model
