// LabRunner, the job lifecycle of every lab: a result arrives on the UI thread only for the
// latest job; a new start and abandon() cancel and drop the running one (busy false at once);
// stop() waits for the job, which may return a partial result or end in stopped(); errors of
// every kind reach failed() with the file, or "out of memory"; the token stops a session it
// scopes between layers.
#include "common/testing.h"
#include "engine/session.h"
#include "gui/labs/lab_runner.h"
#include "gui/labs/lab_session.h"
#include "tokenizer/tokenizer.h"

#include <QSignalSpy>
#include <QTest>

#include <chrono>
#include <new>
#include <stdexcept>
#include <thread>

using namespace lmscope;
using namespace lmscope::gui::labs;

namespace {

QString fixture(const char* name) { return QString::fromStdString(testing::testdata_file(std::string("models/") + name)); }

// Work that runs until it is cancelled, then ends as `how` says.
enum class OnCancel { Throw, ReturnPartial };
auto until_cancelled(OnCancel how) {
    return [how](const CancelToken& token) -> int {
        while (!token.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        if (how == OnCancel::Throw) token.check();
        return -1;  // a partial result
    };
}

}  // namespace

class TestLabRunner : public QObject {
    Q_OBJECT
private slots:
    void deliversResult();
    void reportsErrors_data();
    void reportsErrors();
    void newStartDropsTheRunningJob();
    void abandonDropsAtOnce();
    void stopWaitsForTheJob_data();
    void stopWaitsForTheJob();
    void destructionCancels();
    void tokenStopsScopedSession();
};

void TestLabRunner::deliversResult() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    const LabModelPtr model = load_lab_model(fixture("fx-gqa.gguf"));
    LabRunner runner;
    QSignalSpy busy(&runner, &LabRunner::busyChanged);
    std::vector<int32_t> got;
    bool done = false;
    runner.start(
        [model](const CancelToken& token) {
            LabSession lab = make_lab_session(model);
            const engine::Session::CancelScope scope(*lab.session, token);
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

void TestLabRunner::reportsErrors_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QStringList>("message_has");
    QTest::newRow("format error names file and field") << 0 << QStringList{"x.gguf", "general.architecture", "missing"};
    QTest::newRow("out of memory") << 1 << QStringList{"out of memory"};
    QTest::newRow("standard exception") << 2 << QStringList{"map::at"};
}

void TestLabRunner::reportsErrors() {
    QFETCH(int, kind);
    QFETCH(QStringList, message_has);
    LabRunner runner;
    QSignalSpy failed(&runner, &LabRunner::failed);
    runner.start(
        [kind](const CancelToken&) -> int {
            if (kind == 0) throw FormatError("x.gguf", "general.architecture", "missing");
            if (kind == 1) throw std::bad_alloc();
            throw std::out_of_range("map::at");
        },
        [](int) { QFAIL("no result expected"); });
    QVERIFY(failed.wait(20000));
    const QString message = failed.at(0).at(0).toString();
    for (const QString& part : message_has) QVERIFY2(message.contains(part), qPrintable(message));
    QVERIFY(!runner.busy());
}

void TestLabRunner::newStartDropsTheRunningJob() {
    LabRunner runner;
    QSignalSpy busy(&runner, &LabRunner::busyChanged);
    QSignalSpy stopped(&runner, &LabRunner::stopped);
    QList<int> results;
    runner.start(until_cancelled(OnCancel::ReturnPartial), [&](int r) { results << r; });
    runner.start([](const CancelToken&) { return 7; }, [&](int r) { results << r; });
    QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 20000);
    QTest::qWait(50);  // the first job's (partial) result would arrive by now: it must not
    QCOMPARE(results, QList<int>{7});
    QCOMPARE(stopped.size(), 0);
    QCOMPARE(busy.size(), 2);  // busy through both jobs, then idle
}

void TestLabRunner::abandonDropsAtOnce() {
    LabRunner runner;
    QSignalSpy stopped(&runner, &LabRunner::stopped);
    bool arrived = false;
    runner.start(until_cancelled(OnCancel::ReturnPartial), [&](int) { arrived = true; });
    QVERIFY(runner.busy());
    runner.abandon();
    QVERIFY(!runner.busy());
    QTest::qWait(100);
    QVERIFY(!arrived);
    QCOMPARE(stopped.size(), 0);
}

void TestLabRunner::stopWaitsForTheJob_data() {
    QTest::addColumn<bool>("partial");
    QTest::newRow("the job returns what it has") << true;
    QTest::newRow("the job throws CancelledError") << false;
}

void TestLabRunner::stopWaitsForTheJob() {
    QFETCH(bool, partial);
    LabRunner runner;
    QSignalSpy stopped(&runner, &LabRunner::stopped);
    QList<int> results;
    runner.start(until_cancelled(partial ? OnCancel::ReturnPartial : OnCancel::Throw), [&](int r) { results << r; });
    QTest::qWait(20);
    runner.stop();
    QVERIFY(runner.busy());  // until the job has ended
    QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 20000);
    QCOMPARE(results, partial ? QList<int>{-1} : QList<int>{});
    QCOMPARE(stopped.size(), partial ? 0 : 1);
}

void TestLabRunner::destructionCancels() {
    auto token_seen = std::make_shared<std::atomic<bool>>(false);
    {
        LabRunner runner;
        runner.start(
            [token_seen](const CancelToken& token) {
                while (!token.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
                token_seen->store(true);
                return 0;
            },
            [](int) { QFAIL("the runner is gone: nothing may arrive"); });
    }
    QTRY_VERIFY_WITH_TIMEOUT(token_seen->load(), 20000);
    QTest::qWait(50);
}

void TestLabRunner::tokenStopsScopedSession() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    const LabModelPtr model = load_lab_model(fixture("fx-gqa.gguf"));
    LabSession lab = make_lab_session(model);
    CancelToken token;
    token.cancel();
    const engine::Session::CancelScope scope(*lab.session, token);
    QVERIFY_THROWS_EXCEPTION(CancelledError, lab.session->prefill(model->tokenizer->encode_ids("Hello world", true, false)));
    QVERIFY(lab.session->tokens().empty());  // the session is as it was before the step
}

QTEST_MAIN(TestLabRunner)
#include "test_lab_runner.moc"
