// The step-through session's engine: EngineWorker lives on the UI thread and runs every request
// as a job of its JobRunner (gui/job_runner.h), on the engine's thread, in the order asked; it
// hears back through signals. The runner's one error boundary turns what a job throws into
// failed(JobError), so a bad file or setting never takes the window down. What a step produced
// travels as an immutable snapshot (widget view data already converted on the engine's thread),
// shared by pointer: the UI never reads the engine.
//
// Stop: cancel() cancels the running job's token (Session::CancelScope); the step stops
// between layers and throws CancelledError, the session stays as it was before that step and
// stopped() is emitted. A Stop that comes when nothing runs does nothing.
#pragma once

#include "engine/sampler.h"
#include "gui/job_runner.h"
#include "gui/engine_setup.h"
#include "trace/capture.h"
#include "widgets/trace_view.h"

#include <QObject>
#include <QString>
#include <QVector>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace lmscope::engine {
class Backend;
class Model;
class Session;
}  // namespace lmscope::engine
namespace lmscope::tok {
class Tokenizer;
}

namespace lmscope::gui {

// What load() reports.
struct EngineInfo {
    QString path;
    QString backend;        // "cpu (avx512, 2 threads)"
    EngineOptions options;  // as the session runs: the context capped at the model's
    int n_ctx = 0;
    widgets::ModelView model;
    LabModelPtr runnable;  // the loaded Model and Tokenizer (what runs beside the session shares it)
};

// After a step, rewind or reset: the steps the trace gained since the last snapshot and where
// the session stands now (after a Reset, a new session: the steps before it are gone).
// Immutable once emitted.
struct EngineSnapshot {
    enum class Kind { Step, Rewind, Reset, Repick };  // Repick: new sampler settings picked the pending token again
    Kind kind = Kind::Step;
    QVector<widgets::StepView> new_steps;  // indices continue the UI's step list
    QVector<qint32> dropped;               // steps whose planes the trace's budget released
    qint32 head = -1;                      // the current step (-1: none)
    qint32 kv_tokens = 0;
    quint64 kv_bytes = 0;
    double tokens_per_s = 0.0;             // of the last step (0: none)
    bool ends_turn = false;                // the pending token ends the reply
    std::optional<widgets::LogitsData> repicked;  // the head step's pick, made again (Repick, Rewind)
};
using SnapshotPtr = std::shared_ptr<const EngineSnapshot>;

// A prompt longer than the context, found before its prefill (nothing ran): its text and
// tokens, the context in force, the model's own and the context that holds the prompt with
// room to decode (engine::context_for_prompt; 0: not even the model's own).
struct PromptTooLong {
    QString prompt;
    QVector<qint32> ids;
    qint32 n_ctx = 0;
    qint32 n_ctx_train = 0;
    qint32 raise_to = 0;
};

// A trace file opened without a model.
struct TraceReplay {
    QString path;
    widgets::ModelView model;
    QVector<widgets::StepView> steps;
};
using ReplayPtr = std::shared_ptr<const TraceReplay>;

class EngineWorker : public QObject {
    Q_OBJECT
public:
    explicit EngineWorker(QObject* parent = nullptr);
    ~EngineWorker() override;  // shutdown()

    // Each call below queues one job on the engine's thread, after those queued before it.

    // Opens `path` (every check of prepare_model) and starts a session on it.
    void load(const QString& path, const lmscope::gui::EngineOptions& options);
    // Starts a session on a model the window has already opened (shared with the labs).
    void run(const lmscope::gui::LabModelPtr& model, const lmscope::gui::EngineOptions& options);
    void setSampling(const lmscope::engine::SamplerSettings& sampling);
    // Tokenizes `prompt` and prefills it; a prompt longer than the context is not run:
    // promptTooLong() says so instead.
    void prefill(const QString& prompt);
    void step();
    // The same path again on a new engine: prefill `prompt`, then feed each of `generated`
    // (forced where the sampler now picks another token); one snapshot at the end, or at Stop.
    void rerun(const QVector<qint32>& prompt, const QVector<qint32>& generated);
    void force(qint32 id);
    // The head a long prefill keeps the attention rows of first (the one the heatmap shows).
    void setAttentionFocus(qint32 layer, qint32 head);
    // The heads the next steps run switched off (their z zero before Wo), recorded in each
    // step's trace; kept for the next session on the same model.
    void setAblation(const QVector<lmscope::LayerHead>& heads);
    void rewind(qint32 step);
    // A new session on the same engine: the cache empty, the trace (every branch) gone; the
    // sampling settings, the heads switched off and the attention focus stay.
    void reset();
    void saveTrace(const QString& path);
    void openTrace(const QString& path);

    // Stops the running step between layers (no effect when idle); the queued calls still run.
    void cancel() { jobs_.stop(); }
    // Cancels the running step, drops the queued calls and ends the engine's thread (the
    // window is closing): nothing runs after it.
    void shutdown() { jobs_.shutdown(); }
    bool isShutDown() const { return jobs_.isShutDown(); }

signals:
    void loaded(const lmscope::gui::EngineInfo& info);
    void stepDone(const lmscope::gui::SnapshotPtr& snapshot);
    void traceSaved(const QString& path);
    void traceOpened(const lmscope::gui::ReplayPtr& replay);
    void promptTooLong(const lmscope::gui::PromptTooLong& prompt);  // prefill(): nothing ran
    void stopped();                                     // a call ended by cancel()
    void failed(const lmscope::gui::JobError& error);  // "Prefill failed: REASON"
    void status(const QString& what);                  // "Loading NAME…"
    // A prefill under way (several tokens): layers done of n_layer, its tokens as `items`, at
    // most ~10 times a second and at its last layer.
    void prefillProgress(const lmscope::gui::JobProgress& progress);

private:
    void start(const LabModelPtr& model, const EngineOptions& options);  // load's and run's part
    engine::SessionOptions sessionOptions() const;  // a session's options from the settings above
    void beginSession();  // engine_.session is new: the settings applied, nothing sent yet
    // Runs one engine computation under the job's token, its prefill progress reported.
    template <class F> void compute(const JobContext& job, F&& body);
    engine::Session& session();
    void emitSnapshot(EngineSnapshot::Kind kind, bool repicked = false);

    // Touched only by the jobs, on the engine's thread.
    EngineSession engine_;                    // the model (shared with the labs), backend and session
    std::vector<LayerHead> ablation_;         // applied to the session now and to the next one
    engine::SamplerSettings sampling_;        // applied to the session now and to the next one
    LayerHead focus_;                         // applied to the session now and to the next one
    std::map<int32_t, std::string> pieces_;  // vocabulary entries by id (tooltips, byte marks)
    qint32 sent_steps_ = 0;                  // steps already in a snapshot
    qint32 sent_dropped_ = 0;                // dropped_steps() already reported
    JobRunner jobs_;                         // last: its thread ends before the state above goes
};

}  // namespace lmscope::gui

Q_DECLARE_METATYPE(lmscope::gui::EngineInfo)
Q_DECLARE_METATYPE(lmscope::gui::SnapshotPtr)
Q_DECLARE_METATYPE(lmscope::gui::ReplayPtr)
Q_DECLARE_METATYPE(lmscope::gui::PromptTooLong)
