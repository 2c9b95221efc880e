#include "gui/labs/lab_host.h"

#include "util/message.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace lmscope::gui::labs {

LabHost::LabHost(widgets::TraceModel* live, QObject* parent) : QObject(parent), live_(live) {
    qRegisterMetaType<LabModelPtr>();
    connect(&watcher_, &QFutureWatcherBase::finished, this, &LabHost::finished);
}

LabHost::~LabHost() { watcher_.waitForFinished(); }

void LabHost::open(const QString& path) {
    loading_path_ = path;
    if (watcher_.isRunning()) return;  // finished() starts the newest request
    watcher_.setFuture(QtConcurrent::run([path]() -> Result {
        try {
            return {path, load_lab_model(path), {}};
        } catch (...) {  // the file, field and reason, or out of memory
            return {path, nullptr, QString::fromStdString(exception_message(std::current_exception()))};
        }
    }));
}

void LabHost::finished() {
    const Result result = watcher_.result();
    if (result.path != loading_path_) {  // a newer request came meanwhile
        open(loading_path_);
        return;
    }
    if (result.model) setModel(result.model);
    else emit loadFailed(result.path, result.error);
}

void LabHost::setModel(const LabModelPtr& model) {
    model_ = model;
    emit modelChanged(model_);
}

}  // namespace lmscope::gui::labs
