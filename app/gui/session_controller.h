// The step-through session in the main window, wired: the engine worker on its thread, the one
// TraceModel every panel shows, the StepSource the steps come from, and the loop's actions
// (Step, Play/Pause, Stop, Reset, Back to Live Model). Each other job has its own class:
// SessionPanels (the panels as docks, the chart to export), SessionStatus (the status bar's
// figures and the prefill's progress), PlayLoop (Play, and whether a request runs) and
// EngineLoader (which engine runs, its reloads and their questions).
//
// The steps come from a StepSource (step_source.h): a live session on the loaded model, or a
// trace file opened without a model. Play issues the next step only after the previous one is
// done, at the chosen speed.
#pragma once

#include "gui/engine_worker.h"
#include "gui/panel_help.h"
#include "gui/session_panels.h"
#include "gui/step_source.h"
#include "widgets/export.h"

#include <QList>
#include <QObject>

#include <memory>

class QAction;
class QDockWidget;
class QMainWindow;
class QProgressBar;

namespace lmscope::widgets {
class TraceModel;
}

namespace lmscope::gui {

class AblationComparison;
class EngineLoader;
class PlayLoop;
class SessionStatus;
class StepControls;

class SessionController : public QObject {
    Q_OBJECT
public:
    using Chart = SessionPanels::Chart;

    // Adds the controls, docks and status fields to `window`.
    explicit SessionController(QMainWindow* window);
    ~SessionController() override;

    widgets::TraceModel* model() const { return model_; }
    // The engine; null once shutdown() ended its thread.
    EngineWorker* worker() const { return engine_->isShutDown() ? nullptr : engine_; }
    StepControls* controls() const { return controls_; }
    // The panels' docks and widgets, and the chart to export (SessionPanels).
    QDockWidget* dock(Panel panel) const { return panels_->dock(panel); }
    QList<Panel> panels() const { return panels_->panels(); }
    QWidget* panelWidget(Panel panel) const { return panels_->panelWidget(panel); }
    QCustomPlot* chartPlot(Chart chart) const { return panels_->chartPlot(chart); }
    widgets::ChartTable chartTable(Chart chart) const { return panels_->chartTable(chart); }
    void focusTokens() { panels_->focusTokens(); }
    QString statusText(StatusField field) const;
    // Layers done of the running prefill, with its tokens, time and speed (hidden when idle).
    const QProgressBar* prefillProgress() const;

    QAction* stepAction() const { return step_; }
    QAction* playAction() const { return play_; }
    QAction* stopAction() const { return stop_; }
    QAction* resetAction() const { return reset_; }
    // Replay mode back to a live session on the model opened before the trace (enabled in a
    // replay when a model was open).
    QAction* liveAction() const { return live_; }

    bool isPlaying() const;
    bool inFlight() const;
    bool isReplay() const { return source_->isReplay(); }
    bool hasEngine() const;
    // The engine the session was last asked to run on (the Sampling panel's choice then).
    const EngineOptions& engineOptions() const;

    void retranslate();
    void saveSettings() const;
    // What could not be restored ("" when all was; SamplingPanel::restoreSettings).
    QString restoreSettings();

public slots:
    // A session on the model the window opened (prepared once, shared with the labs).
    void loadModel(const lmscope::gui::LabModelPtr& opened);
    // A session on `path`: the opened model when it is that file, else the engine opens it.
    void loadModel(const QString& path);
    void step();
    void setPlaying(bool on);
    void stop();
    // A new session from the prompt: the cache empty, every step and branch gone.
    void reset();
    void forceToken(qint32 id);
    void rewindTo(qint32 step);
    // Rewinds to step `step`'s parent and runs it again with the heads switched off now (the
    // grid's, the heatmap's and the logits panel's "Recompute this step"); not in a replay.
    void recomputeStep(qint32 step);
    void saveTrace(const QString& path);
    void openTrace(const QString& path);
    // Cancels a running step and stops the engine thread (the window is closing).
    void shutdown();

signals:
    void engineLoaded(const lmscope::gui::EngineInfo& info);
    void engineError(const QString& message);
    void traceSaved(const QString& path);
    void traceOpened(const QString& path);
    void applied();  // the TraceModel caught up with the engine (after the coalescing timer)
    void statusMessage(const QString& text);
    void logitLensRequested(const QString& text);  // the Layer view's link to the lens lab

private:
    void createActions();
    void setSource(std::unique_ptr<StepSource> source);
    void onLoaded(const EngineInfo& info, const std::optional<RerunPlan>& rerun);
    void onTraceOpened(const ReplayPtr& replay);
    void waitForEngine();  // a request went to the engine: Step and the rest wait for it
    void onEngineIdle();
    void updateStatus();
    void updateActions();

    EngineWorker* engine_;
    widgets::TraceModel* model_;
    QAction* step_ = nullptr;
    QAction* play_ = nullptr;
    QAction* stop_ = nullptr;
    QAction* reset_ = nullptr;
    QAction* live_ = nullptr;
    StepControls* controls_ = nullptr;
    SessionPanels* panels_ = nullptr;
    SessionStatus* status_ = nullptr;
    PlayLoop* loop_ = nullptr;
    EngineLoader* loader_ = nullptr;
    AblationComparison* comparison_ = nullptr;  // the Logits panel's with and without
    std::unique_ptr<StepSource> source_;
};

}  // namespace lmscope::gui
