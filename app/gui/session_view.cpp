#include "gui/session_view.h"

#include "engine/backend_factory.h"
#include "gui/engine_change.h"
#include "gui/sampling_panel.h"
#include "gui/step_controls.h"
#include "widgets/attention_grid.h"
#include "widgets/attention_heatmap.h"
#include "widgets/format.h"
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
#include <QLocale>
#include <QMainWindow>
#include <QProgressBar>
#include <QScrollArea>
#include <QTimer>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace lmscope::gui {

namespace {
constexpr int kRefreshMs = 30;  // snapshots arriving within this window share one redraw
constexpr SessionView::Chart kCharts[] = {SessionView::Chart::Heatmap, SessionView::Chart::KvCache, SessionView::Chart::Logits};

QStringList backend_list() {
    QStringList out;
    for (const std::string& n : engine::backend_names()) out << QString::fromStdString(n);
    return out;
}
}  // namespace

SessionView::SessionView(QMainWindow* window)
    : QObject(window), window_(window), engine_(new EngineThread(this)), model_(new widgets::TraceModel(this)) {
    refresh_.setSingleShot(true);
    refresh_.setInterval(kRefreshMs);
    connect(&refresh_, &QTimer::timeout, this, &SessionView::applyPending);
    play_timer_.setSingleShot(true);
    connect(&play_timer_, &QTimer::timeout, this, [this] {
        if (playing_) step();
    });

    createActions();
    controls_ = new StepControls(step_, play_, stop_, reset_);
    createDocks(window);
    createStatus(window);

    EngineWorker* w = worker();
    connect(w, &EngineWorker::loaded, this, &SessionView::onLoaded);
    connect(w, &EngineWorker::stepDone, this, &SessionView::onStepDone);
    connect(w, &EngineWorker::traceOpened, this, &SessionView::onTraceOpened);
    connect(w, &EngineWorker::traceSaved, this, &SessionView::traceSaved);
    connect(w, &EngineWorker::progress, this, &SessionView::statusMessage);
    connect(w, &EngineWorker::prefillProgress, this, &SessionView::showPrefillProgress);
    // a long prefill keeps the rows of the head the heatmap shows first
    connect(model_, &widgets::TraceModel::headChanged, this,
            [this](qint32 layer, qint32 head) { post([layer, head](EngineWorker* e) { e->setAttentionFocus(layer, head); }); });
    connect(w, &EngineWorker::cancelled, this, [this] {
        onEngineIdle();
        emit statusMessage(tr("Stopped"));
    });
    connect(w, &EngineWorker::error, this, [this](const QString& message) {
        rerun_.reset();  // the new engine did not load: the old one and its session stay
        onEngineIdle();
        emit engineError(message);
    });
    connect(sampling_, &SamplingPanel::samplingChanged, this,
            [this](const SamplingOptions& s) { post([s](EngineWorker* e) { e->setSampling(s); }); });
    connect(sampling_, &SamplingPanel::engineOptionsChanged, this, &SessionView::changeEngine);
    connect(logits_, &widgets::LogitsView::forceToken, this, &SessionView::forceToken);
    connect(timeline_, &widgets::Timeline::rewindTo, this, &SessionView::rewindTo);
    connect(timeline_, &widgets::Timeline::branchSelected, this, &SessionView::rewindTo);  // the engine follows
    updateActions();
    retranslate();
}

SessionView::~SessionView() { shutdown(); }

template <class F>
void SessionView::post(F&& call) {
    EngineWorker* w = worker();
    if (!w) return;  // shut down
    QMetaObject::invokeMethod(w, [w, call = std::forward<F>(call)] { call(w); }, Qt::QueuedConnection);
}

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
        if (replay_ && !info_.path.isEmpty()) loadModel(info_.path);  // onLoaded ends the replay
    });
}

