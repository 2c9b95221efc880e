#include "gui/model_document.h"

#include "util/message.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace lmscope::gui {

ModelDocument::ModelDocument(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcherBase::finished, this, &ModelDocument::finished);
}

// A load still running keeps only its own copies (the path, its result): nothing to wait for.
ModelDocument::~ModelDocument() = default;

void ModelDocument::open(const QString& path) {
    const bool was_loading = isLoading();
    loading_path_ = path;
    watcher_.setFuture(QtConcurrent::run([path]() -> Result {
        try {
            return {std::make_shared<const LoadedModel>(load_model(path)), {}};
        } catch (...) {  // the file, field and reason, or out of memory
            return {nullptr, QString::fromStdString(exception_message(std::current_exception()))};
        }
    }));
    emit loadStarted(path);
    if (!was_loading) emit busyChanged(true);
}

void ModelDocument::finished() {
    Result r = watcher_.result();
    const QString path = loading_path_;
    loading_path_.clear();
    emit busyChanged(false);
    if (r.model) {
        model_ = std::move(r.model);
        emit modelChanged();
    } else {
        emit loadFailed(path, r.error);
    }
}

}  // namespace lmscope::gui
