// The step-through session in the main window: the engine worker on its thread, the one
// TraceModel every panel shows, the panels as docks, the loop's actions (Step, Play/Pause,
// Stop, Reset, Save/Open Trace) and the status bar figures.
//
// The steps come from a StepSource (step_source.h): a live session on the loaded model, or a
// trace file opened without a model. Play issues the next step only after the previous one is
// done, at the chosen speed.
#pragma once

#include "gui/engine_worker.h"
#include "gui/panel_help.h"
#include "gui/step_source.h"
#include "widgets/export.h"

#include <QMap>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <array>
#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QMainWindow;
class QProgressBar;

namespace lmscope::widgets {
class AttentionGrid;
class AttentionHeatmap;
class KvChart;
class LogitsView;
class Timeline;
class TokenStrip;
class TraceModel;
}  // namespace lmscope::widgets

namespace lmscope::gui {

class LayerView;
class AblationComparison;
class SamplingPanel;
class StepControls;

class SessionView : public QObject {
    Q_OBJECT
public:
    enum class Chart { Heatmap, KvCache, Logits };

    // Adds the controls, docks and status labels to `window`.
    explicit SessionView(QMainWindow* window);
    ~SessionView() override;

    widgets::TraceModel* model() const { return model_; }
    // The engine; null once shutdown() ended its thread.
    EngineWorker* worker() const { return engine_->isShutDown() ? nullptr : engine_; }
    StepControls* controls() const { return controls_; }
    // The dock of `panel`; null for a panel that is not one of the session's docks.
    QDockWidget* dock(Panel panel) const { return docks_.value(panel); }
    // The panels docked by the session, in the order of their docks.
    QList<Panel> panels() const { return docks_.keys(); }
    // The panel itself, inside its dock (what stage mode lends); null as dock() is.
    QWidget* panelWidget(Panel panel) const { return panel_widgets_.value(panel); }
    QString statusText(StatusField field) const;

    QAction* stepAction() const { return step_; }
    QAction* playAction() const { return play_; }
    QAction* stopAction() const { return stop_; }
    QAction* resetAction() const { return reset_; }
    // Replay mode back to a live session on the model opened before the trace (enabled in a
    // replay when a model was open).
    QAction* liveAction() const { return live_; }
    // Layers done of the running prefill, with its tokens, time and speed (hidden when idle).
    const QProgressBar* prefillProgress() const { return prefill_bar_; }

    bool isPlaying() const { return playing_; }
    bool inFlight() const { return in_flight_; }
    bool isReplay() const { return source_->isReplay(); }
    bool hasEngine() const { return !info_.path.isEmpty(); }
    // The engine the session was last asked to run on (the Sampling panel's choice then).
    const EngineOptions& engineOptions() const { return engine_options_; }
    // The chart the user last worked with, its plot and its numbers (for File > Export).
    Chart focusedChart() const;
    QCustomPlot* chartPlot(Chart chart) const;
    widgets::ChartTable chartTable(Chart chart) const;
    // The token strip takes the keyboard focus, so Space steps.
    void focusTokens();

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

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // notes the chart clicked last

private:
    void createActions();
    void createDocks(QMainWindow* window);
    void createStatus(QMainWindow* window);
    void setSource(std::unique_ptr<StepSource> source);
    void onLoaded(const EngineInfo& info);
    void onTraceOpened(const ReplayPtr& replay);
    void waitForEngine();  // a request went to the engine: Step and the rest wait for it
    void onEngineIdle();
    void showPrefillProgress(const JobProgress& progress);
    void changeEngine();     // a new engine setting: asks first when there are steps
    void retranslatePlay();  // Play or Pause
    void scheduleNext();
    void updateStatus();
    void updateActions();
    QLabel* statusLabel(StatusField field) const { return status_[std::size_t(field)]; }

    QMainWindow* window_;
    EngineWorker* engine_;
    widgets::TraceModel* model_;
    StepControls* controls_ = nullptr;
    SamplingPanel* sampling_ = nullptr;
    widgets::TokenStrip* strip_ = nullptr;
    widgets::AttentionHeatmap* heatmap_ = nullptr;
    widgets::AttentionGrid* grid_ = nullptr;
    widgets::KvChart* kv_ = nullptr;
    widgets::LogitsView* logits_ = nullptr;
    widgets::Timeline* timeline_ = nullptr;
    LayerView* layer_ = nullptr;
    QMap<Panel, QDockWidget*> docks_;
    QMap<Panel, QWidget*> panel_widgets_;  // the widget each dock scrolls
    std::array<QLabel*, kStatusFields> status_{};  // by StatusField
    QProgressBar* prefill_bar_ = nullptr;  // in the status bar while a prefill runs

    QAction* step_ = nullptr;
    QAction* play_ = nullptr;
    QAction* stop_ = nullptr;
    QAction* reset_ = nullptr;
    QAction* live_ = nullptr;

    QTimer play_timer_;
    std::unique_ptr<StepSource> source_;
    EngineInfo info_;           // the model the engine has loaded (kept through a replay)
    bool in_flight_ = false;    // the engine works on a request
    bool playing_ = false;
    EngineOptions engine_options_;   // the settings the engine was last loaded with
    LabModelPtr opened_;       // the model the window opened last
    std::optional<RerunPlan> rerun_;  // the path to run again once the new engine is loaded
    Chart focused_ = Chart::Heatmap;
    AblationComparison* comparison_ = nullptr;  // the Logits panel's with and without
};

}  // namespace lmscope::gui
