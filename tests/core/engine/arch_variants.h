// Fixtures of the architectures the testdata has no file for, made in the test from one that
// has: the same weights under another recipe. phi3 from a llama file (q/k/v and gate/up fused
// into one matrix each, NeoX RoPE); gemma2 from the gemma3 file (no QK-norm, scores soft-capped,
// every other layer local on one RoPE base). Their logits are held to the float64 pass
// (float64_forward.h), which reads ARCHITECTURES.md's rows for them.
#pragma once

#include "common/hostile_files.h"
#include "gguf/gguf.h"


#include <string>

namespace lmscope::testing {

inline hostile::Bytes phi3_from_llama(const gguf::File& f, int32_t n_layer) {
    hostile::GgufEdit e(f);
    e.rename_keys("llama.", "phi3.").set("general.architecture", gguf::Value::string("phi3"));
    for (int32_t l = 0; l < n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        e.fuse_tensors({b + "attn_q.weight", b + "attn_k.weight", b + "attn_v.weight"}, b + "attn_qkv.weight");
        e.fuse_tensors({b + "ffn_gate.weight", b + "ffn_up.weight"}, b + "ffn_up.weight");
    }
    return e.bytes();
}

inline hostile::Bytes gemma2_from_gemma3(const gguf::File& f, int32_t n_layer, float attn_softcap) {
    hostile::GgufEdit e(f);
    e.erase("gemma3.attention.sliding_window_pattern").erase("gemma3.rope.freq_base_swa");
    e.rename_keys("gemma3.", "gemma2.").set("general.architecture", gguf::Value::string("gemma2"));
    e.set("gemma2.attn_logit_softcapping", gguf::Value(gguf::Value::Scalar(attn_softcap)));
    for (int32_t l = 0; l < n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        e.erase_tensor(b + "attn_q_norm.weight").erase_tensor(b + "attn_k_norm.weight");
    }
    return e.bytes();
}

}  // namespace lmscope::testing
