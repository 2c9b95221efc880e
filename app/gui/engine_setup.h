// What the app's engine work runs on, in one place: the loaded model as the engine runs it
// (LabModel: the shared immutable Model and its Tokenizer), the engine the user chose
// (EngineOptions: the Sampling panel's Backend, Threads, KV cache and Context), and the one
// function that builds a backend, or a backend and a session, from the two. The step-through
// session, every lab, the Layer view and the comparisons all build theirs here, so each runs on
// the backend the user chose (CUDA where it was chosen).
#pragma once

#include "engine/backend.h"
#include "engine/session.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <string>

namespace lmscope::engine {
class Model;
struct PreparedModel;
}  // namespace lmscope::engine
namespace lmscope::tok {
class Tokenizer;
}

namespace lmscope::gui {

// The loaded model as the engine runs it. Immutable and shared: every backend made on it
// shares its weights (the CPU form is packed once), so the labs run beside the step-through
// session without waiting for it or disturbing its cache.
struct LabModel {
    QString path;
    QString name;                                     // file name without the extension
    std::shared_ptr<const engine::Model> model;
    std::shared_ptr<const tok::Tokenizer> tokenizer;  // encode/decode are const and thread-safe
};
using LabModelPtr = std::shared_ptr<const LabModel>;

// Opens and validates the GGUF file and builds its tokenizer. Slow for large files: call it off
// the UI thread. Throws lmscope::Error (FormatError names the file, the field and the reason).
LabModelPtr load_lab_model(const QString& path);
// The same from a model already prepared (the window's open: the file is parsed once).
LabModelPtr lab_model_of(const QString& path, engine::PreparedModel prepared);

// The engine the user chose. A job that owns its cache's size or storage (a lab's short
// prompt, the KV lab's three cache types) sets those in its copy; the backend and the threads
// stay the user's.
struct EngineOptions {
    std::string backend = "cpu";  // one of engine::backend_names()
    engine::BackendOptions resources{.n_ctx = engine::kDefaultContext};  // threads, KV storage, context
};

// What a lab's short run uses: the chosen backend and threads, an f16 cache of `n_ctx`
// positions (a lab's numbers never depend on the session's cache settings).
EngineOptions lab_engine(const EngineOptions& chosen, int32_t n_ctx = engine::kDefaultContext);

// A backend of `model` as `options` say: threads clamped to the machine, the context capped
// at the model's training context. Throws UsageError for an unknown backend or no model,
// lmscope::Error when the backend cannot start (no device, no memory), naming the file.
std::unique_ptr<engine::Backend> make_engine_backend(const LabModel& model, const EngineOptions& options);

// A backend and a session on it, kept together (the session refers to the backend).
struct EngineSession {
    LabModelPtr model;                         // keeps the Model and the Tokenizer alive
    std::unique_ptr<engine::Backend> backend;
    std::unique_ptr<engine::Session> session;
    EngineSession();
    EngineSession(EngineSession&&) noexcept;
    EngineSession& operator=(EngineSession&&) noexcept;
    ~EngineSession();  // the session goes before the backend
};

// The session options a lab starts from: greedy (a lab's run is reproducible), summaries
// captured, chat turns keeping their common prefix.
engine::SessionOptions lab_session_options();

// Throws as make_engine_backend, and UsageError for settings the sampler rejects.
EngineSession make_engine_session(const LabModelPtr& model, const EngineOptions& options = {},
                                  const engine::SessionOptions& session = lab_session_options());

}  // namespace lmscope::gui

Q_DECLARE_METATYPE(lmscope::gui::LabModelPtr)
