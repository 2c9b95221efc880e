#include "gpu/device_memory.h"

#include "gpu/cuda_check.h"
#include "util/error.h"

#include <cuda_runtime_api.h>

#include <limits>

namespace lmscope::gpu {

void* device_alloc(size_t bytes, const std::string& what) {
    if (bytes == 0) bytes = 1;
    void* p = nullptr;
    const cudaError_t err = cudaMalloc(&p, bytes);
    if (err == cudaErrorMemoryAllocation) throw_out_of_memory(bytes, what);
    if (err != cudaSuccess) throw_cuda_error(err, ("cudaMalloc for " + what).c_str(), __FILE__, __LINE__);
    return p;
}

void device_free(void* p) noexcept {
    if (p) cudaFree(p);  // errors here belong to earlier work, reported where it is checked
}

void* pinned_alloc(size_t bytes, const std::string& what) {
    if (bytes == 0) bytes = 1;
    void* p = nullptr;
    const cudaError_t err = cudaHostAlloc(&p, bytes, cudaHostAllocDefault);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw Error("out of page-locked host memory: needed " +
                    std::to_string(bytes / (1024 * 1024)) + " MiB for " + what);
    }
    if (err != cudaSuccess) throw_cuda_error(err, ("cudaHostAlloc for " + what).c_str(), __FILE__, __LINE__);
    return p;
}

void pinned_free(void* p) noexcept {
    if (p) cudaFreeHost(p);
}

size_t checked_bytes(size_t count, size_t size, const std::string& what) {
    if (size != 0 && count > std::numeric_limits<size_t>::max() / size)
        throw UsageError("cuda: size of " + what + " overflows");
    return count * size;
}

}  // namespace lmscope::gpu
