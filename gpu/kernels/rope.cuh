// Rotary position embedding of the query and key heads, in place.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// rows: [n_rows][row_stride] float; the first n_heads * head_dim values of each row are the
// heads to rotate (query heads then key heads, contiguous). Row t sits at position pos0 + t.
// Pair i of a head (i < n_rot / 2) turns by angle pos * inv_freq[i]:
//   neox = false: values (2i, 2i+1);  neox = true: values (i, i + n_rot/2).
// inv_freq: [n_rot / 2] device floats.
void rope(float* rows, int32_t n_rows, int32_t row_stride, int32_t n_heads, int32_t head_dim,
          int32_t n_rot, const float* inv_freq, int32_t pos0, bool neox, cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
