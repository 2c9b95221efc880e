// Engine work for a lab, off the UI thread. run_job() runs `work(token)` on Qt's global thread
// pool and delivers its result on the UI thread: done(result), or failed(message) when it threw
// an lmscope::Error or a standard exception (the message is the error's, with the file, field
// and reason), or nothing when it was cancelled. The lab keeps the returned token: Stop, a new
// run or the lab's destruction calls cancel(), which stops an attached Session between layers.
#pragma once

#include "util/error.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

namespace lmscope::engine {
class Session;
}

namespace lmscope::gui::labs {

class CancelToken {
public:
    // From any thread: marks the job cancelled and stops the attached session's running step.
    void cancel();
    bool cancelled() const { return cancelled_.load(); }
    // Throws CancelledError once cancel() was called; jobs call it between their steps.
    void check() const;

    // While an Attach lives, cancel() also stops `session` (Session::request_cancel). A cancel
    // that came before the attach is passed on at once; a request an earlier job left on the
    // session is dropped.
    class Attach {
    public:
        Attach(CancelToken& token, engine::Session& session);
        ~Attach();
        Attach(const Attach&) = delete;
        Attach& operator=(const Attach&) = delete;

    private:
        CancelToken& token_;
    };

private:
    std::atomic<bool> cancelled_{false};
    std::mutex mutex_;                    // guards session_ against cancel() from the UI thread
    engine::Session* session_ = nullptr;  // the session the job is running, if any
};
using CancelPtr = std::shared_ptr<CancelToken>;

namespace detail {
template <class R>
struct JobOutcome {
    std::shared_ptr<R> value;  // null when it failed or was cancelled
    QString error;
    bool cancelled = false;
};
}  // namespace detail

// `work` is called as work(CancelToken&) on a pool thread and must capture only what it owns
// (shared_ptr copies, values): the lab may be gone before it ends. `done` and `failed` run on
// `context`'s thread, and not at all once `context` is destroyed.
template <class Work, class Done>
CancelPtr run_job(QObject* context, Work work, Done done, std::function<void(const QString&)> failed) {
    using R = std::invoke_result_t<Work&, CancelToken&>;
    using Outcome = detail::JobOutcome<R>;
    auto token = std::make_shared<CancelToken>();
    auto* watcher = new QFutureWatcher<Outcome>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, done = std::move(done), failed = std::move(failed)]() mutable {
                         const Outcome outcome = watcher->result();
                         watcher->deleteLater();
                         if (outcome.value) done(std::move(*outcome.value));
                         else if (!outcome.cancelled && failed) failed(outcome.error);
                     });
    watcher->setFuture(QtConcurrent::run([token, work = std::move(work)]() mutable {
        Outcome outcome;
        try {
            outcome.value = std::make_shared<R>(work(*token));
        } catch (const CancelledError&) {
            outcome.cancelled = true;
        } catch (const std::exception& e) {
            outcome.error = QString::fromUtf8(e.what());
        }
        return outcome;
    }));
    return token;
}

}  // namespace lmscope::gui::labs
