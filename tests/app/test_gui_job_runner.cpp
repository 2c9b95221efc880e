// JobRunner, the one way the app runs engine work: a result arrives on the UI thread only for
// the latest job; a new start and abandon() cancel and drop the running one (busy false at
// once); posted jobs run in order, each under a fresh token; stop() waits for the job, which may
// return a partial result or end in stopped(); errors of every kind reach failed() as one
// JobError naming the job, the file, or "out of memory"; progress arrives throttled, with the
// last report always; the token stops a session it scopes between layers.
#include "common/testing.h"
#include "engine/session.h"
#include "gui/job_runner.h"
#include "gui/engine_setup.h"
#include "tokenizer/tokenizer.h"

#include <QSignalSpy>
#include <QTest>

#include <chrono>
#include <new>
#include <stdexcept>
#include <thread>

using namespace lmscope;
using namespace lmscope::gui;

namespace {

QString fixture(const char* name) { return QString::fromStdString(testing::testdata_file(std::string("models/") + name)); }

// Work that runs until it is cancelled, then ends as `how` says.
enum class OnCancel { Throw, ReturnPartial };
auto until_cancelled(OnCancel how) {
    return [how](const JobContext& job) -> int {
        while (!job.token()->cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        if (how == OnCancel::Throw) check_cancel(job.token());
        return -1;  // a partial result
    };
}

}  // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
private slots:
    void deliversResult();
    void reportsErrors_data();
    void reportsErrors();
    void postedJobsRunInOrder();
    void progressIsThrottled();
    void newStartDropsTheRunningJob();
    void abandonDropsAtOnce();
    void stopWaitsForTheJob_data();
    void stopWaitsForTheJob();
    void destructionCancels();
    void tokenStopsScopedSession();
};

void TestJobRunner::deliversResult() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    const LabModelPtr model = load_lab_model(fixture("fx-gqa.gguf"));
    JobRunner runner;
    QSignalSpy busy(&runner, &JobRunner::busyChanged);
    std::vector<int32_t> got;
    bool done = false;
    runner.start(
        [model](const JobContext& job) {
            EngineSession lab = make_engine_session(model);
            const engine::Session::CancelScope scope(*lab.session, job.token());
            lab.session->prefill(model->tokenizer->encode_ids("Hello world", true, false));
            return lab.session->tokens();
        },
        [&](std::vector<int32_t> tokens) {
            QVERIFY(!runner.busy());  // the job has ended when its result arrives
            got = std::move(tokens), done = true;
        });
    QVERIFY(runner.busy());
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    QCOMPARE(got, model->tokenizer->encode_ids("Hello world", true, false));
    QCOMPARE(busy.size(), 2);
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
}

void TestJobRunner::reportsErrors_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QStringList>("message_has");
    QTest::newRow("format error names file and field") << 0 << QStringList{"x.gguf", "general.architecture", "missing"};
    QTest::newRow("out of memory") << 1 << QStringList{"out of memory"};
    QTest::newRow("standard exception") << 2 << QStringList{"map::at"};
}

void TestJobRunner::reportsErrors() {
    QFETCH(int, kind);
    QFETCH(QStringList, message_has);
    JobRunner runner;
    QSignalSpy failed(&runner, &JobRunner::failed);
    runner.start(
        [kind](const JobContext&) -> int {
            if (kind == 0) throw FormatError("x.gguf", "general.architecture", "missing");
            if (kind == 1) throw std::bad_alloc();
            throw std::out_of_range("map::at");
        },
        [](int) { QFAIL("no result expected"); });
    QVERIFY(failed.wait(20000));
    const JobError error = failed.at(0).at(0).value<JobError>();
    for (const QString& part : message_has) QVERIFY2(error.reason.contains(part), qPrintable(error.reason));
    QCOMPARE(error.text(), error.reason);  // an unnamed job: the reason alone
    QVERIFY(!runner.busy());
    // A named job's message says which job failed.
    runner.post(QStringLiteral("Prefill"), [](const JobContext&) { throw UsageError("the prompt is empty"); });
    QVERIFY(failed.wait(20000));
    const JobError named = failed.at(1).at(0).value<JobError>();
    QCOMPARE(named.what, QStringLiteral("Prefill"));
    QCOMPARE(named.text(), QStringLiteral("Prefill failed: the prompt is empty"));
}

