#include "gpu/gemm.h"

#include "gpu/cuda_check.h"
#include "gpu/cublas_loader.h"
#include "gpu/kernels/dequant.cuh"
#include "gpu/kernels/gemv.cuh"
#include "util/error.h"

#include <algorithm>

namespace lmscope::gpu {

namespace {

// Decoded values per tile beyond which prefill decodes a matrix in several tiles (64 MiB of
// fp16): the largest matrices (a 262k-token output head) then need no matching scratch, and a
// tile still feeds cuBLAS thousands of rows.
constexpr int64_t kTileBudget = int64_t(32) << 20;

// C[n][rows] (ldc) = x . A^T (+ C when accumulate); A: [rows][k] half.
void blas_rows(const GemmContext& c, const __half* a, int32_t rows, int32_t k, const __half* x, int32_t n, float* y,
               int32_t ldc, bool accumulate) {
    const float alpha = 1.0f, beta = accumulate ? 1.0f : 0.0f;
    LMSCOPE_CUBLAS_CHECK(cublas().gemm_ex(c.blas, CUBLAS_OP_T, CUBLAS_OP_N, rows, n, k, &alpha, a, CUDA_R_16F, k, x,
                                          CUDA_R_16F, k, &beta, y, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F,
                                          CUBLAS_GEMM_DEFAULT));
}

}  // namespace

int64_t tile_values_for(int64_t max_decoded, int32_t max_k) {
    return std::min(max_decoded, std::max(kTileBudget, int64_t(max_k)));
}

void gemm_rows(const GemmContext& c, const DeviceMatrix& w, const __half* x, int32_t n, float* y, bool accumulate) {
    if (n <= 0) return;
    const int32_t k = w.k;
    for (const DeviceMatrix::Part& p : w.parts) {
        const uint8_t* data = p.data.get();
        float* yp = y + p.row0;
        if (n <= kernels::kMaxGemvRows) {
            kernels::gemv(data, p.type, p.rows, k, x, n, yp, w.rows, accumulate, c.stream);
        } else if (p.type == gguf::TensorType::F16) {
            blas_rows(c, reinterpret_cast<const __half*>(data), p.rows, k, x, n, yp, w.rows, accumulate);
        } else {
            const int32_t tile_rows = int32_t(std::min<int64_t>(p.rows, c.tile_values / k));
            if (tile_rows < 1) throw UsageError("gemm_rows: no tile scratch for a row of " + std::to_string(k));
            const size_t rb = gguf::row_bytes(p.type, k);
            for (int32_t r0 = 0; r0 < p.rows; r0 += tile_rows) {
                const int32_t r = std::min(tile_rows, p.rows - r0);
                kernels::dequant_rows(data + size_t(r0) * rb, p.type, r, k, c.tile, c.stream);
                blas_rows(c, c.tile, r, k, x, n, yp + r0, w.rows, accumulate);
            }
        }
    }
}

}  // namespace lmscope::gpu
