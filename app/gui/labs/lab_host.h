// What the labs share: the model the window has open (loaded for the labs off the UI thread
// when the window's model changes; the newer request wins) and the step-through session's
// trace (widgets::TraceModel), which the KV cache lab draws as its measured curve.
#pragma once

#include "gui/labs/lab_model.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

namespace lmscope::widgets {
class TraceModel;
}

namespace lmscope::gui::labs {

class LabHost : public QObject {
    Q_OBJECT
public:
    // `live` (not owned, may be null) is the main session's trace.
    explicit LabHost(widgets::TraceModel* live, QObject* parent = nullptr);
    ~LabHost() override;

    LabModelPtr model() const { return model_; }  // null until a model loaded
    widgets::TraceModel* liveTrace() const { return live_; }
    bool isLoading() const { return watcher_.isRunning(); }

public slots:
    // Loads `path` off the UI thread; modelChanged() or loadFailed() follows.
    void open(const QString& path);
    // Makes `model` current at once (it was loaded elsewhere, e.g. by a test or a tool).
    void setModel(const lmscope::gui::labs::LabModelPtr& model);

signals:
    void modelChanged(const lmscope::gui::labs::LabModelPtr& model);
    void loadFailed(const QString& path, const QString& message);

private:
    struct Result {
        QString path;       // the file this load read
        LabModelPtr model;
        QString error;  // set when model is null
    };
    void finished();

    widgets::TraceModel* live_;
    QFutureWatcher<Result> watcher_;
    QString loading_path_;
    LabModelPtr model_;
};

}  // namespace lmscope::gui::labs

Q_DECLARE_METATYPE(lmscope::gui::labs::LabModelPtr)
