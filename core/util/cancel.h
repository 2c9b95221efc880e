// The one cancellation type. Whoever starts a long computation (a step, a lab run, tokenizer
// training) makes a CancelToken and keeps it; Stop calls cancel() from any thread; the
// computation checks it between its parts and throws CancelledError. A token is used for one
// job: the next job gets a fresh one, so a Stop that arrives late for a finished job can
// never stop the next (the app's jobs get theirs from gui/job_runner.h).
//
// One way to pass it: `const CancelToken*`, null when the work cannot be stopped (the CLI).
// One way to check it: check_cancel(token). Only code that must undo something before it
// throws (a backend cutting its cache back) reads cancelled() itself.
#pragma once

#include "util/error.h"

#include <atomic>
#include <memory>

namespace lmscope {

class CancelToken {
public:
    // From any thread; the job sees it at its next check.
    void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
    bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> cancelled_{false};
};

// A token shared by the job (which may outlive whoever started it) and its starter.
using CancelPtr = std::shared_ptr<CancelToken>;

// Throws CancelledError when `token` is set and cancelled (null: the work cannot be stopped).
inline void check_cancel(const CancelToken* token) {
    if (token && token->cancelled()) throw CancelledError();
}

}  // namespace lmscope
