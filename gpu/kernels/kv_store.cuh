// Stores the new rows' K and V into the device KV cache in its type (f16, q8_0, q4_0;
// the block encodings of gguf::quantize_row, same rounding).
#pragma once

#include "gpu/kernels/kv_format.cuh"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// k_src, v_src: row t's K (and V) at k_src + t * src_stride: [n_kv][head_dim] float.
// Row t sits at position pos0 + t and goes to ring slot (pos0 + t) % ring_cap:
//   k_ring, v_ring: [ring_cap][n_kv][row_bytes].
void kv_store(const float* k_src, const float* v_src, int32_t src_stride, int32_t n_rows,
              int32_t n_kv, int32_t head_dim, KvType type, int32_t row_bytes,
              uint8_t* k_ring, uint8_t* v_ring, int32_t ring_cap, int32_t pos0,
              cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