void SessionView::createDocks(QMainWindow* window) {
    strip_ = new widgets::TokenStrip(model_);
    heatmap_ = new widgets::AttentionHeatmap(model_);
    grid_ = new widgets::AttentionGrid(model_);
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
    connect(model_, &widgets::TraceModel::currentStepChanged, chips, [this, chips] {
        QTimer::singleShot(0, chips, [this, chips] {
            const QRect last = strip_->chipRect(strip_->chipCount() - 1);
            if (!last.isEmpty()) chips->ensureVisible(last.center().x(), last.center().y(), 0, last.height());
        });
    });

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
    };
    // Where each dock sits and how large it is: DockLayout (the window arranges them).
    add(top, Panel::Tokens, Qt::TopDockWidgetArea);
    add(heatmap_, Panel::Attention, Qt::RightDockWidgetArea);
    add(grid_, Panel::AttentionGrid, Qt::RightDockWidgetArea);
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
    if (!hasEngine() || replay_) return;
    const QVector<qint32> path = model_->path();
    if (path.isEmpty()) return loadModel(info_.path);
    stop();
    ask_engine_change(window_, model_->sequenceLength(), [this, self = QPointer<SessionView>(this), path](EngineChange answer) {
        if (!self) return;  // the window closed with the question open
        if (answer == EngineChange::Keep) {
            sampling_->setEngineOptions(engine_options_);  // the panel shows what runs
            return;
        }
        rerun_.reset();
        if (answer == EngineChange::Rerun) {
            Rerun r{run_prompt_, {}, {}};
            for (const widgets::TokenView& t : model_->step(path.front())->tokens) r.prompt.push_back(t.id);
            for (qsizetype i = 1; i < path.size(); ++i) r.generated.push_back(model_->step(path[i])->tokens.front().id);
            rerun_ = std::move(r);
        }
        loadModel(info_.path);
    });
}

void SessionView::loadModel(const QString& path) {
    stop();
    const EngineOptions options = sampling_->engineOptions();
    engine_options_ = options;
    const SamplingOptions sampling = sampling_->sampling();
    in_flight_ = true;
    updateActions();
    // the model the window opened, when it is this file: the engine does not parse it again
    const labs::LabModelPtr opened = opened_ && opened_->path == path ? opened_ : nullptr;
    post([path, opened, options, sampling](EngineWorker* e) {
        e->setSampling(sampling);
        if (opened) e->run(opened, options);
        else e->load(path, options);
    });
}

void SessionView::loadModel(const labs::LabModelPtr& opened) {
    opened_ = opened;
    if (opened) loadModel(opened->path);
}

void SessionView::onLoaded(const EngineInfo& info) {
    info_ = info;
    replay_.reset();
    pending_.clear();
    last_.reset();
    engine_head_ = -1;
    ends_turn_ = false;
    model_->clear();
    model_->setModel(info.model);
    sampling_->setModelLimits(info.model.n_ctx_train, info.model.kv_bytes_per_token);
    onEngineIdle();
    updateStatus();  // a replay's figures go with it
    emit statusMessage(tr("Ready: %1 on %2").arg(QFileInfo(info.path).fileName(), info.backend));  // ends "Loading …"
    emit engineLoaded(info);
    if (rerun_) {  // the session on the new engine: the same tokens, recomputed
        const Rerun r = std::move(*rerun_);
        rerun_.reset();
        run_prompt_ = r.prompt_text;
        in_flight_ = true;
        updateActions();
        post([r](EngineWorker* e) { e->rerun(r.prompt, r.generated); });
    }
}

void SessionView::step() {
    if (replay_) return replayStep();
    if (in_flight_ || !hasEngine()) {
        if (!hasEngine()) emit statusMessage(tr("Open a model (Ctrl+O) or a trace (Ctrl+Shift+O) first."));
        return;
    }
    flushPending();  // the pick to feed is the latest one (new sampler settings pick again)
    const QString prompt = controls_->prompt();
    if (engine_head_ < 0 || prompt != run_prompt_) return startRun(prompt);
    if (ends_turn_) {
        setPlaying(false);
        emit statusMessage(tr("The reply has ended; Reset to start again."));
        return;
    }
    decodeNext(model_->current() ? model_->current()->logits.chosen : -1);
}

