// The engine on its own thread: EngineWorker is a QObject moved to a QThread; the
// UI calls its slots through queued connections and hears back through signals. Every slot
// catches lmscope errors and turns them into error(QString), so a bad file or setting never
// takes the window down. What a step produced travels as an immutable snapshot (widget view
// data already converted on the worker), shared by pointer: the UI never reads the engine.
//
// Stop: cancel() is the one method the UI thread calls directly. Each cancellable computation
// runs under a fresh CancelToken (Session::CancelScope); cancel() cancels the running one's, the
// step stops between layers and throws CancelledError, the session stays as it was before that
// step and cancelled() is emitted. A Stop that comes when nothing runs does nothing.
#pragma once

#include "engine/sampler.h"
#include "gui/labs/lab_model.h"
#include "trace/capture.h"
#include "util/cancel.h"
#include "widgets/trace_view.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QThread>
#include <QVector>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <utility>

namespace lmscope::engine {
class Backend;
class Model;
class Session;
struct StepProgress;
}  // namespace lmscope::engine
namespace lmscope::tok {
class Tokenizer;
}

namespace lmscope::gui {

struct EngineOptions {
    QString backend = QStringLiteral("cpu");
    int threads = 0;                       // 0: every core
    QString kv_type = QStringLiteral("f16");
    double kv_offload_mib = 0;             // > 0: at most this much KV in memory (BackendOptions::kv_offload_bytes)
    int n_ctx = 2048;                      // capped at the model's training context
};

struct SamplingOptions {
    double temperature = 0.0;  // greedy by default: a lesson's run is reproducible
    int top_k = 40;
    double top_p = 0.95;
    double min_p = 0.05;
    quint64 seed = 0;
};

// What load() reports.
struct EngineInfo {
    QString path;
    QString backend;   // "cpu (avx512, 2 threads)"
    QString kv_type;
    int n_ctx = 0;
    widgets::ModelView model;
    labs::LabModelPtr runnable;  // the loaded Model and Tokenizer (the with-and-without job's CPU backend shares it)
};

// After a step, rewind or reset: the steps the trace gained since the last snapshot and where
// the session stands now. Immutable once emitted.
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
    EngineWorker();
    ~EngineWorker() override;

    // From any thread: stop the running step between layers (no effect when idle).
    void cancel();

public slots:
    // Opens `path` (every check of prepare_model) and starts a session on it.
    void load(const QString& path, const lmscope::gui::EngineOptions& options);
    // Starts a session on a model the window has already opened (shared with the labs).
    void run(const lmscope::gui::labs::LabModelPtr& model, const lmscope::gui::EngineOptions& options);
    void setSampling(const lmscope::gui::SamplingOptions& sampling);
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
    void reset();
    void saveTrace(const QString& path);
    void openTrace(const QString& path);

signals:
    void loaded(const lmscope::gui::EngineInfo& info);
    void stepDone(const lmscope::gui::SnapshotPtr& snapshot);
    void traceSaved(const QString& path);
    void traceOpened(const lmscope::gui::ReplayPtr& replay);
    void cancelled();
    void error(const QString& message);
    void busy(bool on);
    void progress(const QString& what);
    // A prefill under way (several tokens): layers done of n_layer, at most ~10 times a second
    // and at its last layer.
    void prefillProgress(qint32 layers_done, qint32 n_layer, qint32 tokens, qint64 elapsed_ms);

private:
    template <class F> void guarded(const QString& what, F&& body);
    void fail(const QString& what, const QString& reason);  // error("WHAT failed: REASON")
    void start(const labs::LabModelPtr& model, const EngineOptions& options);  // load's and run's part
    // Runs one engine computation that cancel() may stop, under a token of its own.
    template <class F> void cancellable(F&& body);
    engine::Session& session();
    void reportProgress(const engine::StepProgress& p);
    void emitSnapshot(EngineSnapshot::Kind kind, bool repicked = false);
    void replaceSession(std::unique_ptr<engine::Session> next);

    std::shared_ptr<const engine::Model> model_;
    std::shared_ptr<const tok::Tokenizer> tokenizer_;  // shared with the labs
    std::unique_ptr<engine::Backend> backend_;
    std::unique_ptr<engine::Session> session_;
    std::vector<LayerHead> ablation_;         // applied to the session now and to the next one
    engine::SamplerSettings sampling_;        // applied to the session now and to the next one
    LayerHead focus_;                  // applied to the session now and to the next one
    QElapsedTimer step_clock_;               // since the running step began (prefill progress)
    qint64 progress_sent_ms_ = -1;           // when prefillProgress was last emitted
    std::map<int32_t, std::string> pieces_;  // vocabulary entries by id (tooltips, byte marks)
    qint32 sent_steps_ = 0;                  // steps already in a snapshot
    qint32 sent_dropped_ = 0;                // dropped_steps() already reported
    std::mutex session_mutex_;               // guards session_ and job_ against cancel() from the UI
    CancelPtr job_;                          // the running cancellable computation's token, or null
};

// Owns the worker's thread. The destructor cancels a running step, quits the thread and waits
// for it, so closing the window mid-generation is clean.
class EngineThread : public QObject {
    Q_OBJECT
public:
    explicit EngineThread(QObject* parent = nullptr);
    ~EngineThread() override;
    EngineWorker* worker() const { return worker_; }  // nullptr after shutdown()
    // Calls `call(worker)` on the engine's thread after what is queued there; nothing after
    // shutdown().
    template <class F> void post(F&& call) const {
        EngineWorker* w = worker_;
        if (!w) return;
        QMetaObject::invokeMethod(w, [w, call = std::forward<F>(call)] { call(w); }, Qt::QueuedConnection);
    }
    void shutdown();

private:
    QThread thread_;
    EngineWorker* worker_;
};

}  // namespace lmscope::gui

Q_DECLARE_METATYPE(lmscope::gui::EngineOptions)
Q_DECLARE_METATYPE(lmscope::gui::SamplingOptions)
Q_DECLARE_METATYPE(lmscope::gui::EngineInfo)
Q_DECLARE_METATYPE(lmscope::gui::SnapshotPtr)
Q_DECLARE_METATYPE(lmscope::gui::ReplayPtr)
