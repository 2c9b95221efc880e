// The model spec: what the engine needs to know about a GGUF model's architecture (llama or
// qwen2), derived from its metadata and checked for consistency, plus the list of tensors such
// a model must have with their expected shapes (checked by weights.h).
#pragma once

#include "gguf/gguf.h"
#include "model/hparams.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lmscope::model {

enum class Arch : uint8_t { Llama, Qwen2 };
enum class RopeStyle : uint8_t {
    Normal,  // rotate adjacent pairs (2i, 2i+1): llama
    NeoX,    // rotate pairs (i, i + n_rot/2): qwen2
};

// One tensor the spec expects: GGUF name and shape in GGUF order (ne[0] = row length).
struct TensorSpec {
    std::string name;
    std::vector<int64_t> shape;
};

struct ModelSpec {
    HParams hp;                 // the validated hyperparameters (hparams.h)
    Arch arch = Arch::Llama;
    RopeStyle rope_style = RopeStyle::Normal;
    bool qkv_bias = false;      // qwen2: biases on the q, k, v projections
    bool tied_output = false;   // no output.weight: the head reuses token_embd
    bool has_rope_freqs = false;  // Llama 3.x: rope_freqs.weight scales each pair's frequency
    // RoPE angle of pair i at position p = p * rope_inv_freq[i]; [n_rot / 2]. Includes the
    // base, linear scaling (rope.scaling.factor) and the rope_freqs factors.
    std::vector<float> rope_inv_freq;

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

    // HParams::from_file plus what the engine derives (RoPE style and frequencies, biases,
    // tied head). Throws FormatError naming the file and key, UnsupportedError for an
    // architecture or RoPE scaling lmscope does not implement.
    static ModelSpec from_file(const gguf::File& file);

    // Every tensor of such a model with its expected shape.
    std::vector<TensorSpec> expected_tensors() const;
};

std::string shape_string(const std::vector<int64_t>& shape);  // "[576, 49152]"

}  // namespace lmscope::model
