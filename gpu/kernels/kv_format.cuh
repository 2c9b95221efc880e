// The device KV cache's row layouts and the view the attention kernel reads keys and values
// through. Host and device code. A row of head_dim values, by KvType (util/types.h; the GGUF
// block layouts of core/gguf/quant.h):
//   F16   [head_dim] IEEE half
//   Q8_0  [head_dim / 32] blocks of 34 bytes: f16 scale (LE), 32 x int8
//   Q4_0  [head_dim / 32] blocks of 18 bytes: f16 scale (LE), 16 bytes of nibble pairs
#pragma once

#include "util/types.h"

#include <cstdint>

namespace lmscope::gpu::kernels {

constexpr int32_t kKvBlock = 32;  // values per q8_0 / q4_0 block
constexpr int32_t kQ8_0Bytes = 34;
constexpr int32_t kQ4_0Bytes = 18;

// Where one layer's K and V rows live. Position j of kv head g:
//   j <  n_old : old + (j * n_kv + g) * row_bytes           (rows staged from host memory)
//   j >= n_old : ring + ((j % ring_cap) * n_kv + g) * row_bytes   (rows kept on the device)
struct KvView {
    const uint8_t* k_old = nullptr;  // [n_old][n_kv][row_bytes]
    const uint8_t* v_old = nullptr;  // [n_old][n_kv][row_bytes]
    const uint8_t* k_ring = nullptr; // [ring_cap][n_kv][row_bytes]
    const uint8_t* v_ring = nullptr; // [ring_cap][n_kv][row_bytes]
    int32_t n_old = 0;
    int32_t ring_cap = 1;
    int32_t n_kv = 1;
    int32_t row_bytes = 0;
    KvType type = KvType::F16;
};

}  // namespace lmscope::gpu::kernels
