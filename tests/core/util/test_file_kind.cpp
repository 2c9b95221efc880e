// file_kind: what the first bytes of a file say it is, for errors that name the kind given
// when a loader expected another; and nothing for the kinds it does not know (a .model file
// whose first bytes read as "\n{" included).
#include "util/file_kind.h"

#include <QtTest>

#include <string>

using namespace lmscope;

class TestFileKind : public QObject {
    Q_OBJECT
private slots:
    void kinds_data() {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QString>("kind");
        QTest::newRow("GGUF") << QByteArray("GGUF\x03\0\0\0", 8) << "a GGUF model file";
        QTest::newRow("trace") << QByteArray("\x28\x01\0\0\0\0\0\0{\"__metadata__\"", 23) << "an lmscope trace";
        QTest::newRow("trace whose length reads as '{'") << QByteArray("{\x01\0\0\0\0\0\0{\"a\"", 12) << "an lmscope trace";
        QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08\0", 4) << "a gzip file";
        QTest::newRow("zip") << QByteArray("PK\x03\x04", 4) << "a zip archive";
        QTest::newRow("JSON object") << QByteArray("  {\n \"model\": 1}") << "a JSON file";
        QTest::newRow("JSON list") << QByteArray("[1, 2]") << "a JSON file";
        QTest::newRow("empty JSON object") << QByteArray("{}") << "a JSON file";
        QTest::newRow("a .model starting \\n{") << QByteArray("\n{\n\x05<unk>", 10) << "";
        QTest::newRow("a .model") << QByteArray("\n\x0b\n\x05<unk>", 10) << "";
        QTest::newRow("text") << QByteArray("hello") << "";
        QTest::newRow("empty") << QByteArray() << "";
        QTest::newRow("one brace") << QByteArray("{") << "";
    }
    void kinds() {
        QFETCH(QByteArray, head);
        QFETCH(QString, kind);
        QCOMPARE(QString::fromStdString(std::string(file_kind(std::string_view(head.constData(), size_t(head.size()))))), kind);
    }
};

QTEST_APPLESS_MAIN(TestFileKind)
#include "test_file_kind.moc"
