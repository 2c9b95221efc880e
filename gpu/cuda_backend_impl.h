// CudaBackend's implementation (internal to gpu/; CUDA types inside).
#pragma once

#include "engine/block.h"
#include "gpu/cuda_backend.h"
#include "gpu/cublas_loader.h"
#include "gpu/device_kv.h"
#include "gpu/device_memory.h"
#include "gpu/device_weights.h"
#include "gpu/gemm.h"
#include "gpu/kernels/attention.cuh"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <string>
#include <vector>

namespace lmscope::gpu {

// Owners of the CUDA handles (destroyed last, after every buffer).
struct StreamHandle {
    cudaStream_t s = nullptr;
    StreamHandle(cudaStream_t stream) : s(stream) {}
    StreamHandle(const StreamHandle&) = delete;
    StreamHandle& operator=(const StreamHandle&) = delete;
    ~StreamHandle() { if (s) cudaStreamDestroy(s); }
};
struct BlasHandle {
    cublasHandle_t h = nullptr;
    BlasHandle() = default;
    BlasHandle(const BlasHandle&) = delete;
    BlasHandle& operator=(const BlasHandle&) = delete;
    ~BlasHandle() { if (h) cublas().destroy(h); }
};
struct EventHandles {
    std::vector<cudaEvent_t> e;
    EventHandles() = default;
    EventHandles(const EventHandles&) = delete;
    EventHandles& operator=(const EventHandles&) = delete;
    ~EventHandles() { for (cudaEvent_t x : e) if (x) cudaEventDestroy(x); }
};

// The block's operations (engine/block.h) on the device, over one segment's rows.
class CudaBackend::Impl final : private engine::BlockOps {
public:
    Impl(std::shared_ptr<const engine::Model> model, const engine::BackendOptions& o, const CudaOptions& c);
    ~Impl();

    std::string name() const { return name_; }
    const engine::Model& model() const { return *model_; }
    void forward(const engine::ForwardRequest& r);
    int32_t n_ctx() const { return kv_.n_ctx(); }
    int32_t kv_tokens() const { return kv_.n_tokens(); }
    void kv_truncate(int32_t n) { kv_.truncate(n); }
    engine::KvStats kv_stats() const;
    KvOffloadStats offload_stats() const;

private:
    // One forward step: what was asked and how it is cut into segments and attention chunks.
    struct Step {
        std::span<const int32_t> tokens;
        int32_t pos0 = 0, n = 0;
        int32_t n_keys = 0;       // pos0 + n: keys visible to the last row, width of the planes
        int32_t seg_rows = 0;     // rows per segment (all layers run over one segment at a time)
        int32_t chunk_rows = 0;   // attention rows per launch (bounds the weights scratch)
        const trace::CapturePolicy* policy = nullptr;
        trace::StepCapture* capture = nullptr;
        bool summaries = false;   // per-row summaries on the device
        int32_t lens_k = 0;       // logit lens entries per layer; 0: none
        bool all_logits = false;
        std::span<float> logits_out;
        engine::Interventions interventions;  // heads whose z is zeroed before Wo, sub-layers skipped
    };

    void ensure_buffers(const Step& st);
    void segment(Step& st, int32_t s0, int32_t ns, const CancelToken* cancel);
    // BlockOps over rows [0, ns_) of segment s0_ of step *st_
    void norm_in(int32_t layer, engine::BlockNorm which) override;
    void qkv(int32_t layer) override;
    void qk_norm(int32_t layer) override;
    void rope(int32_t table) override;
    void store_kv(int32_t layer) override;
    void attention(int32_t layer, int32_t window) override;
    void zero_head(int32_t head) override;
    void project(int32_t layer, engine::Projection which) override;
    void post_norm(int32_t layer, engine::Projection which) override;
    void add_out() override;
    void clear_out() override;
    void project_add(int32_t layer, engine::Projection which, bool post_norm) override;
    void gate_up(int32_t layer, model::FfnActivation act) override;
    bool wants(trace::Hook h, int32_t layer) const override { return hooks_.find(h, layer) != nullptr; }
    void hook(trace::Hook h, int32_t layer) override;
    // The weights and input of a projection: Wo over z, or Wdown over act(gate) * up.
    struct ProjectionArgs {
        const DeviceMatrix* w;  // [n_embd][k]
        const __half* in;  // [ns][w->k]
        const float* post_norm;  // [n_embd], null when the recipe has none
    };
    ProjectionArgs projection(int32_t layer, engine::Projection which) const;
    // y[ns][w.rows] = in[ns][w.k] W^T (+= when accumulate), through gemm_rows
    void gemm(const DeviceMatrix& w, const __half* in, int32_t rows, float* y, bool accumulate);
    // logits of `rows` rows of xn_ into out (the head, then the recipe's soft-cap)
    void head(int32_t rows, float* out);
    void lens_layer(int32_t l, int32_t last_row);
    // capture (cuda_capture.cpp)
    void prepare_capture(Step& st);
    void finish_capture(Step& st);
    // Rows [0, rows) of a device matrix, columns [col0, col0 + width) of rows `stride` values
    // apart, into dst [rows][width] on the host (half values converted to float).
    void copy_rows(float* dst, const float* src, size_t stride, size_t col0, size_t width, int32_t rows);
    void copy_rows(float* dst, const __half* src, size_t stride, size_t col0, size_t width, int32_t rows);
    // A launch's attention rows [row0, row0 + n_rows), [n_head][n_rows][n_keys] on the device,
    // into a scores or pattern hook [n_head][n][n_keys].
    void copy_attention_rows(float* hook, const float* rows, const Step& st, int32_t row0, int32_t n_rows);
    // final_norm and logits hooks: rows [row0, row0 + rows) from xn_ and logits_
    void final_hooks(int32_t row0, int32_t rows);

