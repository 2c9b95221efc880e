#include "gui/model_document.h"

namespace lmscope::gui {

ModelDocument::ModelDocument(QObject* parent) : QObject(parent), loader_(nullptr, QStringLiteral("lmscope model loader")) {
    connect(&loader_, &JobRunner::busyChanged, this, &ModelDocument::busyChanged);
    connect(&loader_, &JobRunner::failed, this, [this](const JobError& error) {
        emit loadFailed(std::exchange(loading_path_, QString()), error.text());  // the file, field and reason
    });
}

// A load still running ends before the loader's thread does (the parse is not cancellable).
ModelDocument::~ModelDocument() = default;

void ModelDocument::open(const QString& path) {
    loading_path_ = path;
    loader_.start([path](const JobContext&) { return std::make_shared<const LoadedModel>(load_model(path)); },
                  [this](std::shared_ptr<const LoadedModel> model) {
                      loading_path_.clear();
                      model_ = std::move(model);
                      emit modelChanged();
                  });
    emit loadStarted(path);
}

}  // namespace lmscope::gui
