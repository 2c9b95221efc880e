// What the labs share: the model the window has open (prepared once by the window's open and
// shared with the step-through session) and the step-through session's trace
// (widgets::TraceModel), which the KV cache lab draws as its measured curve.
#pragma once

#include "gui/labs/lab_model.h"

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
    widgets::TraceModel* liveTrace() const { return live_; }

public slots:
    // The window opened `model` (null: none); every lab follows (modelChanged).
    void setModel(const lmscope::gui::labs::LabModelPtr& model);

signals:
    void modelChanged(const lmscope::gui::labs::LabModelPtr& model);

private:
    widgets::TraceModel* live_;
    LabModelPtr model_;
};

}  // namespace lmscope::gui::labs
