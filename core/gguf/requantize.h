// Requantizing a GGUF model to another tensor type (`lmscope-cli quantize`).
//
// Which tensors: the weight matrices, i.e. tensors of 2 or more dimensions whose name ends in
// "weight", except norms ("_norm.weight"), expert routers ("ffn_gate_inp.weight") and
// position / token-type embeddings; everything else (norms, biases, RoPE factors: 1-D) is
// copied unchanged, as llama.cpp's quantizer does (src/llama-quant.cpp, the `quantize` flags
// of llama_model_quantize_impl).
//
// Which type: a plain target (Q4_K, Q8_0, IQ4_XS, F16, ...) gives every weight matrix that
// type. The mixes follow llama.cpp's llama_tensor_get_type: Q4_K_M and Q5_K_M are Q4_K / Q5_K
// with output.weight (token_embd.weight when the output is tied to it) in Q6_K, and attn_v
// and ffn_down in Q6_K in the layers use_more_bits() picks (the first and last eighth, and
// every third layer between: about half); a fused attn_qkv is Q5_K in Q4_K_M, Q6_K in Q5_K_M.
//
// A row whose length is not a multiple of the chosen type's block takes llama.cpp's fallback
// (llama_tensor_get_type, the `convert_incompatible_tensor` switch): Q2_K, Q3_K and IQ4_XS
// become IQ4_NL, Q4_K becomes Q5_0, Q5_K Q5_1, Q6_K Q8_0, and the output matrix of a mix Q8_0;
// a row still not a multiple of 32 (the 32-element types included) becomes F16.
//
// A tensor already of its target type is copied unchanged; any other is dequantized to float
// (every type dequantize_row reads) and quantized with quantize_row. The metadata is copied in
// order, with general.file_type set to the target's llama.cpp file-type number and
// general.quantization_version to 2 (the block formats' version).
#pragma once

#include "gguf/gguf.h"
#include "gguf/tensor_type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lmscope::gguf {

struct QuantTarget {
    std::string_view name;  // "Q4_K_M"
    TensorType base;        // the type of most weight matrices
    bool mix;               // Q4_K_M / Q5_K_M rules on top of `base`
    uint32_t file_type;     // general.file_type (llama.cpp's llama_ftype)
};

// The targets `quantize` accepts, in the order help text lists them.
const std::vector<QuantTarget>& quant_targets();
// Case-insensitive lookup; nullopt when unknown.
std::optional<QuantTarget> quant_target(std::string_view name);
// "F32, F16, BF16, Q8_0, ..." for help and error messages.
std::string quant_target_names();

// What happens to one tensor of the input.
struct TensorPlan {
    std::string name;
    int64_t row = 0;  // row length (ne[0])
    TensorType from = TensorType::F32;
    TensorType to = TensorType::F32;
    bool weight = false;    // a weight matrix (requantized, or kept when already `to`)
    bool fallback = false;  // the row length did not fit the type the rules chose
    TensorType wanted = TensorType::F32;  // the type the rules chose (before the fallback)
};

// The plan for every tensor of `in`, in file order. Throws UnsupportedError when a weight
// matrix has a type dequantize_row cannot read.
std::vector<TensorPlan> plan_requantize(const File& in, const QuantTarget& target);

struct RequantizeResult {
    std::vector<TensorPlan> plan;
    uint64_t bytes_in = 0;   // tensor data of the input
    uint64_t bytes_out = 0;  // tensor data of the output
};

// Writes `in` requantized to `target` at `out_path` (through the safe writer: atomic, never
// over `in` itself), then reads the file back and checks its tensor count, names, types and
// shapes against the plan (Error when they differ). `threads` (>= 1) quantize rows in
// parallel; the output is the same for every thread count.
RequantizeResult requantize(const File& in, const std::string& out_path, const QuantTarget& target, int threads);

}  // namespace lmscope::gguf
