// Which engine the step-through session runs on, and (re)loading it: the model the window
// opened (shared, not parsed again) or a path, with the Sampling panel's engine settings. A new
// setting under a session with steps asks first (engine_change.h) and can re-run the session's
// path on the new engine; a prompt longer than the context says so and offers to raise the
// context (within the model's own) and run the prompt on the reloaded engine.
#pragma once

#include "gui/engine_worker.h"
#include "gui/step_source.h"

#include <QObject>

#include <optional>

class QWidget;

namespace lmscope::gui {

class SamplingPanel;

class EngineLoader : public QObject {
    Q_OBJECT
public:
    // Loads into `engine` as `sampling` says; asks its questions on `window`.
    EngineLoader(EngineWorker* engine, SamplingPanel* sampling, QWidget* window, QObject* parent = nullptr);

    bool hasEngine() const { return !info_.path.isEmpty(); }
    // The model the engine has loaded (kept through a replay).
    const EngineInfo& info() const { return info_; }
    // The engine the session was last asked to run on (the Sampling panel's choice then).
    const EngineOptions& options() const { return options_; }

    // A session on the model the window opened (prepared once, shared with the labs).
    void load(const LabModelPtr& opened);
    // A session on `path`: the opened model when it is that file, else the engine opens it.
    void load(const QString& path);
    // A new engine setting. With `plan` (the session's path, `tokens` long) it asks first:
    // re-run the path on the new engine, start empty, or keep the old setting.
    void change(std::optional<RerunPlan> plan, qint32 tokens);
    // A prompt over the context: says so with both numbers and offers to raise the context.
    void offerContext(const PromptTooLong& prompt);

signals:
    void stopRequested();  // the session stops: Play pauses, a running step is cancelled
    void loading();        // a load went to the engine (stopRequested came first)
    // The engine is loaded; `rerun`: the path to run again on it.
    void loaded(const lmscope::gui::EngineInfo& info, const std::optional<lmscope::gui::RerunPlan>& rerun);

private:
    void onLoaded(const EngineInfo& info);

    EngineWorker* engine_;
    SamplingPanel* sampling_;
    QWidget* window_;
    EngineInfo info_;
    EngineOptions options_;             // the settings the engine was last loaded with
    LabModelPtr opened_;                // the model the window opened last
    std::optional<RerunPlan> rerun_;    // the path to run again once the new engine is loaded
};

}  // namespace lmscope::gui
