#include "gui/engine_worker.h"

#include "engine/backend.h"
#include "engine/kv_cache.h"
#include "engine/model.h"
#include "engine/sampler.h"
#include "engine/session.h"
#include "gui/engine_setup.h"
#include "model/interventions.h"
#include "tokenizer/tokenizer.h"
#include "trace/trace_file.h"
#include "trace_adapter/trace_adapter.h"
#include "util/error.h"

#include <QFileInfo>

#include <algorithm>

namespace lmscope::gui {

namespace {

void register_types() {
    static const bool once = [] {
        qRegisterMetaType<EngineInfo>();
        qRegisterMetaType<SnapshotPtr>();
        qRegisterMetaType<ReplayPtr>();
        qRegisterMetaType<PromptTooLong>();
        return true;
    }();
    (void)once;
}

}  // namespace

EngineWorker::EngineWorker(QObject* parent)
    : QObject(parent), sampling_(engine::lesson_sampling()), jobs_(nullptr, QStringLiteral("lmscope engine")) {
    register_types();
    connect(&jobs_, &JobRunner::failed, this, &EngineWorker::failed);
    connect(&jobs_, &JobRunner::stopped, this, &EngineWorker::stopped);
    connect(&jobs_, &JobRunner::progress, this, &EngineWorker::prefillProgress);
}

EngineWorker::~EngineWorker() { shutdown(); }

template <class F>
void EngineWorker::compute(const JobContext& job, F&& body) {
    engine::Session& s = session();
    s.set_progress([&job](const engine::StepProgress& p) {
        if (p.tokens >= 2) job.progress(p.layers_done, p.n_layer, p.tokens);  // a decode step is too short to follow
    });
    const engine::Session::CancelScope scope(s, job.token());
    try {
        body();
    } catch (...) {
        s.set_progress(nullptr);
        throw;
    }
    s.set_progress(nullptr);
}

engine::Session& EngineWorker::session() {
    if (!engine_.session) throw UsageError(tr("No model is loaded.").toStdString());
    return *engine_.session;
}

void EngineWorker::load(const QString& path, const EngineOptions& options) {
    jobs_.post(tr("Loading the model"), [this, path, options](const JobContext&) {
        emit status(tr("Loading %1…").arg(QFileInfo(path).fileName()));
        start(load_lab_model(path), options);
    });
}

void EngineWorker::run(const LabModelPtr& model, const EngineOptions& options) {
    jobs_.post(tr("Loading the model"), [this, model, options](const JobContext&) {
        if (!model) throw UsageError(tr("No model is loaded.").toStdString());
        emit status(tr("Loading %1…").arg(QFileInfo(model->path).fileName()));
        start(model, options);
    });
}

engine::SessionOptions EngineWorker::sessionOptions() const {
    engine::SessionOptions so;
    so.sampling = sampling_;
    so.capture.mode = trace::CaptureMode::Full;  // the heatmap and grid show any (layer, head)
    return so;
}

void EngineWorker::beginSession() {
    engine_.session->set_attention_focus(focus_);
    engine_.session->set_ablation(ablation_);
    sent_steps_ = 0;
    sent_dropped_ = 0;
}

void EngineWorker::start(const LabModelPtr& prepared, const EngineOptions& options) {
    EngineSession next = make_engine_session(prepared, options, sessionOptions());
    const model::ModelSpec& spec = prepared->model->spec();
    // a new model may have fewer heads
    std::erase_if(ablation_, [&](const LayerHead& h) { return !model::has_head(spec, h); });
    engine_ = std::move(next);  // the old session goes before its backend
    beginSession();
    const tok::Tokenizer& tokenizer = *prepared->tokenizer;
    pieces_.clear();
    for (int32_t id = 0; id < tokenizer.vocab_size(); ++id) pieces_.emplace(id, tokenizer.piece(id));

    const engine::Backend& backend = *engine_.backend;
    EngineInfo info;
    info.path = prepared->path;
    info.backend = QString::fromStdString(backend.name());
    info.options = options;
    info.options.resources.n_ctx = backend.n_ctx();
    info.n_ctx = backend.n_ctx();
    info.model = app::model_view(engine_.session->trace());
    if (info.model.n_layer == 0) {  // no step yet: take the shape from the spec
        info.model.n_layer = spec.n_layer();
        info.model.n_head = spec.n_head();
        info.model.n_head_kv = spec.n_head_kv();
        info.model.head_dim = spec.head_dim();
    }
    info.model.n_ctx = backend.n_ctx();
    info.model.n_ctx_train = spec.n_ctx_train();
    info.model.kv_bytes_per_token = backend.kv_stats().bytes_per_token;
    info.model.kv_formula = app::kv_formula_view(engine_.session->trace(), backend.kv_stats().type, backend.n_ctx());
    info.model.layer_window.clear();
    for (const model::LayerPlan& p : spec.layers) info.model.layer_window.push_back(p.window);
    info.model.name = QFileInfo(prepared->path).completeBaseName();
    info.runnable = prepared;
    emit loaded(info);
}

void EngineWorker::setSampling(const engine::SamplerSettings& sampling) {
    jobs_.post(tr("Sampling settings"), [this, sampling](const JobContext&) {
        const engine::SamplerSettings& s = sampling;
        engine::validate(s);
        sampling_ = s;
        // reseeds when the seed changes; the pending token is picked again under the new settings
        if (!engine_.session) return;
        engine::Session& session = *engine_.session;
        if (session.set_sampling(s)) emitSnapshot(EngineSnapshot::Kind::Repick, true);
        else if (session.head() >= 0 && session.pending_how() != Choice::Forced && session.trace().has_children(session.head()))
            emit status(tr("The shown step keeps its pick: the step after it fed that token. The new settings pick "
                           "from the next step on; click a candidate to branch here."));
    });
}

void EngineWorker::prefill(const QString& prompt) {
    jobs_.post(tr("Prefill"), [this, prompt](const JobContext& job) {
        engine::Session& s = session();
        const std::vector<int32_t> ids = s.tokenizer().encode_ids(prompt.toStdString(), true, false);
        if (ids.empty()) throw UsageError(tr("The prompt encodes to no tokens.").toStdString());
        if (!s.tokens().empty()) s.reset();
        if (int64_t(ids.size()) > s.n_ctx()) {  // said before the prefill, with the context that holds it
            const int32_t trained = engine_.model->model->spec().n_ctx_train();
            emit promptTooLong({prompt, QVector<qint32>(ids.begin(), ids.end()), s.n_ctx(), trained,
                                engine::context_for_prompt(int64_t(ids.size()), trained)});
            return;
        }
        compute(job, [&] { s.prefill(ids); });
        emitSnapshot(EngineSnapshot::Kind::Step);
    });
}

void EngineWorker::step() {
    jobs_.post(tr("Step"), [this](const JobContext& job) {
        engine::Session& s = session();
        if (!s.pending()) throw UsageError(tr("Nothing to decode yet: prefill a prompt first.").toStdString());
        compute(job, [&] { s.decode(); });
        emitSnapshot(EngineSnapshot::Kind::Step);
    });
}

void EngineWorker::rerun(const QVector<qint32>& prompt, const QVector<qint32>& generated) {
    jobs_.post(tr("Re-running the session"), [this, prompt, generated](const JobContext& job) {
        engine::Session& s = session();
        emit status(tr("Re-running %n token(s) on the new engine…", nullptr, int(prompt.size() + generated.size())));
        try {
            compute(job, [&] {
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
    jobs_.post(QString(), [this, layer, head](const JobContext&) {
        focus_ = {layer, head};
        if (engine_.session) engine_.session->set_attention_focus(focus_);
    });
}

void EngineWorker::setAblation(const QVector<LayerHead>& heads) {
    jobs_.post(tr("Switching heads off"), [this, heads](const JobContext&) {
        std::vector<LayerHead> next(heads.begin(), heads.end());
        if (engine_.session) engine_.session->set_ablation(next);
        ablation_ = std::move(next);
    });
}

void EngineWorker::force(qint32 id) {
    jobs_.post(tr("Forcing a token"), [this, id](const JobContext&) { session().force(id); });
}

void EngineWorker::rewind(qint32 step) {
    jobs_.post(tr("Rewind"), [this, step](const JobContext& job) {
        engine::Session& s = session();
        bool repicked = false;
        compute(job, [&] { repicked = s.rewind(step); });
        emitSnapshot(EngineSnapshot::Kind::Rewind, repicked);
    });
}

void EngineWorker::reset() {
    jobs_.post(tr("Reset"), [this](const JobContext&) {
        session();  // throws when no model is loaded
        // a new session on the same backend: the cache empty, the old trace and its branches gone
        engine_.session.reset();
        engine_.session = std::make_unique<engine::Session>(*engine_.backend, *engine_.model->tokenizer, sessionOptions());
        beginSession();
        emitSnapshot(EngineSnapshot::Kind::Reset);
    });
}

void EngineWorker::saveTrace(const QString& path) {
    jobs_.post(tr("Saving the trace"), [this, path](const JobContext&) {
        trace::save_trace(session().trace(), path.toStdString(), {engine_.model->model->file().path()});  // never over the model
        emit traceSaved(path);
    });
}

void EngineWorker::openTrace(const QString& path) {
    jobs_.post(tr("Opening the trace"), [this, path](const JobContext&) {
        emit status(tr("Opening %1…").arg(QFileInfo(path).fileName()));
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
    const engine::Session& s = *engine_.session;
    const trace::SessionTrace& t = s.trace();
    auto snap = std::make_shared<EngineSnapshot>();
    snap->kind = kind;
    for (qint32 i = sent_steps_; i < qint32(t.size()); ++i) snap->new_steps.push_back(app::step_view(t, i, pieces_));
    sent_steps_ = qint32(t.size());
    if (t.dropped_steps() != sent_dropped_) {
        snap->dropped = app::steps_without_planes(t);
        sent_dropped_ = t.dropped_steps();
    }
    snap->head = s.head();
    const engine::KvStats kv = engine_.backend->kv_stats();
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

}  // namespace lmscope::gui
