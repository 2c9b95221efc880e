// Tokenizer lab: a running job that can be stopped. The trainer and the backend's forward take
// a plain atomic flag, so the lab keeps one beside run_job's CancelToken and sets both.
#pragma once

#include "gui/labs/lab_job.h"

#include <atomic>
#include <memory>

namespace lmscope::gui::labs {

struct StopHandle {
    CancelPtr token;                          // run_job's token (null when idle)
    std::shared_ptr<std::atomic<bool>> flag;  // handed to the work: the trainer / forward poll it

    // A fresh flag for the next job (the previous one is stopped first).
    std::shared_ptr<std::atomic<bool>> renew() {
        stop();
        flag = std::make_shared<std::atomic<bool>>(false);
        return flag;
    }
    void stop() {
        if (flag) flag->store(true);
        if (token) token->cancel();
        token.reset();
        flag.reset();
    }
    void finished() {
        token.reset();
        flag.reset();
    }
    bool running() const { return token != nullptr; }
};

}  // namespace lmscope::gui::labs
