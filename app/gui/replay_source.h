// The steps of a trace file opened without a model: Step shows the next saved step (or walks
// forward along the branch shown), a rewind picks a step, Reset empties the panels. Nothing
// here asks the engine.
#pragma once

#include "gui/engine_worker.h"
#include "gui/step_source.h"

namespace lmscope::widgets {
class TraceModel;
}

namespace lmscope::gui {

class ReplaySource : public StepSource {
    Q_OBJECT
public:
    ReplaySource(ReplayPtr replay, widgets::TraceModel* model, QObject* parent = nullptr);

    bool usable() const override { return true; }
    bool isReplay() const override { return true; }
    bool step() override;
    bool reset() override;
    bool rewindTo(qint32 step) override;
    bool forceToken(qint32) override { return false; }
    std::optional<RerunPlan> rerunPlan() const override { return std::nullopt; }
    SourceStatus status() const override;

private:
    ReplayPtr replay_;
    widgets::TraceModel* model_;
    qint32 next_ = 0;  // the saved step Step appends next
};

}  // namespace lmscope::gui
