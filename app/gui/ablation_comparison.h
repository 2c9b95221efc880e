// The Logits panel's "with and without": when the shown step ran with heads switched off, its
// next-token distribution beside the one the same tokens give with every head on, computed as a
// job of its own (compare_ablation, ablation_compare.h) on the engine the session runs on,
// never on the engine's thread. It follows the TraceModel's current step; a result for another
// step, path or session is dropped, never shown.
#pragma once

#include "gui/engine_setup.h"
#include "gui/job_runner.h"
#include "util/types.h"

#include <QObject>
#include <QVector>

#include <optional>

namespace lmscope::widgets {
class LogitsView;
class TraceModel;
}  // namespace lmscope::widgets

namespace lmscope::gui {

class AblationComparison : public QObject {
    Q_OBJECT
public:
    // Reads `trace`'s current step and path; shows the comparison in `view` (neither owned).
    AblationComparison(widgets::TraceModel* trace, widgets::LogitsView* view, QObject* parent = nullptr);

    // Another session: what was computed for the old one is dropped. `model` null (a replay, or
    // no model): there is nothing to compute.
    void setSession(const LabModelPtr& model, const EngineOptions& engine);
    bool busy() const { return runner_->busy(); }

private:
    void update();  // the current step or the steps changed

    struct Key {
        quint64 generation = 0;
        qint32 step = -1;
        QVector<qint32> ids;  // the tokens along the path, with where each step put them
        QVector<LayerHead> heads;
        bool operator==(const Key&) const = default;
    };

    widgets::TraceModel* trace_;
    widgets::LogitsView* view_;
    JobRunner* runner_;
    LabModelPtr model_;
    EngineOptions engine_;
    quint64 generation_ = 0;   // a new session: results of the old one are dropped
    std::optional<Key> key_;   // what the panel shows or the job computes
};

}  // namespace lmscope::gui
