// The projections: y = x W^T with W as the file stores it (device_weights.h).
#pragma once

#include "gpu/device_weights.h"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu {

// cuBLAS on the step's stream, and the scratch prefill decodes weight tiles into.
struct GemmContext {
    cublasHandle_t blas = nullptr;  // its stream is `stream`
    cudaStream_t stream = nullptr;
    __half* tile = nullptr;         // [tile_values] fp16 scratch (n > kMaxGemvRows, a matrix not all F16)
    int64_t tile_values = 0;        // at least one row of the widest matrix
};

// Values of the tile scratch for weights whose largest decoded part has `max_decoded` values:
// all of it, or a bounded tile (at least one row of k values) when it is larger.
int64_t tile_values_for(int64_t max_decoded, int32_t max_k);

// y[n][w.rows] = x[n][w.k] . W^T, or y += that when accumulate (the residual add).
//   x: [n][w.k] half (16-byte aligned); y: [n][w.rows] float.
// n <= kernels::kMaxGemvRows (decode, short steps): kernels::gemv per part, the weights decoded
// in registers and read once. Longer prefill: cuBLAS (fp16 inputs, fp32 accumulation and
// output) per part, on the part itself when it is F16, else on tiles of its rows decoded to
// fp16 into c.tile (kernels::dequant_rows). In
// cuBLAS's column-major terms, per part or tile of r rows from row r0:
// C(r x n, ldc w.rows) at y + r0 = op_T(A: k x r, lda k) . B(k x n, ldb k).
void gemm_rows(const GemmContext& c, const DeviceMatrix& w, const __half* x, int32_t n, float* y, bool accumulate);

}  // namespace lmscope::gpu
