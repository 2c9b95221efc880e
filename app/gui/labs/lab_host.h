// What the labs share: the model the window has open (prepared once by the window's open and
// shared with the step-through session), the engine the user chose for it (the labs run on the
// same backend, with the same threads), and the step-through session's trace
// (widgets::TraceModel), which the KV cache lab draws as its measured curve.
#pragma once

#include "gui/engine_setup.h"

#include <QObject>

namespace lmscope::widgets {
class TraceModel;
}

namespace lmscope::gui::labs {

class LabHost : public QObject {
    Q_OBJECT
public:
    // `live` (not owned, may be null) is the main session's trace.
    explicit LabHost(widgets::TraceModel* live, QObject* parent = nullptr);

    LabModelPtr model() const { return model_; }  // null until a model is open
    const EngineOptions& engine() const { return engine_; }  // the step-through session's
    widgets::TraceModel* liveTrace() const { return live_; }

public slots:
    // The window opened `model` (null: none); every lab follows (modelChanged).
    void setModel(const lmscope::gui::LabModelPtr& model);
    // The engine the step-through session now runs on; the labs' next runs use its backend.
    void setEngine(const lmscope::gui::EngineOptions& engine) { engine_ = engine; }

signals:
    void modelChanged(const lmscope::gui::LabModelPtr& model);

private:
    widgets::TraceModel* live_;
    LabModelPtr model_;
    EngineOptions engine_;
};

}  // namespace lmscope::gui::labs
