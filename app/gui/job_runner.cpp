#include "gui/job_runner.h"

namespace lmscope::gui {

namespace {

constexpr qint64 kProgressEveryMs = 100;

void register_types() {
    static const bool once = [] {
        qRegisterMetaType<JobError>();
        qRegisterMetaType<JobProgress>();
        return true;
    }();
    (void)once;
}

}  // namespace

QString JobError::text() const {
    return what.isEmpty() ? reason : JobRunner::tr("%1 failed: %2").arg(what, reason);
}

JobContext::JobContext(JobRunner* runner, quint64 generation, CancelPtr token)
    : runner_(runner), generation_(generation), token_(std::move(token)) {
    clock_.start();
}

void JobContext::progress(qint64 done, qint64 total, qint64 items) const {
    const qint64 now = clock_.elapsed();
    if (done < total && sent_ms_ >= 0 && now - sent_ms_ < kProgressEveryMs) return;
    sent_ms_ = now;
    JobRunner* runner = runner_;
    const quint64 generation = generation_;
    const JobProgress p{done, total, items, now};
    QMetaObject::invokeMethod(
        runner,
        [runner, generation, p] {
            if (generation == runner->generation_.load() && runner->pending_ > 0) emit runner->progress(p);
        },
        Qt::QueuedConnection);
}

JobRunner::JobRunner(QObject* parent, const QString& thread_name) : QObject(parent), worker_(new QObject) {
    register_types();
    thread_.setObjectName(thread_name);
    worker_->moveToThread(&thread_);
}

JobRunner::~JobRunner() {
    shutdown();
    delete worker_;  // its thread has ended (or never started): deleting it here is safe
}

void JobRunner::enqueue(const QString& what, bool replace, std::function<void(const JobContext&)> body,
                        std::function<void(End, const JobError&)> deliver) {
    if (shut_down_) return;
    const bool was_busy = busy();
    if (replace) {
        std::lock_guard lock(mutex_);
        ++generation_;
        if (running_) running_->cancel();
        pending_ = 0;
    }
    ++pending_;
    const quint64 generation = generation_.load();
    if (!thread_.isRunning()) thread_.start();
    QMetaObject::invokeMethod(
        worker_,
        [this, generation, what, body = std::move(body), deliver = std::move(deliver)] {
            auto token = std::make_shared<CancelToken>();
            {
                std::lock_guard lock(mutex_);
                if (generation != generation_.load()) return;  // abandoned before it started
                running_ = token;
            }
            const JobContext job(this, generation, token);
            End end = End::Done;
            JobError error;
            try {  // the one error boundary of app work
                body(job);
            } catch (const CancelledError&) {
                end = End::Stopped;
            } catch (...) {  // lmscope::Error, the standard library's errors, out of memory
                end = End::Failed;
                error = {what, QString::fromStdString(exception_message(std::current_exception()))};
            }
            {
                std::lock_guard lock(mutex_);
                running_.reset();
            }
            QMetaObject::invokeMethod(
                this, [this, generation, end, error, deliver] { finish(generation, end, error, deliver); },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    if (busy() != was_busy) emit busyChanged(busy());
}

void JobRunner::finish(quint64 generation, End end, const JobError& error,
                       const std::function<void(End, const JobError&)>& deliver) {
    if (generation != generation_.load() || pending_ == 0) return;  // abandoned meanwhile
    if (--pending_ == 0) emit busyChanged(false);
    switch (end) {
    case End::Done: deliver(end, error); break;
    case End::Stopped: emit stopped(); break;
    case End::Failed: emit failed(error); break;
    }
}

void JobRunner::stop() {
    std::lock_guard lock(mutex_);
    if (running_) running_->cancel();
}

void JobRunner::abandon() {
    {
        std::lock_guard lock(mutex_);
        ++generation_;
        if (running_) running_->cancel();
    }
    if (pending_ > 0) {
        pending_ = 0;
        emit busyChanged(false);
    }
}

void JobRunner::shutdown() {
    if (shut_down_) return;
    abandon();
    shut_down_ = true;
    thread_.quit();  // the jobs still queued are dropped with the worker
    thread_.wait();
}

}  // namespace lmscope::gui
