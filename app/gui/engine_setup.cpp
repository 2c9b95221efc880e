#include "gui/engine_setup.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "engine/prepared_model.h"
#include "util/cpu_info.h"
#include "util/error.h"
#include "util/resource_errors.h"

#include <QFileInfo>

#include <algorithm>

namespace lmscope::gui {

LabModelPtr lab_model_of(const QString& path, engine::PreparedModel prepared) {
    auto lab = std::make_shared<LabModel>();
    lab->path = path;
    lab->name = QFileInfo(path).completeBaseName();
    lab->model = std::move(prepared.model);
    lab->tokenizer = std::move(prepared.tokenizer);
    return lab;
}

LabModelPtr load_lab_model(const QString& path) { return lab_model_of(path, engine::prepare_model(path.toStdString())); }

EngineOptions lab_engine(const EngineOptions& chosen, int32_t n_ctx) {
    EngineOptions o = chosen;
    o.resources.kv_type = KvType::F16;
    o.resources.n_ctx = n_ctx;
    return o;
}

std::unique_ptr<engine::Backend> make_engine_backend(const LabModel& model, const EngineOptions& options) {
    if (!model.model) throw UsageError("no model is loaded");
    engine::BackendOptions bo = options.resources;
    bo.n_threads = std::clamp(bo.n_threads, 0, hardware_threads());  // 0: every core
    bo.n_ctx = std::min<int32_t>(bo.n_ctx, model.model->spec().n_ctx_train());
    return with_context(model.path.toStdString() + ": starting the " + options.backend + " backend",
                        [&] { return engine::make_backend(options.backend, model.model, bo); });
}

EngineSession::EngineSession() = default;
EngineSession::EngineSession(EngineSession&&) noexcept = default;
EngineSession& EngineSession::operator=(EngineSession&& other) noexcept {
    session.reset();
    model = std::move(other.model);
    backend = std::move(other.backend);
    session = std::move(other.session);
    return *this;
}
EngineSession::~EngineSession() { session.reset(); }

engine::SessionOptions lab_session_options() {
    engine::SessionOptions so;
    so.sampling = engine::greedy_sampling();
    return so;
}

EngineSession make_engine_session(const LabModelPtr& model, const EngineOptions& options,
                                  const engine::SessionOptions& session) {
    if (!model || !model->model || !model->tokenizer) throw UsageError("no model is loaded");
    EngineSession out;
    out.model = model;
    out.backend = make_engine_backend(*model, options);
    out.session = with_context(model->path.toStdString() + ": starting the session", [&] {
        return std::make_unique<engine::Session>(*out.backend, *model->tokenizer, session);
    });
    return out;
}

}  // namespace lmscope::gui
