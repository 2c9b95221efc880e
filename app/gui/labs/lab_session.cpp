#include "gui/labs/lab_session.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "engine/session.h"
#include "util/error.h"

#include <algorithm>

namespace lmscope::gui::labs {

LabSession::LabSession() = default;
LabSession::LabSession(LabSession&&) noexcept = default;
LabSession& LabSession::operator=(LabSession&& other) noexcept {
    session.reset();
    model = std::move(other.model);
    backend = std::move(other.backend);
    session = std::move(other.session);
    return *this;
}
LabSession::~LabSession() { session.reset(); }

LabSession make_lab_session(const LabModelPtr& model, const LabSessionOptions& options) {
    if (!model || !model->model || !model->tokenizer) throw UsageError("lab: no model is loaded");
    engine::BackendOptions bo;
    bo.n_threads = options.threads;
    bo.kv_type = options.kv_type;
    bo.kv_offload_bytes = options.kv_offload_bytes;
    bo.n_ctx = std::min<int32_t>(options.n_ctx, model->model->spec().n_ctx_train());
    LabSession lab;
    lab.model = model;
    lab.backend = engine::make_backend(options.backend, model->model, bo);
    engine::SessionOptions so;
    so.sampling = options.sampling;
    so.capture = options.capture;
    so.prefix_reuse = options.prefix_reuse;
    lab.session = std::make_unique<engine::Session>(*lab.backend, *model->tokenizer, so);
    return lab;
}

}  // namespace lmscope::gui::labs
