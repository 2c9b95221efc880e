// The model the window shows: loads a GGUF file off the UI thread (a JobRunner job) and keeps
// the last one that loaded. A failed load reports its error and leaves the current model as
// it was. When a second open() comes before the first finishes, the newer request wins.
#pragma once

#include "gui/job_runner.h"
#include "gui/loaded_model.h"

#include <QObject>
#include <QString>

#include <memory>

namespace lmscope::gui {

class ModelDocument : public QObject {
    Q_OBJECT
public:
    explicit ModelDocument(QObject* parent = nullptr);
    ~ModelDocument() override;

    void open(const QString& path);
    bool isLoading() const { return loader_.busy(); }
    QString loadingPath() const { return loading_path_; }
    // The current model; null until one has loaded.
    std::shared_ptr<const LoadedModel> model() const { return model_; }

signals:
    void loadStarted(const QString& path);
    void modelChanged();  // model() is a newly loaded model
    void loadFailed(const QString& path, const QString& message);
    void busyChanged(bool busy);

private:
    JobRunner loader_;
    QString loading_path_;
    std::shared_ptr<const LoadedModel> model_;
};

}  // namespace lmscope::gui
