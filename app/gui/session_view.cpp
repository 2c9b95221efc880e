#include "gui/session_view.h"

#include "engine/backend_factory.h"
#include "gui/ablation_comparison.h"
#include "gui/engine_change.h"
#include "gui/layer_view.h"
#include "gui/job_runner.h"
#include "gui/live_source.h"
#include "gui/replay_source.h"
#include "gui/sampling_panel.h"
#include "gui/step_controls.h"
#include "tokenizer/tokenizer.h"
#include "widgets/attention_grid.h"
#include "widgets/attention_heatmap.h"
#include "widgets/kv_chart.h"
#include "widgets/logits_view.h"
#include "widgets/timeline.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <utility>

namespace lmscope::gui {

namespace {
constexpr SessionView::Chart kCharts[] = {SessionView::Chart::Heatmap, SessionView::Chart::KvCache, SessionView::Chart::Logits};

QStringList backend_list() {
    QStringList out;
    for (const std::string& n : engine::backend_names()) out << QString::fromStdString(n);
    return out;
}
}  // namespace

SessionView::SessionView(QMainWindow* window)
    : QObject(window), window_(window), engine_(new EngineWorker(this)), model_(new widgets::TraceModel(this)) {
    play_timer_.setSingleShot(true);
    connect(&play_timer_, &QTimer::timeout, this, [this] {
        if (playing_) step();
    });

    createActions();
    controls_ = new StepControls(step_, play_, stop_, reset_);
    createDocks(window);
    createStatus(window);
    setSource(std::make_unique<LiveSource>(engine_, model_, controls_, EngineInfo{}));  // no model yet

    EngineWorker* w = worker();
    connect(w, &EngineWorker::loaded, this, &SessionView::onLoaded);
    connect(w, &EngineWorker::traceOpened, this, &SessionView::onTraceOpened);
    connect(w, &EngineWorker::traceSaved, this, &SessionView::traceSaved);
    connect(w, &EngineWorker::status, this, &SessionView::statusMessage);
    connect(w, &EngineWorker::prefillProgress, this, &SessionView::showPrefillProgress);
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
        rerun_.reset();  // the new engine did not load: the old one and its session stay
        onEngineIdle();
        emit engineError(error.text());
    });
    connect(sampling_, &SamplingPanel::samplingChanged, this,
            [this](const engine::SamplerSettings& s) { engine_->setSampling(s); });
    connect(sampling_, &SamplingPanel::engineOptionsChanged, this, &SessionView::changeEngine);
    connect(logits_, &widgets::LogitsView::forceToken, this, &SessionView::forceToken);
    connect(logits_, &widgets::LogitsView::recomputeStep, this, &SessionView::recomputeStep);
    connect(grid_, &widgets::AttentionGrid::recomputeStep, this, &SessionView::recomputeStep);
    connect(heatmap_, &widgets::AttentionHeatmap::recomputeStep, this, &SessionView::recomputeStep);
    comparison_ = new AblationComparison(model_, logits_, this);
    connect(timeline_, &widgets::Timeline::rewindTo, this, &SessionView::rewindTo);
    connect(layer_, &LayerView::logitLensRequested, this, &SessionView::logitLensRequested);
    connect(timeline_, &widgets::Timeline::branchSelected, this, &SessionView::rewindTo);  // the engine follows
    updateActions();
    retranslate();
}

SessionView::~SessionView() { shutdown(); }

void SessionView::createActions() {
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
    connect(step_, &QAction::triggered, this, &SessionView::step);
    connect(play_, &QAction::triggered, this, &SessionView::setPlaying);
    connect(stop_, &QAction::triggered, this, &SessionView::stop);
    connect(reset_, &QAction::triggered, this, &SessionView::reset);
    connect(live_, &QAction::triggered, this, [this] {
        if (isReplay() && hasEngine()) loadModel(info_.path);  // onLoaded ends the replay
    });
}

