// The CUDA backend: engine::Backend on an NVIDIA GPU (cuBLAS + kernels in gpu/kernels/).
// Plain C++ header (no CUDA types): app/ includes it when LMSCOPE_HAVE_CUDA is defined.
//
// Results agree with the CPU reference within tolerance (fp16 weights and GEMM inputs, fp32
// accumulation; see device_weights.h). Attention weights are copied to the host only for the
// (layer, head) pairs the capture policy asks for; summaries are computed on the device.
#pragma once

#include "engine/backend.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace lmscope::engine {
class Model;
}

namespace lmscope::gpu {

struct CudaOptions {
    int device = 0;              // CUDA device index
    // KV offload: 0 keeps the whole cache on the device; W > 0 keeps the most recent W
    // positions on the device and every position in page-locked host memory, staging older
    // positions back per layer (forward steps longer than W run in segments of W rows).
    int32_t offload_window = 0;
};

// KV offload figures for the KV lab (all zero traffic without offload).
struct KvOffloadStats {
    int32_t window = 0;             // 0: no offload
    int32_t device_tokens = 0;      // positions whose K/V sit on the device
    int32_t host_tokens = 0;        // positions read back from host memory by the next step
    size_t device_bytes = 0;        // device memory of the cache (ring + staging)
    size_t host_bytes = 0;          // page-locked host memory of the cache
    uint64_t step_to_device = 0;    // bytes host -> device during the last forward step
    uint64_t step_to_host = 0;      // bytes device -> host during the last forward step
    uint64_t total_to_device = 0;   // since the backend was made
    uint64_t total_to_host = 0;
};

class CudaBackend final : public engine::Backend {
public:
    // Throws lmscope::Error with the reason when CUDA cannot start ("no CUDA device: no CUDA
    // driver", out of device memory while uploading the weights, ...), UsageError on bad options.
    CudaBackend(std::shared_ptr<const engine::Model> model, const engine::BackendOptions& options,
                const CudaOptions& cuda);
    ~CudaBackend() override;

    std::string name() const override;
    const engine::Model& model() const override;
    void forward(const engine::ForwardRequest& r) override;
    int32_t n_ctx() const override;
    int32_t kv_tokens() const override;
    void kv_truncate(int32_t n) override;
    engine::KvStats kv_stats() const override;

    KvOffloadStats offload_stats() const;

    class Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// The factories app/ calls. Throw like the constructor.
std::unique_ptr<engine::Backend> make_cuda_backend(std::shared_ptr<const engine::Model> model,
                                                   const engine::BackendOptions& options,
                                                   int device = 0);
std::unique_ptr<CudaBackend> make_cuda_backend(std::shared_ptr<const engine::Model> model,
                                               const engine::BackendOptions& options,
                                               const CudaOptions& cuda);

}  // namespace lmscope::gpu
