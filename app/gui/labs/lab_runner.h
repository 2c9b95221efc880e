// The job lifecycle every lab shares. A LabRunner runs one job at a time: work(token) on Qt's
// global thread pool, its result delivered on the runner's (the UI) thread. Each job gets a
// fresh CancelToken; starting another job, abandon() or the runner's destruction cancels the
// running one and drops whatever it returns, so a result always belongs to the latest run.
//
//   start(work, done)  runs work(const CancelToken&) -> R; done(R) when it returns
//   stop()             asks the running job to stop and waits for it: a partial result it
//                      returns still arrives through done, a CancelledError emits stopped()
//   abandon()          cancels and forgets the running job at once (a new model, Reset)
//   failed(message)    the job threw: the one error boundary of lab work (message from
//                      exception_message: out of memory, the file, field and reason, sanitized)
//
// `work` runs on another thread and may outlive the lab: it must capture only what it owns
// (shared_ptr copies, values). A session the work steps is stopped by the token through an
// engine::Session::CancelScope.
#pragma once

#include "util/cancel.h"
#include "util/error.h"
#include "util/message.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <memory>
#include <type_traits>
#include <utility>

namespace lmscope::gui::labs {

class LabRunner : public QObject {
    Q_OBJECT
public:
    explicit LabRunner(QObject* parent = nullptr);
    ~LabRunner() override;  // cancels the running job; nothing of it arrives

    template <class Work, class Done>
    void start(Work work, Done done);
    void stop();
    void abandon();
    bool busy() const { return token_ != nullptr; }

signals:
    void busyChanged(bool busy);
    void failed(const QString& message);
    void stopped();

private:
    template <class R>
    struct Outcome {
        std::shared_ptr<R> value;  // null when it threw
        QString error;
        bool cancelled = false;
    };

    // Cancels the running job and makes its result stale; returns the new job's number.
    quint64 replace(CancelPtr token);
    // True when job `job` is still the current one; it then ends (busy goes false).
    bool end(quint64 job);

    CancelPtr token_;     // the running job's token; null when idle
    quint64 job_ = 0;     // the current job's number: results of older ones are dropped
};

template <class Work, class Done>
void LabRunner::start(Work work, Done done) {
    using R = std::invoke_result_t<Work&, const CancelToken&>;
    auto token = std::make_shared<CancelToken>();
    const quint64 job = replace(token);
    auto* watcher = new QFutureWatcher<Outcome<R>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, done = std::move(done)]() mutable {
        Outcome<R> outcome = watcher->result();
        watcher->deleteLater();
        if (!end(job)) return;
        if (outcome.value) done(std::move(*outcome.value));
        else if (outcome.cancelled) emit stopped();
        else emit failed(outcome.error);
    });
    watcher->setFuture(QtConcurrent::run([token, work = std::move(work)]() mutable {
        Outcome<R> outcome;
        try {
            outcome.value = std::make_shared<R>(work(std::as_const(*token)));
        } catch (const CancelledError&) {
            outcome.cancelled = true;
        } catch (...) {
            outcome.error = QString::fromStdString(exception_message(std::current_exception()));
        }
        return outcome;
    }));
}

}  // namespace lmscope::gui::labs
