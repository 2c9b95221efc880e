// The LabHost loads the window's model off the UI thread: the newest request wins, errors are
// reported with the file.
#include "common/testing.h"
#include "gui/labs/lab_host.h"
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

QTEST_MAIN(TestLabHost)
#include "test_lab_host.moc"