void SessionView::createDocks(QMainWindow* window) {
    strip_ = new widgets::TokenStrip(model_);
    heatmap_ = new widgets::AttentionHeatmap(model_);
    grid_ = new widgets::AttentionGrid(model_);
    layer_ = new LayerView(model_);
    kv_ = new widgets::KvChart(model_);
    logits_ = new widgets::LogitsView(model_);
    timeline_ = new widgets::Timeline(model_);
    sampling_ = new SamplingPanel(backend_list());
    for (Chart c : kCharts) chartPlot(c)->installEventFilter(this);
    // The strip takes the keyboard focus when clicked (and at start, see MainWindow::showEvent),
    // so Space steps instead of typing into the prompt box.
    strip_->setFocusPolicy(Qt::StrongFocus);

    auto* top = new QWidget;  // the prompt and the buttons above the token strip
    auto* layout = new QVBoxLayout(top);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(controls_);
    // The chips scroll on their own (a long prompt has thousands), the prompt and the buttons
    // stay; the newest token is kept in view.
    auto* chips = new QScrollArea;
    chips->setObjectName(QStringLiteral("chipScroll"));
    chips->setWidget(strip_);
    chips->setWidgetResizable(true);
    chips->setFrameShape(QFrame::NoFrame);
    chips->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    chips->setMinimumHeight(strip_->minimumSizeHint().height());
    layout->addWidget(chips, 1);
    auto follow = [this, chips] {
        QTimer::singleShot(0, chips, [this, chips] {
            const QRect last = strip_->chipRect(strip_->chipCount() - 1);
            if (!last.isEmpty()) chips->ensureVisible(last.center().x(), last.center().y(), 0, last.height());
        });
    };
    connect(model_, &widgets::TraceModel::currentStepChanged, chips, follow);
    // A resize lays the lines out again: the newest chip stays in view.
    connect(chips->verticalScrollBar(), &QScrollBar::rangeChanged, chips, follow);

    // Each panel scrolls when its dock is smaller than the panel's minimum, so the window
    // itself can be small (a laptop beside a projector).
    auto add = [&](QWidget* w, Panel panel, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(window);
        d->setObjectName(panel_object_name(panel));  // the name saveState() keys on
        auto* scroll = new QScrollArea;
        scroll->setWidget(w);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        d->setWidget(scroll);
        window->addDockWidget(area, d);
        docks_.insert(panel, d);
        panel_widgets_.insert(panel, w);
    };
    // Where each dock sits and how large it is: DockLayout (the window arranges them).
    add(top, Panel::Tokens, Qt::TopDockWidgetArea);
    add(heatmap_, Panel::Attention, Qt::RightDockWidgetArea);
    add(grid_, Panel::AttentionGrid, Qt::RightDockWidgetArea);
    add(layer_, Panel::Layer, Qt::RightDockWidgetArea);
    add(logits_, Panel::Logits, Qt::BottomDockWidgetArea);
    add(kv_, Panel::KvCache, Qt::BottomDockWidgetArea);
    add(timeline_, Panel::Timeline, Qt::TopDockWidgetArea);
    add(sampling_, Panel::Sampling, Qt::LeftDockWidgetArea);
    connect(grid_, &widgets::AttentionGrid::headActivated, dock(Panel::Attention), &QDockWidget::raise);
}

void SessionView::createStatus(QMainWindow* window) {
    prefill_bar_ = new QProgressBar;
    prefill_bar_->setObjectName(QStringLiteral("prefillProgress"));
    prefill_bar_->setTextVisible(true);
    prefill_bar_->setMinimumWidth(320);
    prefill_bar_->hide();
    window->statusBar()->addWidget(prefill_bar_, 1);
    const char* const names[] = {"statusBackend", "statusTokens", "statusKv", "statusSpeed"};  // by StatusField
    for (std::size_t i = 0; i < status_.size(); ++i) {
        status_[i] = new QLabel;
        status_[i]->setObjectName(QLatin1String(names[i]));
        status_[i]->setContentsMargins(6, 0, 6, 0);
        window->statusBar()->addPermanentWidget(status_[i]);
    }
}

QString SessionView::statusText(StatusField field) const { return statusLabel(field)->text(); }

bool SessionView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::FocusIn) {
        for (Chart c : kCharts)
            if (watched == chartPlot(c)) focused_ = c;
    }
    return QObject::eventFilter(watched, event);
}

SessionView::Chart SessionView::focusedChart() const { return focused_; }

QCustomPlot* SessionView::chartPlot(Chart chart) const {
    switch (chart) {
    case Chart::Heatmap: return heatmap_->plot();
    case Chart::KvCache: return kv_->plot();
    case Chart::Logits: return logits_->plot();
    }
    return nullptr;
}

widgets::ChartTable SessionView::chartTable(Chart chart) const {
    switch (chart) {
    case Chart::Heatmap: return heatmap_->table();
    case Chart::KvCache: return kv_->table();
    case Chart::Logits: return logits_->table();
    }
    return {};
}