void SessionView::startRun(const QString& prompt) {
    if (prompt.isEmpty()) {
        setPlaying(false);
        emit statusMessage(tr("Type a prompt first: Step reads it, splits it into tokens and runs the model on them."));
        return;
    }
    if (engine_head_ >= 0) emit statusMessage(tr("The prompt has changed: this Step starts a new run from it."));
    // The engine empties its cache before it prefills (and stays empty when the prefill is
    // stopped): every panel shows that at once.
    flushPending();
    engine_head_ = -1;
    ends_turn_ = false;
    last_.reset();
    model_->clearCurrentStep();
    updateStatus();
    run_prompt_ = prompt;
    in_flight_ = true;
    updateActions();
    post([prompt](EngineWorker* e) { e->prefill(prompt); });
}

void SessionView::decodeNext(qint32 token) {
    in_flight_ = true;
    updateActions();
    // The step after the current one already fed this token (a rewind came back here): walk
    // on to it instead of computing a duplicate branch.
    flushPending();
    for (const widgets::StepView& v : model_->steps()) {
        if (v.parent != engine_head_ || v.phase != Phase::Decode || v.tokens.isEmpty() || v.tokens.front().id != token)
            continue;
        const qint32 child = v.index;
        post([child](EngineWorker* e) { e->rewind(child); });
        return;
    }
    post([](EngineWorker* e) { e->step(); });
}

void SessionView::flushPending() {
    if (pending_.isEmpty()) return;
    refresh_.stop();
    applyPending();
}

void SessionView::replayStep() {
    const qint32 current = model_->currentStep();
    const QVector<qint32> branch = model_->branchPath();
    const qsizetype at = branch.indexOf(current);
    if (at >= 0 && at + 1 < branch.size()) {
        model_->setCurrentStep(branch[at + 1]);  // walk forward along the shown branch
    } else if (replay_next_ < replay_->steps.size()) {
        model_->appendStep(replay_->steps[replay_next_++]);
    } else {
        setPlaying(false);
        emit statusMessage(tr("End of the trace"));
    }
    updateStatus();
    updateActions();
    emit applied();
    scheduleNext();
}

void SessionView::setPlaying(bool on) {
    playing_ = on && (replay_ || hasEngine());
    play_->setChecked(playing_);
    retranslatePlay();
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
    if (replay_) {
        model_->clear();
        model_->setModel(replay_->model);
        replay_next_ = 0;
        updateStatus();
        return;
    }
    if (!hasEngine() || engine_head_ < 0) return;
    in_flight_ = true;
    updateActions();
    post([](EngineWorker* e) { e->reset(); });
}

void SessionView::forceToken(qint32 id) {
    if (replay_ || in_flight_ || engine_head_ < 0) return;
    post([id](EngineWorker* e) { e->force(id); });
    ends_turn_ = false;
    decodeNext(id);
}

void SessionView::rewindTo(qint32 step) {
    if (replay_) {
        model_->setCurrentStep(step);
        updateStatus();
        return;
    }
    if (in_flight_ || !hasEngine()) return;
    setPlaying(false);
    in_flight_ = true;
    updateActions();
    post([step](EngineWorker* e) { e->rewind(step); });
}

void SessionView::saveTrace(const QString& path) {
    if (!hasEngine() || replay_) return;
    post([path](EngineWorker* e) { e->saveTrace(path); });
}

void SessionView::openTrace(const QString& path) {
    stop();
    post([path](EngineWorker* e) { e->openTrace(path); });
}

void SessionView::onTraceOpened(const ReplayPtr& replay) {
    replay_ = replay;
    replay_next_ = 0;
    pending_.clear();
    model_->clear();
    model_->setModel(replay->model);
    updateStatus();
    updateActions();
    emit traceOpened(replay->path);
}

