#include "gpu/gemm.h"

#include "gpu/cuda_check.h"
#include "gpu/cublas_loader.h"
#include "gpu/kernels/gemv.cuh"

namespace lmscope::gpu {

void gemm_rows(cublasHandle_t blas, cudaStream_t stream, const __half* w, int32_t m, int32_t k,
               const __half* x, int32_t n, float* y, bool accumulate) {
    if (n <= 0) return;
    if (n == 1) return kernels::gemv(w, m, k, x, y, accumulate, stream);
    const float alpha = 1.0f, beta = accumulate ? 1.0f : 0.0f;
    LMSCOPE_CUBLAS_CHECK(cublas().gemm_ex(blas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, w, CUDA_R_16F,
                                      k, x, CUDA_R_16F, k, &beta, y, CUDA_R_32F, m,
                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

}  // namespace lmscope::gpu