void SessionView::focusTokens() { strip_->setFocus(); }

void SessionView::changeEngine() {
    if (!hasEngine() || isReplay()) return;  // a replay runs nothing: the settings wait for the next model
    std::optional<RerunPlan> plan = source_->rerunPlan();
    if (!plan) return loadModel(info_.path);
    stop();
    ask_engine_change(window_, model_->sequenceLength(),
                      [this, self = QPointer<SessionView>(this), plan = std::move(*plan)](EngineChange answer) {
                          if (!self) return;  // the window closed with the question open
                          if (answer == EngineChange::Keep) {
                              sampling_->setEngineOptions(engine_options_);  // the panel shows what runs
                              return;
                          }
                          rerun_.reset();
                          if (answer == EngineChange::Rerun) rerun_ = plan;
                          loadModel(info_.path);
                      });
}

void SessionView::loadModel(const QString& path) {
    stop();
    const EngineOptions options = sampling_->engineOptions();
    engine_options_ = options;
    const engine::SamplerSettings sampling = sampling_->sampling();
    waitForEngine();
    // the model the window opened, when it is this file: the engine does not parse it again
    const LabModelPtr opened = opened_ && opened_->path == path ? opened_ : nullptr;
    engine_->setSampling(sampling);
    if (opened) engine_->run(opened, options);
    else engine_->load(path, options);
}

void SessionView::loadModel(const LabModelPtr& opened) {
    opened_ = opened;
    if (opened) loadModel(opened->path);
}

void SessionView::setSource(std::unique_ptr<StepSource> source) {
    source_ = std::move(source);
    connect(source_.get(), &StepSource::message, this, &SessionView::statusMessage);
    connect(source_.get(), &StepSource::stopPlay, this, [this] { setPlaying(false); });
    connect(source_.get(), &StepSource::stepped, this, [this] {
        onEngineIdle();
        scheduleNext();
    });
    connect(source_.get(), &StepSource::statusChanged, this, &SessionView::updateStatus);
    connect(source_.get(), &StepSource::applied, this, &SessionView::applied);
    grid_->setSwitchingEnabled(!source_->isReplay());  // a replay shows what its steps ran with
    heatmap_->setSwitchingEnabled(!source_->isReplay());
    logits_->setRecomputeEnabled(!source_->isReplay());
    // another session: what was computed for the old one is dropped; a replay computes nothing
    if (comparison_) comparison_->setSession(source_->isReplay() ? nullptr : info_.runnable, info_.options);
}

void SessionView::recomputeStep(qint32 step) {
    if (in_flight_ || isReplay()) return;
    stop();
    if (source_->recompute(step)) waitForEngine();
}

