#include "gui/session_controller.h"

#include "engine/backend_factory.h"
#include "gui/ablation_comparison.h"
#include "gui/engine_loader.h"
#include "gui/layer_view.h"
#include "gui/live_source.h"
#include "gui/play_loop.h"
#include "gui/replay_source.h"
#include "gui/sampling_panel.h"
#include "gui/session_status.h"
#include "gui/step_controls.h"
#include "widgets/attention_grid.h"
#include "widgets/attention_heatmap.h"
#include "widgets/logits_view.h"
#include "widgets/timeline.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>
#include <QStatusBar>

#include <utility>

namespace lmscope::gui {

namespace {
QStringList backend_list() {
    QStringList out;
    for (const std::string& n : engine::backend_names()) out << QString::fromStdString(n);
    return out;
}
}  // namespace

SessionController::SessionController(QMainWindow* window)
    : QObject(window), engine_(new EngineWorker(this)), model_(new widgets::TraceModel(this)) {
    createActions();
    controls_ = new StepControls(step_, play_, stop_, reset_);
    panels_ = new SessionPanels(window, model_, controls_, backend_list());
    status_ = new SessionStatus(window->statusBar());
    loop_ = new PlayLoop(play_, controls_, this);
    loader_ = new EngineLoader(engine_, panels_->sampling(), window, this);
    setSource(std::make_unique<LiveSource>(engine_, model_, controls_, EngineInfo{}));  // no model yet

    connect(loop_, &PlayLoop::stepDue, this, &SessionController::step);
    connect(loop_, &PlayLoop::cancelRequested, this, [this] {
        if (worker()) worker()->cancel();  // direct: the worker's thread is busy with the step
    });
    connect(loop_, &PlayLoop::changed, this, &SessionController::updateActions);
    connect(loader_, &EngineLoader::stopRequested, this, &SessionController::stop);
    connect(loader_, &EngineLoader::loading, this, &SessionController::waitForEngine);
    connect(loader_, &EngineLoader::loaded, this, &SessionController::onLoaded);

    EngineWorker* w = worker();
    connect(w, &EngineWorker::traceOpened, this, &SessionController::onTraceOpened);
    connect(w, &EngineWorker::traceSaved, this, &SessionController::traceSaved);
    connect(w, &EngineWorker::status, this, &SessionController::statusMessage);
    connect(w, &EngineWorker::prefillProgress, this, [this](const JobProgress& p) {
        if (loop_->inFlight()) status_->showPrefill(p);  // not a late report of a step already done
    });
    connect(w, &EngineWorker::promptTooLong, this, [this](const PromptTooLong& p) {
        setPlaying(false);
        onEngineIdle();  // nothing ran
        loader_->offerContext(p);
    });
    // a long prefill keeps the rows of the head the heatmap shows first
    connect(model_, &widgets::TraceModel::headChanged, this,
            [this](qint32 layer, qint32 head) { engine_->setAttentionFocus(layer, head); });
    connect(model_, &widgets::TraceModel::ablationChanged, this, [this](const QVector<LayerHead>& heads) {
        engine_->setAblation(heads);
    });
    connect(w, &EngineWorker::stopped, this, [this] {
        onEngineIdle();
        emit statusMessage(tr("Stopped"));
    });
    connect(w, &EngineWorker::failed, this, [this](const JobError& error) {
        onEngineIdle();
        emit engineError(error.text());
    });
    SamplingPanel* sampling = panels_->sampling();
    connect(sampling, &SamplingPanel::samplingChanged, this,
            [this](const engine::SamplerSettings& s) { engine_->setSampling(s); });
    connect(sampling, &SamplingPanel::engineOptionsChanged, this, [this] {
        if (isReplay()) return;  // a replay runs nothing: the settings wait for the next model
        loader_->change(source_->rerunPlan(), model_->sequenceLength());
    });
    connect(panels_->logits(), &widgets::LogitsView::forceToken, this, &SessionController::forceToken);
    connect(panels_->logits(), &widgets::LogitsView::recomputeStep, this, &SessionController::recomputeStep);
    connect(panels_->grid(), &widgets::AttentionGrid::recomputeStep, this, &SessionController::recomputeStep);
    connect(panels_->heatmap(), &widgets::AttentionHeatmap::recomputeStep, this, &SessionController::recomputeStep);
    comparison_ = new AblationComparison(model_, panels_->logits(), this);
    connect(panels_->timeline(), &widgets::Timeline::rewindTo, this, &SessionController::rewindTo);
    connect(panels_->layer(), &LayerView::logitLensRequested, this, &SessionController::logitLensRequested);
    connect(panels_->timeline(), &widgets::Timeline::branchSelected, this, &SessionController::rewindTo);  // the engine follows
    updateActions();
    retranslate();
}

SessionController::~SessionController() { shutdown(); }

void SessionController::createActions() {
    auto make = [this](const char* name, const QKeySequence& key) {
        auto* a = new QAction(this);
        a->setObjectName(QLatin1String(name));
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        return a;
    };
    step_ = make("stepAction", QKeySequence(Qt::Key_Space));
    // Space types a space in the prompt box; Ctrl+Return steps from there too.
    step_->setShortcuts({QKeySequence(Qt::Key_Space), QKeySequence(Qt::CTRL | Qt::Key_Return)});
    play_ = make("playAction", QKeySequence(Qt::Key_P));
    play_->setCheckable(true);
    stop_ = make("stopAction", QKeySequence(Qt::Key_Escape));
    reset_ = make("resetAction", QKeySequence(Qt::CTRL | Qt::Key_R));
    live_ = make("liveAction", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    connect(step_, &QAction::triggered, this, &SessionController::step);
    connect(play_, &QAction::triggered, this, &SessionController::setPlaying);
    connect(stop_, &QAction::triggered, this, &SessionController::stop);
    connect(reset_, &QAction::triggered, this, &SessionController::reset);
    connect(live_, &QAction::triggered, this, [this] {
        if (isReplay() && hasEngine()) loadModel(loader_->info().path);  // onLoaded ends the replay
    });
}

QString SessionController::statusText(StatusField field) const { return status_->text(field); }
const QProgressBar* SessionController::prefillProgress() const { return status_->prefillBar(); }
bool SessionController::isPlaying() const { return loop_->isPlaying(); }
bool SessionController::inFlight() const { return loop_->inFlight(); }
bool SessionController::hasEngine() const { return loader_->hasEngine(); }
const EngineOptions& SessionController::engineOptions() const { return loader_->options(); }

void SessionController::loadModel(const QString& path) { loader_->load(path); }
void SessionController::loadModel(const LabModelPtr& opened) { loader_->load(opened); }

void SessionController::setSource(std::unique_ptr<StepSource> source) {
    source_ = std::move(source);
    connect(source_.get(), &StepSource::message, this, &SessionController::statusMessage);
    connect(source_.get(), &StepSource::stopPlay, this, [this] { setPlaying(false); });
    connect(source_.get(), &StepSource::stepped, this, [this] {
        status_->hidePrefill();
        loop_->stepped();
    });
    connect(source_.get(), &StepSource::statusChanged, this, &SessionController::updateStatus);
    connect(source_.get(), &StepSource::applied, this, &SessionController::applied);
    panels_->setLive(!source_->isReplay());
    // another session: what was computed for the old one is dropped; a replay computes nothing
    if (comparison_)
        comparison_->setSession(source_->isReplay() ? nullptr : loader_->info().runnable, loader_->info().options);
}

void SessionController::recomputeStep(qint32 step) {
    if (inFlight() || isReplay()) return;
    stop();
    if (source_->recompute(step)) waitForEngine();
}

void SessionController::onLoaded(const EngineInfo& info, const std::optional<RerunPlan>& rerun) {
    auto live = std::make_unique<LiveSource>(engine_, model_, controls_, info);  // ends a replay
    model_->clear();
    model_->setModel(info.model);
    // the Layer view probes the engine's model (its weights packed once, shared)
    panels_->layer()->setModel(info.runnable, info.options);
    if (rerun)
        live->rerun(*rerun);  // the session on the new engine: the same tokens, recomputed
    else
        model_->setAblation({});  // a model opened afresh starts with every head on
    setSource(std::move(live));
    onEngineIdle();
    updateStatus();
    emit statusMessage(tr("Ready: %1 on %2").arg(QFileInfo(info.path).fileName(), info.backend));  // ends "Loading …"
    emit engineLoaded(info);
    if (rerun) waitForEngine();
}

void SessionController::step() {
    if (!inFlight() && source_->step()) waitForEngine();
}

void SessionController::waitForEngine() { loop_->waitForEngine(); }

void SessionController::setPlaying(bool on) { loop_->setPlaying(on, source_->usable()); }

void SessionController::stop() { loop_->stop(); }

void SessionController::reset() {
    stop();
    if (!source_->isReplay()) model_->setAblation({});  // every head back on
    if (source_->reset()) waitForEngine();
}

void SessionController::forceToken(qint32 id) {
    if (!inFlight() && source_->forceToken(id)) waitForEngine();
}

void SessionController::rewindTo(qint32 step) {
    if (!inFlight() && source_->rewindTo(step)) waitForEngine();
}

void SessionController::saveTrace(const QString& path) {
    if (!hasEngine() || isReplay()) return;
    engine_->saveTrace(path);
}

void SessionController::openTrace(const QString& path) {
    stop();
    engine_->openTrace(path);
}

void SessionController::onTraceOpened(const ReplayPtr& replay) {
    setSource(std::make_unique<ReplaySource>(replay, model_));
    panels_->layer()->setModel(nullptr, {});  // a replay has no model to probe
    source_->reset();  // its model, no steps yet
    updateActions();
    emit traceOpened(replay->path);
}

void SessionController::onEngineIdle() {
    status_->hidePrefill();
    loop_->engineIdle();
}

void SessionController::updateActions() {
    const bool usable = source_->usable();
    const bool in_flight = loop_->inFlight();
    step_->setEnabled(usable && !in_flight);
    play_->setEnabled(usable);
    stop_->setEnabled(in_flight || loop_->isPlaying());
    reset_->setEnabled(usable && !in_flight);
    live_->setEnabled(isReplay() && hasEngine() && !in_flight);
    panels_->layer()->setEngineBusy(in_flight || loop_->isPlaying());
}

void SessionController::updateStatus() { status_->show(source_->status()); }

void SessionController::retranslate() {
    step_->setText(tr("Step"));
    step_->setToolTip(tr("Prefill the prompt, then decode one token per step (Space)"));
    loop_->retranslate();
    stop_->setText(tr("Stop"));
    stop_->setToolTip(tr("Stop the running step (Esc)"));
    reset_->setText(tr("Reset"));
    reset_->setToolTip(tr("Start a new session from the prompt: the KV cache emptied, every step and branch gone (Ctrl+R)"));
    live_->setText(tr("Back to &Live Model"));
    live_->setToolTip(tr("Leave the replay and step the model that was open before it again (Ctrl+Shift+L)"));
    panels_->retranslate();
    controls_->retranslate();
    updateStatus();
}

void SessionController::saveSettings() const {
    panels_->sampling()->saveSettings();
    QSettings s;
    s.setValue(QStringLiteral("session/prompt"), controls_->prompt());
    s.setValue(QStringLiteral("session/speed"), controls_->speed());
}

QString SessionController::restoreSettings() {
    const QString problem = panels_->sampling()->restoreSettings();
    QSettings s;
    controls_->setPrompt(s.value(QStringLiteral("session/prompt"), QStringLiteral("The capital of France is")).toString());
    controls_->setSpeed(s.value(QStringLiteral("session/speed"), 4).toInt());
    return problem;
}

void SessionController::shutdown() {
    loop_->shutdown();
    engine_->shutdown();
}

}  // namespace lmscope::gui
