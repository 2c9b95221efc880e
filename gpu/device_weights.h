// The model's weights on the device, uploaded once.
//
// Choice: every matrix is converted to fp16 on the host (gguf::dequantize_row, then
// gguf::fp32_to_fp16) and multiplied with cuBLAS (fp16 inputs, fp32 accumulation and output)
// for prefill, and with kernels::gemv (16-byte fp16 loads, fp32 accumulation) for decode.
// Prefill is compute-bound and cuBLAS's tensor-core GEMMs on fp16 are the fastest path there;
// decode is memory-bound and reads 2 bytes per weight instead of ~0.6 for Q4_1, which on an
// H200 (4.8 TB/s) still costs only ~0.06 ms per token for SmolLM2 and ~3.5 ms for an 8B
// model, while one code path serves every GGUF type (F32 .. Q6_K) with no per-type kernels to
// get wrong. Memory is the price: 2 bytes per parameter (16 GB for 8B, fine on an H200).
// Quantized GEMV kernels for decode are the next step if measurements ask for them.
//
// Fusions that save launches: Q, K and V projections are one [q_dim + 2 kv_dim][n_embd]
// matrix, gate and up one [2 n_ff][n_embd] matrix. Norm weights and biases stay float.
#pragma once

#include "gpu/device_memory.h"
#include "model/spec.h"
#include "model/weights.h"

#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lmscope::gpu {

struct DeviceLayer {
    DeviceArray<__half> wqkv;     // [q_dim + 2 kv_dim][n_embd]: rows of wq, then wk, then wv
    DeviceArray<__half> wo;       // [n_embd][q_dim]
    DeviceArray<__half> wgu;      // [2 n_ff][n_embd]: rows of gate, then up
    DeviceArray<__half> wdown;    // [n_embd][n_ff]
    DeviceArray<float> attn_norm; // [n_embd]
    DeviceArray<float> ffn_norm;  // [n_embd]
    DeviceArray<float> bqkv;      // [q_dim + 2 kv_dim] (qkv_bias), empty otherwise
    DeviceArray<float> q_norm;    // [head_dim] (qk_norm), empty otherwise
    DeviceArray<float> k_norm;    // [head_dim] (qk_norm), empty otherwise
    DeviceArray<float> post_attn_norm;  // [n_embd] (post_norms), empty otherwise
    DeviceArray<float> post_ffn_norm;   // [n_embd] (post_norms), empty otherwise
};

struct DeviceWeights {
    DeviceArray<__half> token_embd;  // [n_vocab][n_embd]
    DeviceArray<__half> output_own;  // [n_vocab][n_embd] when untied, empty when tied
    const __half* output = nullptr;  // output_own or token_embd
    DeviceArray<float> output_norm;  // [n_embd]
    std::vector<DeviceArray<float>> rope_inv_freq;  // [table][n_rot / 2] (ModelSpec::rope_inv_freq)
    std::vector<DeviceLayer> layers;   // [n_layer]
    size_t bytes = 0;                  // device bytes held

    // Converts and uploads (synchronously). Throws lmscope::Error when the device memory
    // runs out ("out of device memory: needed N MiB for blk.3.ffn_up.weight ...").
    // `file` names the model in error messages.
    static DeviceWeights upload(const model::ModelSpec& spec, const model::Weights& w,
                                const std::string& file);
};

}  // namespace lmscope::gpu