    std::shared_ptr<const engine::Model> model_;
    const model::ModelSpec& spec_;
    std::string name_;  // before device_: select_device() writes the device's label into it
    int device_;
    // dimensions
    int32_t n_embd_, n_head_, n_kv_, hd_, QD_, KD_, QKV_, n_ff_, n_vocab_, n_layer_, n_rot_;
    float eps_, scale_;
    bool neox_;

    StreamHandle stream_;
    BlasHandle blas_;
    EventHandles events_;  // [n_layer + 1] layer boundaries (timing when capturing)
    DeviceKv kv_;
    DeviceWeights w_;

    // activations of one segment (ns rows), named after engine/block.h's roles
    DeviceArray<int32_t> ids_{"token ids"};    // [n] the step's ids
    DeviceArray<float> x_{"residual stream"};  // [ns][n_embd]
    DeviceArray<__half> xn_{"normed rows"};    // [ns][n_embd]
    DeviceArray<float> qkv_{"q/k/v rows"};     // [ns][QD + 2 KD]: q, k and v of a row side by side
    DeviceArray<__half> z_{"attention output"};  // [ns][QD] each head's weighted sum of values
    DeviceArray<float> gu_{"gate/up rows"};    // [ns][2 n_ff] the gate's and the up projection's rows
    DeviceArray<float> out_{"block output rows"};  // [ns][n_embd] a block's projection, before it is added to x
    DeviceArray<__half> act_{"gated activation rows"};  // [ns][n_ff] act(gate) * up
    DeviceArray<float> logits_{"logits"};      // [ns or 1][n_vocab]
    DeviceArray<__half> tile_{"weight tiles"};  // [tile_values_for(..)] prefill's decoded weight rows
    DeviceArray<float> probs_{"attention weights scratch"};  // [n_head][chunk rows][n keys]
    DeviceArray<float> scores_{"attention scores scratch"};  // [n_head][chunk rows][n keys] (the scores hook)
    DeviceArray<HeadSummary> summaries_{"attention summaries"};  // [layer][head][n]
    DeviceArray<__half> lens_xn_{"logit lens row"};     // [n_embd]
    DeviceArray<float> lens_logits_{"logit lens logits"};  // [layer][n_vocab]
    // page-locked host copies
    PinnedArray<int32_t> ids_host_{"token ids (host)"};            // [n]
    PinnedArray<float> planes_host_{"attention planes (host)"};    // [plane][n][n keys]
    PinnedArray<HeadSummary> summaries_host_{"attention summaries (host)"};  // [layer][head][n]
    PinnedArray<float> lens_host_{"logit lens (host)"};            // [layer][n_vocab]
    PinnedArray<__half> hook_half_host_{"hook rows (host)"};        // [ns][width] a half hook's rows
    trace::HookSlots hooks_;  // this step's hook tensors
    // the segment in progress (BlockOps)
    Step* st_ = nullptr;
    int32_t s0_ = 0, ns_ = 0;  // its first row in the step, its rows

    // host scratch
    std::vector<int32_t> plane_of_head_;  // [layer][head] -> plane index or -1
    KvTraffic last_traffic_, total_traffic_;
};

}  // namespace lmscope::gpu
