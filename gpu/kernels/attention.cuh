// Causal self-attention of one layer over the device KV cache (GQA: query head h reads kv
// head h / (n_head / n_kv)), writing every row's softmax weights to a scratch buffer (from
// which captured planes are copied) and, when asked, per-row summaries.
#pragma once

#include "gpu/kernels/kv_format.cuh"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

constexpr int32_t kMaxHeadDim = 256;

struct AttentionArgs {
    // The step feeds rows 0 .. n_step-1 at positions pos0 .. pos0+n_step-1; this launch
    // computes rows [row0, row0 + n_rows). Row r sees keys 0 .. pos0 + r, or only the last
    // `window` of them (keys j > pos0 + r - window) when window > 0 (a local layer).
    int32_t pos0 = 0;
    int32_t n_step = 0;
    int32_t row0 = 0;
    int32_t n_rows = 0;
    // Query of row r, head h: q + (r - q_row0) * q_stride + h * head_dim (float, roped).
    const float* q = nullptr;
    int32_t q_row0 = 0;
    int32_t q_stride = 0;
    int32_t n_head = 0, n_kv = 0, head_dim = 0;
    float scale = 1.0f;  // the recipe's attention scale (1 / sqrt(head_dim) unless it says otherwise)
    float softcap = 0.0f;  // > 0: scores = softcap * tanh(scores / softcap) before the mask (gemma2)
    int32_t window = 0;   // 0: every earlier key; W > 0: the last W keys
    // probs: [n_head][n_rows][pos0 + n_step] softmax weights of this launch's rows, zero
    // past each row's last key and before its window.
    float* probs = nullptr;
    // scores: [n_head][n_rows][pos0 + n_step] the scaled scores q . k * scale before the
    // softmax, -inf where masked (the scores hook), or null.
    float* scores = nullptr;
    // summaries: [n_head][n_step] of this layer (row r at h * n_step + r), or null.
    HeadSummary* summaries = nullptr;
    // out: row r, head h at out + (r - q_row0) * n_head * head_dim + h * head_dim (half).
    __half* out = nullptr;
};

void attention(const AttentionArgs& args, const KvView& kv, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
