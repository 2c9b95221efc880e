// The projections: cuBLAS GEMM with fp16 inputs, fp32 accumulation and fp32 output.
#pragma once

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu {

// y[n][m] = x[n][k] . W[m][k]^T, or y += that when accumulate (the residual add).
//   w: [m][k] half (GGUF row order: one output per row); x: [n][k] half; y: [n][m] float.
// n > 1 (prefill): cuBLAS, whose stream is `stream`; in its column-major terms
// C(m x n, ldc m) = op_T(A: k x m, lda k) . B(k x n, ldb k). n == 1 (decode): kernels::gemv.
void gemm_rows(cublasHandle_t blas, cudaStream_t stream, const __half* w, int32_t m, int32_t k,
               const __half* x, int32_t n, float* y, bool accumulate);

}  // namespace lmscope::gpu