void TestJobRunner::postedJobsRunInOrder() {
    JobRunner runner;
    QSignalSpy busy(&runner, &JobRunner::busyChanged);
    QSignalSpy failed(&runner, &JobRunner::failed);
    auto order = std::make_shared<std::vector<int>>();  // written on the runner's thread only
    std::vector<const CancelToken*> tokens(3);
    for (int i = 0; i < 3; ++i)
        runner.post(QStringLiteral("job %1").arg(i), [order, i, &tokens](const JobContext& job) {
            order->push_back(i);
            tokens[size_t(i)] = job.token();
            if (i == 1) throw IoError("disk gone");  // a failure does not stop the queue
        });
    QVERIFY(runner.busy());
    QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 20000);
    QCOMPARE(*order, (std::vector<int>{0, 1, 2}));
    QCOMPARE(failed.size(), 1);
    QCOMPARE(failed.at(0).at(0).value<JobError>().what, QStringLiteral("job 1"));
    QCOMPARE(busy.size(), 2);  // busy once for all three
    for (const CancelToken* t : tokens) QVERIFY(t);
}

void TestJobRunner::progressIsThrottled() {
    JobRunner runner;
    QSignalSpy progress(&runner, &JobRunner::progress);
    constexpr int kParts = 1000;
    bool done = false;
    runner.start(
        [](const JobContext& job) {
            for (int i = 1; i <= kParts; ++i) {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                job.progress(i, kParts, 7);
            }
            return 0;
        },
        [&](int) { done = true; });
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    // ~0.2 s of work: a report every 100 ms and the last one, never one per part
    QVERIFY2(progress.size() >= 2 && progress.size() < 20, qPrintable(QString::number(progress.size())));
    const JobProgress last = progress.last().at(0).value<JobProgress>();
    QCOMPARE(last.done, kParts);
    QCOMPARE(last.total, kParts);
    QCOMPARE(last.items, 7);
}

void TestJobRunner::newStartDropsTheRunningJob() {
    JobRunner runner;
    QSignalSpy busy(&runner, &JobRunner::busyChanged);
    QSignalSpy stopped(&runner, &JobRunner::stopped);
    QList<int> results;
    runner.start(until_cancelled(OnCancel::ReturnPartial), [&](int r) { results << r; });
    runner.start([](const JobContext&) { return 7; }, [&](int r) { results << r; });
    QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 20000);
    QTest::qWait(50);  // the first job's (partial) result would arrive by now: it must not
    QCOMPARE(results, QList<int>{7});
    QCOMPARE(stopped.size(), 0);
    QCOMPARE(busy.size(), 2);  // busy through both jobs, then idle
}

void TestJobRunner::abandonDropsAtOnce() {
    JobRunner runner;
    QSignalSpy stopped(&runner, &JobRunner::stopped);
    bool arrived = false;
    runner.start(until_cancelled(OnCancel::ReturnPartial), [&](int) { arrived = true; });
    QVERIFY(runner.busy());
    runner.abandon();
    QVERIFY(!runner.busy());
    QTest::qWait(100);
    QVERIFY(!arrived);
    QCOMPARE(stopped.size(), 0);
}

void TestJobRunner::stopWaitsForTheJob_data() {
    QTest::addColumn<bool>("partial");
    QTest::newRow("the job returns what it has") << true;
    QTest::newRow("the job throws CancelledError") << false;
}

void TestJobRunner::stopWaitsForTheJob() {
    QFETCH(bool, partial);
    JobRunner runner;
    QSignalSpy stopped(&runner, &JobRunner::stopped);
    QList<int> results;
    runner.start(until_cancelled(partial ? OnCancel::ReturnPartial : OnCancel::Throw), [&](int r) { results << r; });
    QTest::qWait(20);
    runner.stop();
    QVERIFY(runner.busy());  // until the job has ended
    QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 20000);
    QCOMPARE(results, partial ? QList<int>{-1} : QList<int>{});
    QCOMPARE(stopped.size(), partial ? 0 : 1);
}

void TestJobRunner::destructionCancels() {
    auto started = std::make_shared<std::atomic<bool>>(false);
    auto token_seen = std::make_shared<std::atomic<bool>>(false);
    {
        JobRunner runner;
        runner.start(
            [started, token_seen](const JobContext& job) {
                started->store(true);
                while (!job.token()->cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
                token_seen->store(true);
                return 0;
            },
            [](int) { QFAIL("the runner is gone: nothing may arrive"); });
        QTRY_VERIFY_WITH_TIMEOUT(started->load(), 20000);
    }
    QVERIFY(token_seen->load());  // the runner's end cancelled the job and waited for it
    QTest::qWait(50);
}

void TestJobRunner::tokenStopsScopedSession() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    const LabModelPtr model = load_lab_model(fixture("fx-gqa.gguf"));
    EngineSession lab = make_engine_session(model);
    CancelToken token;
    token.cancel();
    const engine::Session::CancelScope scope(*lab.session, &token);
    QVERIFY_THROWS_EXCEPTION(CancelledError, lab.session->prefill(model->tokenizer->encode_ids("Hello world", true, false)));
    QVERIFY(lab.session->tokens().empty());  // the session is as it was before the step
}

QTEST_MAIN(TestJobRunner)
#include "test_gui_job_runner.moc"
