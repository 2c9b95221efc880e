// The memory read bandwidth that bounds decode on the CPU, and what it allows: decode reads
// every weight matrix (and the KV cache held) once per token, so
//   ceiling tok/s = read bandwidth / bytes read per token.
#pragma once

#include "engine/model.h"

#include <cstddef>
#include <cstdint>

namespace lmscope::cli {

struct ReadBandwidth {
    double bytes_per_s = 0.0;  // the best of the passes
    size_t buffer_bytes = 0;
    int threads = 0;
};

// `threads` threads each sum their share of a buffer of `bytes` (at least 64 MiB; the size of
// the weights, so it is read from where they are), best of `passes`.
ReadBandwidth measure_read_bandwidth(size_t bytes, int threads, int passes = 5);

// Bytes of weights one decode token reads: every tensor but the token embeddings (one row of
// them), which the output head reads whole when it is tied to them.
uint64_t decode_weight_bytes(const engine::Model& model);

}  // namespace lmscope::cli