void SessionView::onLoaded(const EngineInfo& info) {
    info_ = info;
    auto live = std::make_unique<LiveSource>(engine_, model_, controls_, info);  // ends a replay
    model_->clear();
    model_->setModel(info.model);
    // the Layer view probes the engine's model (its weights packed once, shared)
    layer_->setModel(info.runnable, info.options);
    sampling_->setModelLimits(info.model.n_ctx_train, info.model.kv_bytes_per_token);
    const std::optional<RerunPlan> rerun = std::exchange(rerun_, std::nullopt);
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

void SessionView::step() {
    if (!in_flight_ && source_->step()) waitForEngine();
}

void SessionView::waitForEngine() {
    in_flight_ = true;
    updateActions();
}

void SessionView::setPlaying(bool on) {
    playing_ = on && source_->usable();
    play_->setChecked(playing_);
    retranslatePlay();
    updateActions();
    if (!playing_) {
        play_timer_.stop();
        return;
    }
    if (!in_flight_) step();
}

void SessionView::scheduleNext() {
    if (playing_) play_timer_.start(1000 / std::max(1, controls_->speed()));
}

void SessionView::stop() {
    setPlaying(false);
    if (in_flight_ && worker()) worker()->cancel();  // direct: the worker's thread is busy with the step
}

void SessionView::reset() {
    stop();
    if (!source_->isReplay()) model_->setAblation({});  // every head back on
    if (source_->reset()) waitForEngine();
}

void SessionView::forceToken(qint32 id) {
    if (!in_flight_ && source_->forceToken(id)) waitForEngine();
}

void SessionView::rewindTo(qint32 step) {
    if (!in_flight_ && source_->rewindTo(step)) waitForEngine();
}

void SessionView::saveTrace(const QString& path) {
    if (!hasEngine() || isReplay()) return;
    engine_->saveTrace(path);
}

void SessionView::openTrace(const QString& path) {
    stop();
    engine_->openTrace(path);
}

void SessionView::onTraceOpened(const ReplayPtr& replay) {
    setSource(std::make_unique<ReplaySource>(replay, model_));
    layer_->setModel(nullptr, {});  // a replay has no model to probe
    source_->reset();  // its model, no steps yet
    updateActions();
    emit traceOpened(replay->path);
}

void SessionView::showPrefillProgress(const JobProgress& p) {
    if (!in_flight_) return;  // a late report of a step already done
    const qint64 layers_done = p.done, n_layer = p.total, elapsed_ms = p.elapsed_ms;
    const int tokens = int(p.items);
    prefill_bar_->setRange(0, int(n_layer));
    prefill_bar_->setValue(int(layers_done));
    const double seconds = double(elapsed_ms) / 1000.0;
    const double per_s = elapsed_ms > 0 ? double(tokens) * double(layers_done) / double(n_layer) / seconds : 0.0;
    prefill_bar_->setFormat(tr("Prefill: layer %1 of %2 · %Ln token(s) · %3 s · %4 tokens/s · Stop (Esc) ends it", nullptr, tokens)
                                .arg(layers_done)
                                .arg(n_layer)
                                .arg(seconds, 0, 'f', 1)
                                .arg(per_s, 0, 'f', 0));
    prefill_bar_->show();
}

void SessionView::onEngineIdle() {
    prefill_bar_->hide();
    in_flight_ = false;
    updateActions();
    if (!playing_) play_timer_.stop();
}

void SessionView::updateActions() {
    const bool usable = source_->usable();
    step_->setEnabled(usable && !in_flight_);
    play_->setEnabled(usable);
    stop_->setEnabled(in_flight_ || playing_);
    reset_->setEnabled(usable && !in_flight_);
    live_->setEnabled(isReplay() && hasEngine() && !in_flight_);
    layer_->setEngineBusy(in_flight_ || playing_);
}

void SessionView::updateStatus() {
    const SourceStatus status = source_->status();
    for (std::size_t i = 0; i < status_.size(); ++i) status_[i]->setText(status.text[i]);
    statusLabel(StatusField::Tokens)->setToolTip(status.tokens_tip);
}

void SessionView::retranslate() {
    step_->setText(tr("Step"));
    step_->setToolTip(tr("Prefill the prompt, then decode one token per step (Space)"));
    retranslatePlay();
    stop_->setText(tr("Stop"));
    stop_->setToolTip(tr("Stop the running step (Esc)"));
    reset_->setText(tr("Reset"));
    reset_->setToolTip(tr("Empty the KV cache and start from the prompt again (Ctrl+R)"));
    live_->setText(tr("Back to &Live Model"));
    live_->setToolTip(tr("Leave the replay and step the model that was open before it again (Ctrl+Shift+L)"));
    for (auto it = docks_.cbegin(); it != docks_.cend(); ++it) it.value()->setWindowTitle(panel_help(it.key()).title);
    controls_->retranslate();
    sampling_->retranslate();
    updateStatus();
}

void SessionView::retranslatePlay() {
    play_->setText(playing_ ? tr("Pause") : tr("Play"));
    play_->setIcon(window_->style()->standardIcon(playing_ ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    play_->setToolTip(playing_ ? tr("Pause after the running step (P)") : tr("Step repeatedly at the chosen speed (P)"));
}

void SessionView::saveSettings() const {
    sampling_->saveSettings();
    QSettings s;
    s.setValue(QStringLiteral("session/prompt"), controls_->prompt());
    s.setValue(QStringLiteral("session/speed"), controls_->speed());
}

QString SessionView::restoreSettings() {
    const QString problem = sampling_->restoreSettings();
    QSettings s;
    controls_->setPrompt(s.value(QStringLiteral("session/prompt"), QStringLiteral("The capital of France is")).toString());
    controls_->setSpeed(s.value(QStringLiteral("session/speed"), 4).toInt());
    return problem;
}

void SessionView::shutdown() {
    playing_ = false;
    play_timer_.stop();
    engine_->shutdown();
}

}  // namespace lmscope::gui
