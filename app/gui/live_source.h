// A live session: the engine computes each step. The first Step tokenizes the prompt and
// prefills, later Steps decode one token (or walk back onto a branch already computed); a new
// prompt starts a new run. Snapshots from the engine are applied to the TraceModel by a short
// single-shot timer, so a burst of steps costs one redraw.
#pragma once

#include "gui/engine_worker.h"
#include "gui/step_source.h"

#include <QTimer>

namespace lmscope::widgets {
class TraceModel;
}

namespace lmscope::gui {

class StepControls;

class LiveSource : public StepSource {
    Q_OBJECT
public:
    // A session on the model `info` describes (none while `info.path` is empty); the prompt is
    // read from `controls`.
    LiveSource(EngineWorker* engine, widgets::TraceModel* model, const StepControls* controls, EngineInfo info,
               QObject* parent = nullptr);

    bool usable() const override { return !info_.path.isEmpty(); }
    bool isReplay() const override { return false; }
    bool step() override;
    bool reset() override;
    bool rewindTo(qint32 step) override;
    bool forceToken(qint32 id) override;
    bool recompute(qint32 step) override;
    std::optional<RerunPlan> rerunPlan() const override;
    SourceStatus status() const override;
    // Runs `plan` on this (new) engine: the same tokens, recomputed.
    void rerun(const RerunPlan& plan);

private:
    void onStepDone(const SnapshotPtr& snapshot);
    bool startRun(const QString& prompt);  // prefill `prompt` after emptying the cache
    void decodeNext(qint32 token);         // the next decode, which feeds `token`
    void applyPending();
    void flushPending();  // applies the snapshots now, not after the timer

    EngineWorker* engine_;
    widgets::TraceModel* model_;
    const StepControls* controls_;
    EngineInfo info_;
    QTimer refresh_;  // coalesces snapshots into one TraceModel update
    QVector<SnapshotPtr> pending_;
    qint32 engine_head_ = -1;  // the engine's current step; -1: the next Step prefills
    bool ends_turn_ = false;
    SnapshotPtr last_;
    QString run_prompt_;  // the prompt the engine's run was prefilled from
};

}  // namespace lmscope::gui