void SessionView::onStepDone(const SnapshotPtr& snapshot) {
    pending_ << snapshot;
    if (snapshot->kind == EngineSnapshot::Kind::Repick) {  // not a step: nothing ran that the buttons wait for
        ends_turn_ = snapshot->ends_turn;
        if (!refresh_.isActive()) refresh_.start();
        return;
    }
    last_ = snapshot;
    engine_head_ = snapshot->head;
    ends_turn_ = snapshot->ends_turn;
    onEngineIdle();
    if (!refresh_.isActive()) refresh_.start();
    if (playing_ && ends_turn_) setPlaying(false);
    scheduleNext();
}

void SessionView::showPrefillProgress(qint32 layers_done, qint32 n_layer, qint32 tokens, qint64 elapsed_ms) {
    if (!in_flight_) return;  // a late report of a step already done
    prefill_bar_->setRange(0, n_layer);
    prefill_bar_->setValue(layers_done);
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

void SessionView::applyPending() {
    if (replay_) return pending_.clear();
    for (const SnapshotPtr& s : std::as_const(pending_)) {
        for (qint32 i : s->dropped) model_->dropPlanes(i);
        for (const widgets::StepView& v : s->new_steps) model_->appendStep(v);
        if (s->kind == EngineSnapshot::Kind::Rewind && s->head >= 0) model_->setCurrentStep(s->head);
        if (s->kind == EngineSnapshot::Kind::Reset) model_->clearCurrentStep();
        if (s->repicked) model_->setStepLogits(s->head, *s->repicked);
    }
    pending_.clear();
    updateStatus();
    emit applied();
}

void SessionView::updateActions() {
    const bool usable = replay_ || hasEngine();
    step_->setEnabled(usable && !in_flight_);
    play_->setEnabled(usable);
    stop_->setEnabled(in_flight_ || playing_);
    reset_->setEnabled(usable && !in_flight_);
    live_->setEnabled(replay_ && !info_.path.isEmpty() && !in_flight_);
}

void SessionView::updateStatus() {
    if (replay_) {
        statusLabel(StatusField::Source)->setText(tr("Replay: %1").arg(QFileInfo(replay_->path).fileName()));
        const widgets::StepView* s = model_->current();
        statusLabel(StatusField::Tokens)->setText(tr("Step %1 of %2").arg(model_->currentStep() + 1).arg(replay_->steps.size()));
        statusLabel(StatusField::KvBytes)->setText(s ? tr("KV %1").arg(widgets::format_bytes(s->kv.bytes_total)) : QString());
        statusLabel(StatusField::Speed)->clear();
        return;
    }
    statusLabel(StatusField::Source)->setText(info_.backend);
    const qint32 tokens = last_ ? last_->kv_tokens : 0;
    statusLabel(StatusField::Tokens)->setText(info_.n_ctx > 0 ? tr("%1 / %Ln token(s)", nullptr, info_.n_ctx).arg(tokens)
                                        : tr("%n token(s)", nullptr, tokens));
    statusLabel(StatusField::Tokens)->setToolTip(info_.n_ctx > 0 ? tr("Tokens in the KV cache / the context limit in force (the model's own: %1)")
                                                 .arg(QLocale().toString(info_.model.n_ctx_train))
                                           : QString());
    statusLabel(StatusField::KvBytes)->setText(tr("KV %1").arg(widgets::format_bytes(last_ ? last_->kv_bytes : 0)));
    statusLabel(StatusField::Speed)->setText(last_ && last_->tokens_per_s > 0 ? tr("%1 tokens/s").arg(last_->tokens_per_s, 0, 'f', 1)
                                                         : QString());
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

void SessionView::restoreSettings() {
    sampling_->restoreSettings();
    QSettings s;
    controls_->setPrompt(s.value(QStringLiteral("session/prompt"), QStringLiteral("The capital of France is")).toString());
    controls_->setSpeed(s.value(QStringLiteral("session/speed"), 4).toInt());
}

void SessionView::shutdown() {
    playing_ = false;
    play_timer_.stop();
    refresh_.stop();
    engine_->shutdown();
}

}  // namespace lmscope::gui
