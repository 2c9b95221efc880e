// Checked CUDA and cuBLAS calls: a failure becomes an lmscope::Error naming the file, the line,
// the call and the CUDA error string (never exit()). Internal to gpu/ (CUDA types inside).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace lmscope::gpu {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file,
                                     int line);
// "out of device memory: needed 12.5 MiB for WHAT" (cudaErrorMemoryAllocation from an allocation).
[[noreturn]] void throw_out_of_memory(size_t bytes, const std::string& what);

}  // namespace lmscope::gpu

#define LMSCOPE_CUDA_CHECK(call)                                                       \
    do {                                                                               \
        const cudaError_t lmscope_err_ = (call);                                       \
        if (lmscope_err_ != cudaSuccess)                                               \
            ::lmscope::gpu::throw_cuda_error(lmscope_err_, #call, __FILE__, __LINE__); \
    } while (0)

#define LMSCOPE_CUBLAS_CHECK(call)                                                        \
    do {                                                                                  \
        const cublasStatus_t lmscope_st_ = (call);                                        \
        if (lmscope_st_ != CUBLAS_STATUS_SUCCESS)                                         \
            ::lmscope::gpu::throw_cublas_error(lmscope_st_, #call, __FILE__, __LINE__);   \
    } while (0)

// After a kernel launch: reports a bad launch configuration at once (execution errors
// surface at the next synchronizing call, which is checked too).
#define LMSCOPE_CUDA_LAUNCHED() LMSCOPE_CUDA_CHECK(cudaGetLastError())
