#include "gui/labs/lab_job.h"

#include "engine/session.h"

namespace lmscope::gui::labs {

void CancelToken::cancel() {
    cancelled_.store(true);
    std::lock_guard lock(mutex_);
    if (session_) session_->request_cancel();
}

void CancelToken::check() const {
    if (cancelled_.load()) throw CancelledError();
}

CancelToken::Attach::Attach(CancelToken& token, engine::Session& session) : token_(token) {
    std::lock_guard lock(token_.mutex_);
    token_.session_ = &session;
    session.clear_cancel();  // a request left from an earlier job on this session is not ours
    if (token_.cancelled_.load()) session.request_cancel();
}

CancelToken::Attach::~Attach() {
    std::lock_guard lock(token_.mutex_);
    token_.session_ = nullptr;
}

}  // namespace lmscope::gui::labs
