// The recipe table (facts: ../shared/docs/ARCHITECTURES.md, as llama.cpp's converters write
// the GGUF files).
#include "model/recipe.h"

#include <array>

namespace lmscope::model {

namespace {

constexpr std::array kArchitectures{
    // Llama 2/3.x, SmolLM2, TinyLlama, Mistral: the common block (Llama 3.x's rope_freqs
    // factors are read from the file, not from this row).
    Architecture{.name = "llama"},
    // Qwen2 / Qwen2.5: q/k/v biases, NeoX RoPE.
    Architecture{.name = "qwen2", .rope_style = RopeStyle::NeoX, .qkv_bias = true},
    // Qwen3: QK-norm, NeoX RoPE; head_dim from key_length (heads x hd may differ from n_embd).
    Architecture{.name = "qwen3", .rope_style = RopeStyle::NeoX, .qk_norm = true},
    // Gemma 3: scaled embeddings, QK-norm, four norms per layer, GeGLU, local layers with a
    // sliding window and their own RoPE base (five local layers to one global by default).
    // Gemma 2: Gemma 3's block without QK-norm, every other layer local (one RoPE base), the
    // attention scores soft-capped ({arch}.attn_logit_softcapping).
    Architecture{.name = "gemma2",
                 .rope_style = RopeStyle::NeoX,
                 .post_norms = true,
                 .ffn_act = FfnActivation::GeluTanh,
                 .embed_scale = true,
                 .swa_pattern = 2},
    Architecture{.name = "gemma3",
                 .rope_style = RopeStyle::NeoX,
                 .qk_norm = true,
                 .post_norms = true,
                 .ffn_act = FfnActivation::GeluTanh,
                 .embed_scale = true,
                 .swa_pattern = 6,
                 .swa_rope_base = true},
    // SmolLM3: the llama block with no RoPE on every fourth layer.
    Architecture{.name = "smollm3", .nope_every = 4},
    // Phi-3 / Phi-3.5 / Phi-4-mini: fused q/k/v and gate/up matrices, NeoX RoPE (Phi-4-mini
    // rotates part of each head: rope.dimension_count < head_dim).
    Architecture{.name = "phi3", .rope_style = RopeStyle::NeoX, .fused_qkv = true, .fused_gate_up = true},
};

}  // namespace

const Architecture* find_architecture(std::string_view name) {
    for (const Architecture& a : kArchitectures)
        if (a.name == name) return &a;
    return nullptr;
}

std::string supported_architectures_text() {
    std::string s;
    for (size_t i = 0; i < kArchitectures.size(); ++i) {
        if (i > 0) s += i + 1 == kArchitectures.size() ? " and " : ", ";
        s += kArchitectures[i].name;
    }
    return s;
}

}  // namespace lmscope::model
