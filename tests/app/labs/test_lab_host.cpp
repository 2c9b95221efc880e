// The labs' shared parts: the LabHost loads the window's model off the UI thread (newest
// request wins, errors reported with the file), run_job() delivers results and errors on the UI
// thread, and a CancelToken stops an attached session's step.
#include "common/testing.h"
#include "engine/session.h"
#include "gui/labs/lab_host.h"
#include "gui/labs/lab_job.h"
#include "gui/labs/lab_session.h"
#include "tokenizer/tokenizer.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lmscope;
using namespace lmscope::gui::labs;

namespace {
QString fixture(const char* name) { return QString::fromStdString(testing::testdata_file(std::string("models/") + name)); }
}  // namespace

class TestLabHost : public QObject {
    Q_OBJECT
private slots:
    void loadsOffThread();
    void newestRequestWins();
    void reportsBadFile();
    void jobDeliversResult();
    void jobReportsError();
    void cancelStopsAttachedSession();
};

void TestLabHost::loadsOffThread() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    LabHost host(nullptr);
    QSignalSpy changed(&host, &LabHost::modelChanged);
    host.open(fixture("fx-gqa.gguf"));
    QVERIFY(changed.wait(20000));
    QVERIFY(host.model());
    QCOMPARE(host.model()->name, QStringLiteral("fx-gqa"));
    QVERIFY(host.model()->tokenizer->vocab_size() > 0);
}

void TestLabHost::newestRequestWins() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-mha-untied.gguf"), "the fixture fx-mha-untied.gguf");
    LabHost host(nullptr);
    QSignalSpy changed(&host, &LabHost::modelChanged);
    host.open(fixture("fx-gqa.gguf"));
    host.open(fixture("fx-mha-untied.gguf"));
    QTRY_VERIFY_WITH_TIMEOUT(host.model() && !host.isLoading(), 20000);
    QCOMPARE(host.model()->name, QStringLiteral("fx-mha-untied"));
}

void TestLabHost::reportsBadFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.gguf"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("GGUF\x03\x00\x00\x00not a model", 19);
    f.close();
    LabHost host(nullptr);
    QSignalSpy failed(&host, &LabHost::loadFailed);
    host.open(path);
    QVERIFY(failed.wait(20000));
    QCOMPARE(failed.at(0).at(0).toString(), path);
    QVERIFY2(failed.at(0).at(1).toString().contains(QStringLiteral("broken.gguf")),
             qPrintable(failed.at(0).at(1).toString()));
    QVERIFY(!host.model());
}

void TestLabHost::jobDeliversResult() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    const LabModelPtr model = load_lab_model(fixture("fx-gqa.gguf"));
    QObject context;
    std::vector<int32_t> got;
    bool done = false;
    run_job(
        &context,
        [model](CancelToken& token) {
            LabSession lab = make_lab_session(model);
            CancelToken::Attach attach(token, *lab.session);
            const std::vector<int32_t> ids = model->tokenizer->encode_ids("Hello world", true, false);
            lab.session->prefill(ids);
            return lab.session->tokens();
        },
        [&](std::vector<int32_t> tokens) { got = std::move(tokens), done = true; },
        [](const QString& message) { QFAIL(qPrintable(message)); });
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    QCOMPARE(got, model->tokenizer->encode_ids("Hello world", true, false));
}

void TestLabHost::jobReportsError() {
    QObject context;
    QString error;
    run_job(
        &context, [](CancelToken&) -> int { throw FormatError("x.gguf", "general.architecture", "missing"); },
        [](int) { QFAIL("no result expected"); }, [&](const QString& message) { error = message; });
    QTRY_VERIFY_WITH_TIMEOUT(!error.isEmpty(), 20000);
    QVERIFY2(error.contains(QStringLiteral("x.gguf")) && error.contains(QStringLiteral("general.architecture")),
             qPrintable(error));
}

void TestLabHost::cancelStopsAttachedSession() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    const LabModelPtr model = load_lab_model(fixture("fx-gqa.gguf"));
    LabSession lab = make_lab_session(model);
    CancelToken token;
    token.cancel();  // before the attach: passed on when the session is attached
    CancelToken::Attach attach(token, *lab.session);
    const std::vector<int32_t> ids = model->tokenizer->encode_ids("Hello world", true, false);
    QVERIFY_THROWS_EXCEPTION(CancelledError, lab.session->prefill(ids));
    QVERIFY(lab.session->tokens().empty());  // the session is as it was before the step
    QVERIFY_THROWS_EXCEPTION(CancelledError, token.check());
}

QTEST_MAIN(TestLabHost)
#include "test_lab_host.moc"
