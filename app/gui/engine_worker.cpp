#include "gui/engine_worker.h"

#include "engine/backend.h"
#include "engine/backend_factory.h"
#include "engine/kv_cache.h"
#include "engine/model.h"
#include "engine/sampler.h"
#include "engine/session.h"
#include "gui/labs/lab_model.h"
#include "tokenizer/tokenizer.h"
#include "trace/trace_file.h"
#include "trace_adapter/trace_adapter.h"
#include "util/cpu_info.h"
#include "util/error.h"
#include "util/message.h"
#include "util/resource_errors.h"

#include <QFileInfo>

#include <algorithm>
#include <exception>

namespace lmscope::gui {

namespace {

engine::SamplerSettings sampler_settings(const SamplingOptions& s) {
    engine::SamplerSettings out;
    out.temperature = float(s.temperature);
    out.top_k = s.top_k;
    out.top_p = float(s.top_p);
    out.min_p = float(s.min_p);
    out.seed = s.seed;
    return out;
}

void register_types() {
    static const bool once = [] {
        qRegisterMetaType<EngineOptions>();
        qRegisterMetaType<SamplingOptions>();
        qRegisterMetaType<EngineInfo>();
        qRegisterMetaType<SnapshotPtr>();
        qRegisterMetaType<ReplayPtr>();
        return true;
    }();
    (void)once;
}

}  // namespace

EngineWorker::EngineWorker() : sampling_(sampler_settings(SamplingOptions{})) { register_types(); }

EngineWorker::~EngineWorker() { replaceSession(nullptr); }

void EngineWorker::cancel() {
    std::lock_guard lock(session_mutex_);
    if (job_) job_->cancel();
}

template <class F>
void EngineWorker::cancellable(F&& body) {
    step_clock_.start();
    progress_sent_ms_ = -1;
    const CancelPtr token = std::make_shared<CancelToken>();
    {
        std::lock_guard lock(session_mutex_);
        job_ = token;
    }
    const engine::Session::CancelScope scope(session(), *token);
    body();  // guarded() drops job_, whether it returns or throws
}

void EngineWorker::replaceSession(std::unique_ptr<engine::Session> next) {
    std::unique_ptr<engine::Session> old;
    {
        std::lock_guard lock(session_mutex_);
        old = std::move(session_);
        session_ = std::move(next);
    }
    sent_steps_ = 0;
    sent_dropped_ = 0;
}

engine::Session& EngineWorker::session() {
    if (!session_) throw UsageError(tr("No model is loaded.").toStdString());
    return *session_;
}

void EngineWorker::fail(const QString& what, const QString& reason) {
    emit error(tr("%1 failed: %2").arg(what, reason));
}

template <class F>
void EngineWorker::guarded(const QString& what, F&& body) {
    emit busy(true);
    try {
        body();
    } catch (const CancelledError&) {
        emit cancelled();
    } catch (...) {  // lmscope::Error, the standard library's errors, out of memory
        fail(what, QString::fromStdString(exception_message(std::current_exception())));
    }
    {
        std::lock_guard lock(session_mutex_);
        job_.reset();
    }
    emit busy(false);
}

void EngineWorker::load(const QString& path, const EngineOptions& options) {
    guarded(tr("Loading the model"), [&] {
        emit progress(tr("Loading %1…").arg(QFileInfo(path).fileName()));
        start(labs::load_lab_model(path), options);
    });
}

void EngineWorker::run(const labs::LabModelPtr& model, const EngineOptions& options) {
    guarded(tr("Loading the model"), [&] {
        if (!model) throw UsageError(tr("No model is loaded.").toStdString());
        emit progress(tr("Loading %1…").arg(QFileInfo(model->path).fileName()));
        start(model, options);
    });
}

void EngineWorker::start(const labs::LabModelPtr& prepared, const EngineOptions& options) {
    const QString& path = prepared->path;
    const auto kv = parse_kv_type(options.kv_type.toStdString());
    if (!kv) throw UsageError("kv type: '" + options.kv_type.toStdString() + "' is not f16, q8_0 or q4_0");
    const std::string file = path.toStdString();  // named when memory or threads run out
    std::shared_ptr<const engine::Model> model = prepared->model;
    std::shared_ptr<const tok::Tokenizer> tokenizer = prepared->tokenizer;
    engine::BackendOptions bo;
    bo.n_threads = std::clamp(options.threads, 0, hardware_threads());  // 0: every core
    bo.kv_type = *kv;
    bo.kv_offload_bytes = engine::kv_offload_budget(options.kv_offload_mib);
    bo.n_ctx = std::min<int32_t>(options.n_ctx, model->spec().n_ctx_train());
    auto backend = with_context(file + ": starting the backend",
                                [&] { return engine::make_backend(options.backend.toStdString(), model, bo); });
    engine::SessionOptions so;
    so.sampling = sampling_;
    so.capture.mode = trace::CaptureMode::Full;  // the heatmap and grid show any (layer, head)
    auto session = with_context(file + ": starting the session",
                                [&] { return std::make_unique<engine::Session>(*backend, *tokenizer, so); });
    session->set_progress([this](const engine::StepProgress& p) { reportProgress(p); });
    session->set_attention_focus(focus_);
    std::erase_if(ablation_, [&](const LayerHead& h) {  // a new model may have fewer heads
        return h.layer >= model->spec().n_layer() || h.head >= model->spec().n_head();
    });
    session->set_ablation(ablation_);

    replaceSession(nullptr);  // the old session refers to the old backend and tokenizer
    backend_ = std::move(backend);
    tokenizer_ = std::move(tokenizer);
    model_ = std::move(model);
    replaceSession(std::move(session));
    pieces_.clear();
    for (int32_t id = 0; id < tokenizer_->vocab_size(); ++id) pieces_.emplace(id, tokenizer_->piece(id));

    EngineInfo info;
    info.path = path;
    info.backend = QString::fromStdString(backend_->name());
    info.kv_type = options.kv_type;
    info.n_ctx = backend_->n_ctx();
    info.model = app::model_view(session_->trace());
    if (info.model.n_layer == 0) {  // no step yet: take the shape from the spec
        const auto& spec = model_->spec();
        info.model.n_layer = spec.n_layer();
        info.model.n_head = spec.n_head();
        info.model.n_head_kv = spec.n_head_kv();
        info.model.head_dim = spec.head_dim();
    }
    info.model.n_ctx = backend_->n_ctx();
    info.model.n_ctx_train = model_->spec().n_ctx_train();
    info.model.kv_bytes_per_token = backend_->kv_stats().bytes_per_token;
    info.model.layer_window.clear();
    for (const model::LayerPlan& p : model_->spec().layers) info.model.layer_window.push_back(p.window);
    info.model.name = QFileInfo(path).completeBaseName();
    info.runnable = prepared;
    emit loaded(info);
}

void EngineWorker::setSampling(const SamplingOptions& sampling) {
    guarded(tr("Sampling settings"), [&] {
        const engine::SamplerSettings s = sampler_settings(sampling);
        engine::validate(s);
        sampling_ = s;
        // reseeds when the seed changes; the pending token is picked again under the new settings
        if (session_ && session_->set_sampling(s)) emitSnapshot(EngineSnapshot::Kind::Repick, true);
    });
}

void EngineWorker::prefill(const QString& prompt) {
    guarded(tr("Prefill"), [&] {
        engine::Session& s = session();
        const std::vector<int32_t> ids = s.tokenizer().encode_ids(prompt.toStdString(), true, false);
        if (ids.empty()) throw UsageError(tr("The prompt encodes to no tokens.").toStdString());
        if (!s.tokens().empty()) s.reset();
        cancellable([&] { s.prefill(ids); });
        emitSnapshot(EngineSnapshot::Kind::Step);
    });
}

void EngineWorker::reportProgress(const engine::StepProgress& p) {
    if (p.tokens < 2) return;  // a decode step: too short to follow
    const qint64 now = step_clock_.isValid() ? step_clock_.elapsed() : 0;
    if (p.layers_done < p.n_layer && progress_sent_ms_ >= 0 && now - progress_sent_ms_ < 100) return;
    progress_sent_ms_ = now;
    emit prefillProgress(p.layers_done, p.n_layer, p.tokens, now);
}

void EngineWorker::step() {
    guarded(tr("Step"), [&] {
        engine::Session& s = session();
        if (!s.pending()) throw UsageError(tr("Nothing to decode yet: prefill a prompt first.").toStdString());
        cancellable([&] { s.decode(); });
        emitSnapshot(EngineSnapshot::Kind::Step);
    });
}

void EngineWorker::rerun(const QVector<qint32>& prompt, const QVector<qint32>& generated) {
    guarded(tr("Re-running the session"), [&] {
        engine::Session& s = session();
        emit progress(tr("Re-running %n token(s) on the new engine…", nullptr, int(prompt.size() + generated.size())));
        try {
            cancellable([&] {
                s.prefill(std::vector<int32_t>(prompt.begin(), prompt.end()));
                for (qint32 id : generated) {
                    if (s.pending() != id) s.force(id);
                    s.decode();
                }
            });
        } catch (...) {
            emitSnapshot(EngineSnapshot::Kind::Step);  // the steps made before Stop or the failure
            throw;
        }
        emitSnapshot(EngineSnapshot::Kind::Step);
    });
}

void EngineWorker::setAttentionFocus(qint32 layer, qint32 head) {
    focus_ = {layer, head};
    if (session_) session_->set_attention_focus(focus_);
}

void EngineWorker::setAblation(const QVector<LayerHead>& heads) {
    guarded(tr("Switching heads off"), [&] {
        std::vector<LayerHead> next(heads.begin(), heads.end());
        if (session_) session_->set_ablation(next);
        ablation_ = std::move(next);
    });
}

void EngineWorker::force(qint32 id) {
    guarded(tr("Forcing a token"), [&] { session().force(id); });
}

void EngineWorker::rewind(qint32 step) {
    guarded(tr("Rewind"), [&] {
        engine::Session& s = session();
        bool repicked = false;
        cancellable([&] { repicked = s.rewind(step); });
        emitSnapshot(EngineSnapshot::Kind::Rewind, repicked);
    });
}

void EngineWorker::reset() {
    guarded(tr("Reset"), [&] {
        session().reset();
        emitSnapshot(EngineSnapshot::Kind::Reset);
    });
}

void EngineWorker::saveTrace(const QString& path) {
    guarded(tr("Saving the trace"), [&] {
        trace::save_trace(session().trace(), path.toStdString(), {model_->file().path()});  // never over the model
        emit traceSaved(path);
    });
}

void EngineWorker::openTrace(const QString& path) {
    guarded(tr("Opening the trace"), [&] {
        emit progress(tr("Opening %1…").arg(QFileInfo(path).fileName()));
        const trace::SessionTrace t = trace::load_trace(path.toStdString());
        app::check_sizes(t, path.toStdString());
        auto replay = std::make_shared<TraceReplay>();
        replay->path = path;
        replay->model = app::model_view(t);
        replay->steps.reserve(qsizetype(t.size()));
        for (size_t i = 0; i < t.size(); ++i) replay->steps.push_back(app::step_view(t, int32_t(i)));
        emit traceOpened(replay);
    });
}

void EngineWorker::emitSnapshot(EngineSnapshot::Kind kind, bool repicked) {
    const engine::Session& s = *session_;
    const trace::SessionTrace& t = s.trace();
    auto snap = std::make_shared<EngineSnapshot>();
    snap->kind = kind;
    for (qint32 i = sent_steps_; i < qint32(t.size()); ++i) snap->new_steps.push_back(app::step_view(t, i, pieces_));
    sent_steps_ = qint32(t.size());
    if (t.dropped_steps() != sent_dropped_) {
        for (qint32 i = 0; i < qint32(t.size()); ++i)
            if (t.step(i).attention.planes_dropped) snap->dropped.push_back(i);
        sent_dropped_ = t.dropped_steps();
    }
    snap->head = s.head();
    const engine::KvStats kv = backend_->kv_stats();
    snap->kv_tokens = kv.n_tokens;
    snap->kv_bytes = kv.total_bytes;
    if (kind == EngineSnapshot::Kind::Step && !snap->new_steps.isEmpty()) {
        const trace::StepTrace& last = t.step(int32_t(t.size()) - 1);
        const double ms = last.forward_ms + last.sample_ms;
        if (ms > 0) snap->tokens_per_s = 1000.0 * double(last.tokens.size()) / ms;
    }
    snap->ends_turn = s.pending() && s.ends_turn();
    if (repicked && snap->head >= 0) snap->repicked = app::logits_view(t, t.step(snap->head).logits, pieces_);
    emit stepDone(snap);
}

EngineThread::EngineThread(QObject* parent) : QObject(parent), worker_(new EngineWorker) {
    thread_.setObjectName(QStringLiteral("lmscope engine"));
    worker_->moveToThread(&thread_);
    thread_.start();
}

EngineThread::~EngineThread() { shutdown(); }

void EngineThread::shutdown() {
    if (!worker_) return;
    worker_->cancel();  // a running step stops between layers
    thread_.quit();     // the slots still queued are dropped with the worker
    thread_.wait();
    delete worker_;     // its thread has ended: deleting it here is safe
    worker_ = nullptr;
}

}  // namespace lmscope::gui
