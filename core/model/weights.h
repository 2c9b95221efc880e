// Weight views: every tensor of a model, found in the GGUF file, its shape checked against
// the spec and its type checked as supported; a layer tensor (blk.N.*) the spec does not read
// (a layer past block_count) is refused. The pointers live as long as the File.
#pragma once

#include "gguf/gguf.h"
#include "model/spec.h"

#include <vector>

namespace lmscope::model {

struct LayerWeights {
    const gguf::TensorInfo* attn_norm = nullptr;  // [n_embd]
    // wq, wk, wv, or (fused_qkv) wqkv, whose rows are wq's, then wk's, then wv's
    const gguf::TensorInfo* wq = nullptr;         // [n_embd] x n_head*head_dim rows
    const gguf::TensorInfo* wk = nullptr;         // [n_embd] x n_head_kv*head_dim rows
    const gguf::TensorInfo* wv = nullptr;         // [n_embd] x n_head_kv*head_dim rows
    const gguf::TensorInfo* wqkv = nullptr;       // [n_embd] x (n_head + 2 n_head_kv)*head_dim rows
    const gguf::TensorInfo* wo = nullptr;         // [n_head*head_dim] x n_embd rows
    const gguf::TensorInfo* bq = nullptr;         // qkv_bias: [n_head*head_dim]
    const gguf::TensorInfo* bk = nullptr;         // qkv_bias: [n_head_kv*head_dim]
    const gguf::TensorInfo* bv = nullptr;         // qkv_bias: [n_head_kv*head_dim]
    const gguf::TensorInfo* q_norm = nullptr;     // qk_norm: [head_dim], shared by every query head
    const gguf::TensorInfo* k_norm = nullptr;     // qk_norm: [head_dim], shared by every kv head
    const gguf::TensorInfo* post_attn_norm = nullptr;  // post_norms: [n_embd]
    const gguf::TensorInfo* ffn_norm = nullptr;   // [n_embd]
    // ffn_gate and ffn_up, or (fused_gate_up) ffn_gate_up, whose rows are ffn_gate's, then ffn_up's
    const gguf::TensorInfo* ffn_gate = nullptr;   // [n_embd] x n_ff rows
    const gguf::TensorInfo* ffn_up = nullptr;     // [n_embd] x n_ff rows
    const gguf::TensorInfo* ffn_gate_up = nullptr;  // [n_embd] x 2 n_ff rows (the file's ffn_up.weight)
    const gguf::TensorInfo* ffn_down = nullptr;   // [n_ff] x n_embd rows
    const gguf::TensorInfo* post_ffn_norm = nullptr;   // post_norms: [n_embd]
};

struct Weights {
    const gguf::TensorInfo* token_embd = nullptr;   // [n_embd] x n_vocab rows
    const gguf::TensorInfo* output_norm = nullptr;  // [n_embd]
    const gguf::TensorInfo* output = nullptr;       // [n_embd] x n_vocab rows (token_embd when tied)
    std::vector<LayerWeights> layers;               // [n_layer]

    // Throws FormatError(file, tensor, "shape [..], expected [..]") / "missing tensor", and
    // UnsupportedError naming the tensor and its type when lmscope cannot compute with it.
    static Weights bind(const gguf::File& file, const ModelSpec& spec);
};

}  // namespace lmscope::model
