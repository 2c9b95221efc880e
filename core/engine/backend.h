// The Backend interface: one loaded model on one device, with its KV cache, computing forward
// steps. The CPU backend (cpu_backend.h) is the reference; a CUDA backend implements the same
// interface and is held to the CPU's results within tolerance.
//
// A forward step feeds tokens at positions pos0 .. pos0+n-1 on top of the first pos0 cached
// positions, appends their K/V to the cache, returns logits and fills a trace::StepCapture as
// the capture policy asks (only what is asked is copied out), with the interventions asked
// for (heads switched off).
#pragma once

#include "engine/kv_cache.h"
#include "engine/part_times.h"
#include "trace/capture.h"
#include "util/cancel.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lmscope::engine {

class Model;

// The context a front end opens a session with unless told otherwise (lmscope-cli run's --ctx,
// the window's Context): capped at the model's training context.
inline constexpr int32_t kDefaultContext = 2048;

struct BackendOptions {
    int n_threads = 0;            // CPU worker threads; 0 = every core this process may use
    KvType kv_type = KvType::F16; // KV cache storage
    int32_t n_ctx = 0;            // positions the cache may hold; 0 = the model's context length
    // > 0: at most this many bytes of the KV cache stay in compute memory; the older positions of
    // the global layers go to the next tier (the CPU backend: a private temporary file) and are
    // streamed back each step, with the same results. 0: the whole cache stays.
    uint64_t kv_offload_bytes = 0;
};

// kv_offload_bytes for a budget of `mib` MiB as a person gives it (fractions allowed): 0 when
// mib <= 0 (off), else at least 1 byte.
uint64_t kv_offload_budget(double mib);

// The cache as the trace and the UI report it: measured from its storage, beside the formula.
struct KvStats {
    KvType type = KvType::F16;
    int32_t n_tokens = 0;                 // positions held
    int32_t n_ctx = 0;                    // positions it may hold
    size_t bytes_per_token = 0;           // K + V of all layers for one position (formula)
    std::vector<size_t> layer_bytes;      // [layer] bytes stored (K + V): the rows the layer holds x
                                          // the storage's row size (a local layer: those in its window)
    size_t total_bytes = 0;               // sum of layer_bytes: the bytes stored, measured
    size_t formula_bytes = 0;             // kv::cache_bytes of the model's shape at n_tokens
    size_t reserved_bytes = 0;            // memory allocated (grows ahead of the tokens held)
    size_t resident_bytes = 0;            // of it, the rows' storage in compute memory
    size_t offloaded_bytes = 0;           // bytes stored in the next tier (0 without offload)
    uint64_t moved_bytes = 0;             // bytes moved between the tiers since the backend started
};

// One forward step, as asked (designated initializers name what differs from the defaults).
struct ForwardRequest {
    std::span<const int32_t> tokens;  // the n >= 1 ids fed (each in [0, n_vocab))
    int32_t pos0 = 0;                 // position of tokens[0]; pos0 <= kv_tokens(). The cache is
                                      // first truncated to pos0 (so rewinding is a smaller pos0,
                                      // as far back as kv_truncate(pos0) would keep pos0
                                      // positions), and pos0 + n <= n_ctx().
    trace::CapturePolicy policy;      // what to capture; ignored when capture is null
    trace::StepCapture* capture = nullptr;  // filled (reset first) when not null: attention
                                      // planes and summaries, hooks, the logit lens of the last
                                      // row, layer_ms, total_ms
    std::span<float> logits;          // all_logits ? [n][n_vocab] : [n_vocab] (after the last token)
    bool all_logits = false;
    const CancelToken* cancel = nullptr;  // checked before each layer; when cancelled, the cache
                                      // is truncated back to pos0 and CancelledError is thrown
    std::span<const LayerHead> ablate;   // heads whose z is zeroed before Wo (head ablation)
    std::span<const LayerSkip> skip;     // sub-layers whose output is not added (attn_out / mlp_out zero)
    // Called with the number of layers done after each one (the CPU backend; the CUDA backend
    // queues every layer at once and does not call it). Runs on the calling thread.
    std::function<void(int32_t layers_done)> on_layer;
};

// Throws UsageError on bad ids, positions, buffer sizes, ablated heads, skipped sub-layers or hooks of layers the
// model does not have (what every backend checks before it changes anything).
void check_forward_request(const ForwardRequest& r, const Model& model, int32_t kv_tokens, int32_t n_ctx);

class Backend {
public:
    virtual ~Backend() = default;

    // "cpu (avx512, 2 threads)"
    virtual std::string name() const = 0;
    // What a person should be told about how the backend started, or "" (the CPU backend
    // running on fewer threads than asked because the system refused more).
    virtual std::string notice() const { return {}; }
    virtual const Model& model() const = 0;

    // One forward step (ForwardRequest). Throws what check_forward_request throws (the cache
    // left unchanged), CancelledError, and UnsupportedError for what this backend cannot capture.
    virtual void forward(const ForwardRequest& request) = 0;

    virtual int32_t n_ctx() const = 0;
    virtual int32_t kv_tokens() const = 0;
    // Forgets positions >= n (n <= kv_tokens()); throws UsageError otherwise. A cache whose
    // sliding-window layers keep only their window may forget every position (kv_tokens() is
    // then 0) when they no longer hold the window before n: the caller feeds them again.
    virtual void kv_truncate(int32_t n) = 0;
    virtual KvStats kv_stats() const = 0;

    // Where the forward passes since the last clear_part_times() spent their time
    // (part_times.h); empty parts when this backend keeps no such record.
    virtual PartTimes part_times() const { return {}; }
    virtual void clear_part_times() {}
};

}  // namespace lmscope::engine
