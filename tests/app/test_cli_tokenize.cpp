// lmscope-cli tokenize: --batch reproduces every peer suite's .out file byte for byte (and the
// tiktoken suites' ids for GPT-4's and GPT-4o's rank files); the
// default and JSON outputs; exit codes for usage errors (2) and bad files (1).
#include "common/testing.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using lmscope::testing::CliRun;
using lmscope::testing::run_cli;

using namespace lmscope;

namespace {

QByteArray read_file(const std::string& path) {
    const auto b = testing::read_bytes(path);
    return QByteArray(reinterpret_cast<const char*>(b.data()), static_cast<qsizetype>(b.size()));
}

}  // namespace

class TestCliTokenize : public QObject {
    Q_OBJECT
private slots:
    void batch_reproduces_suite_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"llama-spm", "phi-3", "gpt-2", "deepseek-coder", "falcon", "starcoder", "bert-bge"})
            QTest::newRow(n) << QString(n);
    }
    void batch_reproduces_suite() {
        QFETCH(QString, name);
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-" + name.toStdString() + ".gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const QString g = QString::fromStdString(gguf);
        const CliRun r = run_cli({"tokenize", g, "--batch", g + ".inp"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray expected = read_file(gguf + ".out");
        const QList<QByteArray> got_lines = r.out.split('\n'), want_lines = expected.split('\n');
        QCOMPARE(got_lines.size(), want_lines.size());
        for (qsizetype i = 0; i < want_lines.size(); ++i)
            QVERIFY2(got_lines[i] == want_lines[i],
                     qPrintable(QString("line %1: expected '%2', got '%3'").arg(i + 1)
                                    .arg(QString(want_lines[i]), QString(got_lines[i]))));
        QCOMPARE(r.out, expected);
    }

    // The tiktoken suites' .out lines hold the ids without the leading space of the peer suites.
    void batch_reproduces_tiktoken_suite_data() {
        QTest::addColumn<QString>("encoding");
        for (const char* n : {"cl100k_base", "o200k_base"}) QTest::newRow(n) << QString(n);
    }
    void batch_reproduces_tiktoken_suite() {
        QFETCH(QString, encoding);
        const std::string ranks = testing::sample_tokenizer(encoding.toStdString() + ".tiktoken.gz");
        const std::string inp = testing::testdata_file("vocab/tiktoken-" + encoding.toStdString() + ".inp");
        LMSCOPE_REQUIRE_FILE(ranks, "the tiktoken rank files (sample_models/fetch.sh)");
        LMSCOPE_REQUIRE_FILE(inp, "the tiktoken suites");
        const CliRun r = run_cli({"tokenize", QString::fromStdString(ranks), "--batch", QString::fromStdString(inp)});
        QVERIFY2(r.code == 0, r.err.constData());
        const QList<QByteArray> want = read_file(testing::testdata_file("vocab/tiktoken-" + encoding.toStdString() + ".out")).split('\n');
        const QList<QByteArray> got = r.out.split('\n');
        QCOMPARE(got.size(), want.size());
        for (qsizetype i = 0; i < want.size(); ++i)
            QVERIFY2(got[i].trimmed() == want[i], qPrintable(QString("line %1: expected '%2', got '%3'")
                                                                 .arg(i + 1).arg(QString(want[i]), QString(got[i]))));
        // A damaged rank file: exit 1, one line naming the file, the line and the reason.
        QTemporaryDir dir;
        const QString bad = dir.filePath(encoding + ".tiktoken");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("IQ== 0\nnot base64! 1\n");
        f.close();
        const CliRun e = run_cli({"tokenize", bad, "--text", "x"});
        QCOMPARE(e.code, 1);
        QCOMPARE(e.err, "lmscope-cli: error: " + bad.toUtf8() + ": line 2: expected 'BASE64 RANK' (one space)\n");
    }

    void text_and_json() {
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-gpt-2.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const QString g = QString::fromStdString(gguf);
        const CliRun plain = run_cli({"tokenize", g, "--text", "Hello world"});
        QCOMPARE(plain.code, 0);
        QCOMPARE(plain.out, QByteArray("15496 995\n"));
        const CliRun special = run_cli({"tokenize", g, "--text", "a<|endoftext|>", "--parse-special"});
        QCOMPARE(special.out, QByteArray("64 50256\n"));
        const CliRun js = run_cli({"tokenize", g, "--text", "Hello world", "--json"});
        QCOMPARE(js.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(js.out).object();
        QCOMPARE(o["count"].toInt(), 2);
        const QJsonObject t1 = o["tokens"].toArray()[1].toObject();
        QCOMPARE(t1["id"].toInt(), 995);
        QCOMPARE(t1["piece"].toString(), QString::fromUtf8("\xC4\xA0world"));
        QCOMPARE(t1["begin"].toInt(), 5);
        QCOMPARE(t1["end"].toInt(), 11);
        QTemporaryDir dir;
        const QString file = dir.filePath("in.txt");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Hello world");
        f.close();
        QCOMPARE(run_cli({"tokenize", g, "--file", file}).out, QByteArray("15496 995\n"));
    }

    void usage_errors_exit_2_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("no input") << QStringList{};
        QTest::newRow("text and batch") << QStringList{"--text", "a", "--batch", "x.inp"};
        QTest::newRow("text and file") << QStringList{"--text", "a", "--file", "x.txt"};
    }
    void usage_errors_exit_2() {
        QFETCH(QStringList, extra);
        const CliRun r = run_cli(QStringList{"tokenize", "whatever.gguf"} + extra);
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.startsWith("lmscope-cli: error: "));
    }

    void bad_files_exit_1() {
        QTemporaryDir dir;
        const QString junk = dir.filePath("junk.model");
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(300, '\x07'));
        f.close();
        for (const QString& path : {junk, dir.filePath("missing.gguf")}) {
            const CliRun r = run_cli({"tokenize", path, "--text", "x"});
            QCOMPARE(r.code, 1);
            QVERIFY(r.err.startsWith("lmscope-cli: error: "));
            QVERIFY(r.err.contains(path.toUtf8()));
            QCOMPARE(r.err.count('\n'), 1);
        }
    }
};

QTEST_APPLESS_MAIN(TestCliTokenize)
#include "test_cli_tokenize.moc"
