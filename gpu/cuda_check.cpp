#include "gpu/cuda_check.h"
#include "gpu/cublas_loader.h"

#include "util/error.h"

#include <cstdio>
#include <cstring>

namespace lmscope::gpu {

namespace {

std::string where(const char* file, int line) {
    // keep the path from the source tree's gpu/ folder on
    const char* p = std::strstr(file, "gpu/");
    return std::string(p ? p : file) + ":" + std::to_string(line);
}

}  // namespace

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    std::string msg = "CUDA error at " + where(file, line) + " (" + call + "): " +
                      cudaGetErrorName(err) + ": " + cudaGetErrorString(err);
    if (err == cudaErrorMemoryAllocation) msg = "out of device memory: " + msg;
    throw Error(msg);
}

void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
    throw Error("cuBLAS error at " + where(file, line) + " (" + call + "): " +
                cublas().status_name(status) + ": " + cublas().status_string(status));
}

void throw_out_of_memory(size_t bytes, const std::string& what) {
    cudaGetLastError();
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.1f", double(bytes) / (1024.0 * 1024.0));
    size_t free_b = 0, total_b = 0;
    std::string have;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
        char buf[96];
        std::snprintf(buf, sizeof buf, " (%.1f MiB free of %.1f MiB)", double(free_b) / 1048576.0,
                      double(total_b) / 1048576.0);
        have = buf;
    } else {
        cudaGetLastError();
    }
    throw Error(std::string("out of device memory: needed ") + mib + " MiB for " + what + have);
}

}  // namespace lmscope::gpu
