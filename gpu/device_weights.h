// The model's weights on the device, uploaded once, as the file stores them.
//
// Choice: weight matrices keep their GGUF type in device memory (Q4_K stays 4.5 bits a weight)
// and are decoded where they are used, by the decoders of kernels/weight_blocks.cuh (every
// type the CPU dequantizes: F32, F16, BF16, Q4_0 .. Q8_0, Q2_K .. Q6_K, IQ4_NL, IQ4_XS).
// Decode is memory-bound: kernels::gemv reads each weight once and decodes it in registers,
// so the bytes read per token are the file's. Prefill is compute-bound: gemm.cpp decodes tiles
// of rows to fp16 in a scratch buffer and multiplies them with cuBLAS's tensor-core GEMMs
// (fp16 inputs, fp32 accumulation), which costs one pass over the weights per step; F16
// matrices go to cuBLAS as they are.
//
// Fusions that save launches: Q, K and V projections are one [q_dim + 2 kv_dim][n_embd]
// matrix, gate and up one [2 n_ff][n_embd] matrix; where the parts' types differ (a Q4_K_M file
// keeps V in Q6_K on some layers) the matrix holds one part per run of rows of one type. Norm
// weights and biases stay float.
#pragma once

#include "gguf/tensor_type.h"
#include "gpu/device_memory.h"
#include "model/spec.h"
#include "model/weights.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lmscope::gpu {

// A [rows][k] weight matrix in device memory, as consecutive parts of one type each.
struct DeviceMatrix {
    struct Part {
        gguf::TensorType type = gguf::TensorType::F32;
        int32_t row0 = 0, rows = 0;   // rows [row0, row0 + rows) of the matrix
        DeviceArray<uint8_t> data;    // [rows][row_bytes(type, k)], 256-byte aligned
    };
    int32_t rows = 0, k = 0;
    std::vector<Part> parts;  // ascending row0, covering [0, rows)
};

struct DeviceLayer {
    DeviceMatrix wqkv;            // [q_dim + 2 kv_dim][n_embd]: rows of wq, then wk, then wv
    DeviceMatrix wo;              // [n_embd][q_dim]
    DeviceMatrix wgu;             // [2 n_ff][n_embd]: rows of gate, then up
    DeviceMatrix wdown;           // [n_embd][n_ff]
    DeviceArray<float> attn_norm; // [n_embd]
    DeviceArray<float> ffn_norm;  // [n_embd]
    DeviceArray<float> bqkv;      // [q_dim + 2 kv_dim] (qkv_bias), empty otherwise
    DeviceArray<float> q_norm;    // [head_dim] (qk_norm), empty otherwise
    DeviceArray<float> k_norm;    // [head_dim] (qk_norm), empty otherwise
    DeviceArray<float> post_attn_norm;  // [n_embd] (post_norms), empty otherwise
    DeviceArray<float> post_ffn_norm;   // [n_embd] (post_norms), empty otherwise
};

struct DeviceWeights {
    DeviceMatrix token_embd;         // [n_vocab][n_embd], one part
    DeviceMatrix output_own;         // [n_vocab][n_embd] when untied, empty when tied
    bool tied = true;                // the output head is token_embd
    DeviceArray<float> output_norm;  // [n_embd]
    std::vector<DeviceArray<float>> rope_inv_freq;  // [table][n_rot / 2] (ModelSpec::rope_inv_freq)
    std::vector<DeviceLayer> layers;   // [n_layer]
    size_t bytes = 0;                  // device bytes held
    int64_t max_decoded = 0;           // values of the largest part prefill decodes to fp16 (not F16)

    const DeviceMatrix& output() const { return tied ? token_embd : output_own; }

    // Uploads (synchronously). Throws lmscope::Error when the device memory runs out ("out of
    // device memory: needed N MiB for blk.3.ffn_up.weight ..."), FormatError when a tensor's
    // shape or size is not what the spec says, UnsupportedError for a type with no device
    // decoder or a row length the kernels cannot take (not a multiple of 8).
    // `file` names the model in error messages.
    static DeviceWeights upload(const model::ModelSpec& spec, const model::Weights& w,
                                const std::string& file);
};

}  // namespace lmscope::gpu
