#include "gui/labs/lab_runner.h"

namespace lmscope::gui::labs {

LabRunner::LabRunner(QObject* parent) : QObject(parent) {}

LabRunner::~LabRunner() {
    if (token_) token_->cancel();
}

quint64 LabRunner::replace(CancelPtr token) {
    const bool was_busy = busy();
    if (token_) token_->cancel();
    token_ = std::move(token);
    if (busy() != was_busy) emit busyChanged(busy());
    return ++job_;
}

bool LabRunner::end(quint64 job) {
    if (job != job_ || !token_) return false;
    token_.reset();
    emit busyChanged(false);
    return true;
}

void LabRunner::stop() {
    if (token_) token_->cancel();
}

void LabRunner::abandon() {
    if (!token_) return;
    replace(nullptr);
}

}  // namespace lmscope::gui::labs
