// lmscope-cli quantize: the fixture model quantized to every type reads back with the type's
// file type and weights, and `run` (greedy) and `dump` work on the result; the mixes report
// their fallbacks; bad arguments give the documented exit codes and leave files alone.
#include "common/testing.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using lmscope::testing::CliRun;
using lmscope::testing::run_cli;

using namespace lmscope;

class TestCliQuantize : public QObject {
    Q_OBJECT

private slots:
    void init() {
        const std::string fx = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(fx, "../shared/testdata/models/fx-gqa.gguf");
        fx_ = QString::fromStdString(fx);
    }

    void every_type_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("file_type");   // info's name of general.file_type
        QTest::addColumn<QString>("weight_type");  // blk.0.attn_q.weight's type
        auto row = [](const char* t, const char* ft, const char* w) { QTest::newRow(t) << QString(t) << QString(ft) << QString(w); };
        row("F32", "F32", "F32");
        row("F16", "F16", "F16");
        row("BF16", "BF16", "BF16");
        row("Q8_0", "Q8_0", "Q8_0");
        row("Q6_K", "Q6_K", "Q6_K");
        row("Q5_K_M", "Q5_K_M", "Q5_K");
        row("Q5_K", "Q5_K_S", "Q5_K");
        row("Q5_1", "Q5_1", "Q5_1");
        row("Q5_0", "Q5_0", "Q5_0");
        row("Q4_K_M", "Q4_K_M", "Q4_K");
        row("q4_k", "Q4_K_S", "Q4_K");  // type names are case-insensitive
        row("Q4_1", "Q4_1", "Q4_1");
        row("Q4_0", "Q4_0", "Q4_0");
        row("IQ4_XS", "IQ4_XS", "IQ4_XS");
        row("IQ4_NL", "IQ4_NL", "IQ4_NL");
        row("Q3_K", "Q3_K_S", "Q3_K");
        row("Q2_K", "Q2_K", "Q2_K");
    }
    void every_type() {
        QFETCH(QString, type);
        QFETCH(QString, file_type);
        QFETCH(QString, weight_type);
        QTemporaryDir dir;
        const QString out = dir.filePath("out.gguf");
        const CliRun q = run_cli({"quantize", fx_, out, type, "--threads", "2"});
        QVERIFY2(q.code == 0, q.err.constData());
        QVERIFY2(q.out.contains("read back and checked"), q.out.constData());

        const CliRun info = run_cli({"info", out, "--json"});
        QVERIFY2(info.code == 0, info.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(j["file_type"].toObject()["name"].toString(), file_type);
        bool found = false;
        for (const QJsonValue& t : j["tensors"].toArray()) {
            if (t.toObject()["name"].toString() != "blk.0.attn_q.weight") continue;
            QCOMPARE(t.toObject()["type"].toString(), weight_type);
            found = true;
        }
        QVERIFY(found);

        const CliRun run = run_cli({"run", out, "--prompt", "The quick brown fox", "-n", "6", "--temp", "0",
                                    "--jsonl", "--threads", "2"});
        QVERIFY2(run.code == 0, run.err.constData());
        QCOMPARE(run.out.count('\n'), 6);  // one step a line

        const QString logits = dir.filePath("logits.f32");
        const CliRun dump = run_cli({"dump", out, "--ids", "1,2,3", "--logits", logits, "--threads", "2"});
        QVERIFY2(dump.code == 0, dump.err.constData());
        const std::vector<float> l = testing::read_f32_file(logits.toStdString());
        QCOMPARE(l.size(), size_t(3 * 1024));
        for (float v : l) QVERIFY(std::isfinite(v));
    }

    // A mix on a model whose rows of 640 and 384 do not fit 256: the fallbacks are reported.
    void fallbacks_reported() {
        const std::string qwen = testing::testdata_file("models/fx-qwen2.gguf");
        LMSCOPE_REQUIRE_FILE(qwen, "fx-qwen2.gguf");
        QTemporaryDir dir;
        const CliRun q = run_cli({"quantize", QString::fromStdString(qwen), dir.filePath("o.gguf"), "Q4_K_M"});
        QVERIFY2(q.code == 0, q.err.constData());
        QVERIFY2(q.out.contains("fallback: 2 matrices with rows of 640 (blk.0.ffn_down.weight, ...) do not fit Q4_K "
                                "blocks of 256: Q5_0"),
                 q.out.constData());
        QVERIFY2(q.out.contains("weight matrices: 17 Q4_K 2 Q5_0 2 Q6_K 1 Q8_0; other tensors copied: 16"), q.out.constData());
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");  // @FX@: the fixture, @IN@: a copy of it, @DIR@: a folder
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown type") << QStringList{"quantize", "@IN@", "@DIR@/o.gguf", "Q4_K_X"} << 2
                                      << "TYPE: 'Q4_K_X' is not a quantize type (expected one of F32, F16, BF16, Q8_0";
        QTest::newRow("type not written") << QStringList{"quantize", "@IN@", "@DIR@/o.gguf", "IQ2_XXS"} << 2 << "IQ2_XXS";
        QTest::newRow("in is out") << QStringList{"quantize", "@IN@", "@IN@", "Q4_0"} << 2 << "is the same file as the input";
        QTest::newRow("out a folder") << QStringList{"quantize", "@IN@", "@DIR@", "Q4_0"} << 1 << "is a directory";
        QTest::newRow("no input") << QStringList{"quantize", "@DIR@/missing.gguf", "@DIR@/o.gguf", "Q4_0"} << 1
                                  << "missing.gguf: cannot open";
        QTest::newRow("not a model") << QStringList{"quantize", "@DIR@/junk.gguf", "@DIR@/o.gguf", "Q4_0"} << 1 << "junk.gguf";
        QTest::newRow("no type") << QStringList{"quantize", "@IN@", "@DIR@/o.gguf"} << 2 << "TYPE";
        QTest::newRow("bad threads") << QStringList{"quantize", "@IN@", "@DIR@/o.gguf", "Q4_0", "--threads", "-1"} << 2
                                     << "--threads";
    }
    void errors() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString in = dir.filePath("in.gguf");
        QVERIFY(QFile::copy(fx_, in));
        QFile junk(dir.filePath("junk.gguf"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("not a gguf file");
        junk.close();
        QFile original(in);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray before = original.readAll();
        original.close();
        for (QString& a : args) a.replace("@IN@", in).replace("@DIR@", dir.path());
        const CliRun r = run_cli(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(original.open(QIODevice::ReadOnly));
        QCOMPARE(original.readAll(), before);  // the input is never touched
        QVERIFY(!QFile::exists(dir.filePath("o.gguf")));
    }

private:
    QString fx_;
};

QTEST_APPLESS_MAIN(TestCliQuantize)
#include "test_cli_quantize.moc"
