// The inside of one layer over a token sequence: the named hooks (trace/hooks.h) of layer L at
// every position, as a teacher-forced pass of the sequence computes them, and how much every
// layer's sub-layers write into the residual stream at each position. The Layer view draws
// these (through layer_anatomy.h); `lmscope-cli dump --hooks` writes the same numbers.
//
// The probe runs on a backend of its own (its KV cache, not the session's) and is incremental:
// asked again for a sequence that extends the one it holds (same layer, same heads switched
// off at the common positions), it keeps the rows it has and feeds only the rest, so following
// a session step by step costs one decode step per step. It feeds in chunks of at most
// kChunkRows rows, so the all-layer hooks of the stream norms stay small, and checks the cancel
// token between chunks (and the backend between layers).
//
// What positions ran with: `ablate` says, per position, the heads switched off for the step that
// fed it (a session's steps may differ), and the probe feeds each run of equal sets as one
// forward, so every position is computed as the session computed it.
#pragma once

#include "engine/backend.h"
#include "trace/hooks.h"
#include "util/cancel.h"
#include "util/types.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lmscope::engine {

class Model;

// The captured rows of one layer, [n] positions 0 .. n-1.
struct LayerRows {
    int32_t layer = -1;
    int32_t n = 0;
    trace::HookDims dims;
    std::vector<float> resid_pre, attn_in;           // [n][n_embd]
    std::vector<float> q, q_rot, z;                  // [n][n_head][head_dim]
    std::vector<float> k, k_rot, v;                  // [n][n_kv][head_dim]
    std::vector<float> attn_out, resid_mid, mlp_in;  // [n][n_embd]
    std::vector<float> mlp_act;                      // [n][n_ff]
    std::vector<float> mlp_out, resid_post;          // [n][n_embd]
    // |resid_pre|, |attn_out|, |mlp_out| of every layer at every position: [n][n_layer][3]
    std::vector<float> stream;

    // Row `pos` of a [n][width] buffer.
    static std::span<const float> row(const std::vector<float>& buf, int32_t pos, int32_t width) {
        return std::span<const float>(buf).subspan(size_t(pos) * size_t(width), size_t(width));
    }
};

// Where a stream triple sits: stream[(pos * n_layer + layer) * 3 + part].
enum class StreamPart : int32_t { ResidPre = 0, AttnOut = 1, MlpOut = 2 };

class LayerProbe {
public:
    static constexpr int32_t kChunkRows = 64;

    // `backend` is the probe's own (its cache is truncated and refilled); it must outlive the
    // probe. The probe assumes nothing else feeds it.
    explicit LayerProbe(Backend& backend);

    // The rows of `layer` for tokens[0 .. n). `ablate[pos]` the heads off for position pos
    // (empty: none anywhere; else one entry per token). Throws UsageError on a layer or ids the
    // model does not have, or too many tokens for the backend's context; CancelledError when
    // `cancel` is cancelled (the rows kept so far stay valid for the next call).
    const LayerRows& run(std::span<const int32_t> tokens, std::span<const std::vector<LayerHead>> ablate,
                         int32_t layer, const CancelToken* cancel = nullptr);

    const LayerRows& rows() const { return rows_; }
    const Model& model() const { return backend_.model(); }

private:
    // Positions of the request the held rows already answer.
    int32_t common_prefix(std::span<const int32_t> tokens, std::span<const std::vector<LayerHead>> ablate,
                          int32_t layer) const;
    void truncate(int32_t n);
    void feed(std::span<const int32_t> tokens, int32_t pos0, std::span<const LayerHead> ablate,
              const CancelToken* cancel);

    Backend& backend_;
    LayerRows rows_;
    std::vector<int32_t> tokens_;               // [rows_.n] fed
    std::vector<std::vector<LayerHead>> ablate_; // [rows_.n] what each position ran with
};

}  // namespace lmscope::engine
