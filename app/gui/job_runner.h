// The one way the app runs engine work (the step-through session, every lab, the model's load,
// the Layer view's probe, the with-and-without comparison): a JobRunner owns a worker object on
// a QThread of its own. Requests go in as queued calls to that object (slots in); what comes
// back comes as this runner's signals, on the thread that made it (signals out).
//
//   UI thread                     the runner's thread
//   ---------                     -------------------
//   post(what, work)   ───────▶   a fresh CancelToken; work(job) inside the one error boundary
//   start(work, done)  ───────▶   (abandon() first: the latest job is the only one that answers)
//                                   job.token()       checked between parts (check_cancel)
//   progress(p)        ◀───────     job.progress(...) throttled: ~10 a second and the last
//   done(result)       ◀───────   returned
//   stopped()          ◀───────   threw CancelledError
//   failed(JobError)   ◀───────   threw anything else: what the job was, and exception_message
//   busyChanged(bool)  ◀───────   queued or running jobs went from none to some, or back
//
// Jobs run one at a time, in the order posted. stop() cancels the running job's token (a
// queued job gets a fresh token when it starts, so a late Stop never stops the next one);
// abandon() cancels it too and drops it and every queued job: nothing of them arrives. The
// destructor abandons and joins the thread, so a job never outlives its runner and may use
// what the runner's owner keeps alive for as long as the runner.
#pragma once

#include "util/cancel.h"
#include "util/message.h"

#include <QElapsedTimer>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

namespace lmscope::gui {

// What a job that threw reports: the one message type of app work's errors.
struct JobError {
    QString what;    // the job ("Prefill", "Loading the model"); empty when it was not named
    QString reason;  // exception_message(): the file, the field and the reason, or "out of memory"
    QString text() const;  // "WHAT failed: REASON", or REASON alone
};

// A job's progress: `done` parts of `total`, `items` it works through (a prefill's tokens; 0
// when it does not say) and the milliseconds since it started.
struct JobProgress {
    qint64 done = 0;
    qint64 total = 0;
    qint64 items = 0;
    qint64 elapsed_ms = 0;
};

class JobRunner;

// What a running job sees of its runner (on the runner's thread).
class JobContext {
public:
    // The job's token: never null inside a job. Pass it on as is; check it with check_cancel().
    const CancelToken* token() const { return token_.get(); }
    // Reports progress; sent at most every 100 ms, and always when done reaches total.
    void progress(qint64 done, qint64 total, qint64 items = 0) const;

private:
    friend class JobRunner;
    JobContext(JobRunner* runner, quint64 generation, CancelPtr token);

    JobRunner* runner_;
    quint64 generation_;
    CancelPtr token_;
    QElapsedTimer clock_;
    mutable qint64 sent_ms_ = -1;
};

class JobRunner : public QObject {
    Q_OBJECT
public:
    // `thread_name` names the thread (debuggers, profilers).
    explicit JobRunner(QObject* parent = nullptr, const QString& thread_name = QStringLiteral("lmscope job"));
    ~JobRunner() override;  // shutdown()

    // Queues work(const JobContext&) after the jobs queued before it; its result is not wanted.
    template <class Work>
    void post(const QString& what, Work work);
    // Abandons the running and queued jobs, then queues work(const JobContext&) -> R; done(R)
    // runs on this object's thread when it returns (busy() is false by then).
    template <class Work, class Done>
    void start(Work work, Done done);
    // Asks the running job to stop; its end (a partial result, stopped()) still arrives.
    void stop();
    // Cancels the running job and drops it and the queued ones: nothing of them arrives.
    void abandon();
    // abandon(), and ends the thread (waiting for the running job): nothing runs after it.
    void shutdown();
    bool busy() const { return pending_ > 0; }
    bool isShutDown() const { return shut_down_; }

signals:
    void busyChanged(bool busy);
    void failed(const lmscope::gui::JobError& error);
    void stopped();
    void progress(const lmscope::gui::JobProgress& progress);

private:
    friend class JobContext;
    enum class End { Done, Stopped, Failed };
    // Runs `body(job)` on the runner's thread inside the one error boundary, then
    // `deliver(end, error)` on this object's thread when the job is still current.
    void enqueue(const QString& what, bool replace, std::function<void(const JobContext&)> body,
                 std::function<void(End, const JobError&)> deliver);
    void finish(quint64 generation, End end, const JobError& error, const std::function<void(End, const JobError&)>& deliver);

    QThread thread_;
    QObject* worker_;                       // lives on thread_: the jobs are its queued calls
    std::atomic<quint64> generation_{0};    // abandon() moves on: older jobs are dropped
    int pending_ = 0;                       // jobs of this generation whose end has not arrived
    bool shut_down_ = false;
    std::mutex mutex_;                      // guards running_ against stop() from this thread
    CancelPtr running_;                     // the running job's token, or null
};

template <class Work>
void JobRunner::post(const QString& what, Work work) {
    enqueue(what, false, [work = std::move(work)](const JobContext& job) mutable { work(job); },
            [](End, const JobError&) {});
}

template <class Work, class Done>
void JobRunner::start(Work work, Done done) {
    using R = std::invoke_result_t<Work&, const JobContext&>;
    auto result = std::make_shared<std::shared_ptr<R>>();  // written by the job, read after it ended
    enqueue(
        QString(), true,
        [result, work = std::move(work)](const JobContext& job) mutable { *result = std::make_shared<R>(work(job)); },
        [result, done = std::move(done)](End end, const JobError&) mutable {
            if (end == End::Done && *result) done(std::move(**result));
        });
}

}  // namespace lmscope::gui

Q_DECLARE_METATYPE(lmscope::gui::JobError)
Q_DECLARE_METATYPE(lmscope::gui::JobProgress)
