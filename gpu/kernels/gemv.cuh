// Matrix-vector product for decode (one row of activations): y = W x, or y += W x.
// Decode is bound by reading the weights once; this kernel streams them with 16-byte loads
// and skips cuBLAS's per-call overhead, which dominates at one row.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// w: [m][k] half; x: [k] half; y: [m] float. accumulate: y += W x, else y = W x.
void gemv(const __half* w, int32_t m, int32_t k, const __half* x, float* y, bool accumulate,
          cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
