// A short engine session for a lab: its own backend (own KV cache, the shared Model) and
// Session on the lab's LabModel. Labs make one per run, inside their job (off the UI thread).
#pragma once

#include "engine/backend.h"
#include "engine/sampler.h"
#include "gui/labs/lab_model.h"
#include "trace/capture.h"

#include <memory>
#include <string>

namespace lmscope::engine {
class Session;
}

namespace lmscope::gui::labs {

struct LabSessionOptions {
    static engine::SamplerSettings greedy() {
        engine::SamplerSettings s;
        s.temperature = 0.0f;
        return s;
    }

    std::string backend = "cpu";
    int threads = 0;                           // 0: every core
    KvType kv_type = KvType::F16;
    int32_t n_ctx = 2048;                      // capped at the model's training context
    uint64_t kv_offload_bytes = 0;             // engine::BackendOptions::kv_offload_bytes (0: off)
    engine::SamplerSettings sampling = greedy(); // a lab's run is reproducible unless it asks otherwise
    trace::CapturePolicy capture;              // summaries by default
    bool prefix_reuse = true;                  // chat turns keep the common token prefix
};

struct LabSession {
    LabModelPtr model;                         // keeps the Model and the Tokenizer alive
    std::unique_ptr<engine::Backend> backend;  // the session refers to it
    std::unique_ptr<engine::Session> session;
    LabSession();
    LabSession(LabSession&&) noexcept;
    LabSession& operator=(LabSession&&) noexcept;
    ~LabSession();  // the session goes before the backend
};

// Throws lmscope::Error (an unknown backend, settings the sampler rejects, no memory).
LabSession make_lab_session(const LabModelPtr& model, const LabSessionOptions& options = {});

}  // namespace lmscope::gui::labs
