// cuBLAS, loaded when the CUDA backend is first made instead of when the program starts.
// Linking libcublas made every lmscope-cli and GUI run map libcublasLt at start: about 61 MiB
// of resident memory on a CPU-only run, and its initializer crashed before main under a low
// address-space limit. Internal to gpu/ (cuBLAS types inside).
#pragma once

#include <cublas_v2.h>

namespace lmscope::gpu {

// The cuBLAS entry points the backend calls (cublas_v2.h names them *_v2).
struct CublasApi {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetStream_v2) set_stream = nullptr;
    // the exported cublasGemmEx (the header adds an inline overload taking a cudaDataType)
    cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                              const void*, const void*, cudaDataType, int, const void*, cudaDataType,
                              int, const void*, void*, cudaDataType, int, cublasComputeType_t,
                              cublasGemmAlgo_t) = nullptr;
    decltype(&cublasGetStatusName) status_name = nullptr;
    decltype(&cublasGetStatusString) status_string = nullptr;
};

// Loads the library once (by its soname, then from the toolkit's directory this build used).
// Throws lmscope::Error naming the library and the loader's reason when it or an entry point is
// missing; the result is kept for the life of the process.
const CublasApi& cublas();

}  // namespace lmscope::gpu
