// lmscope-cli info: JSON for the fixture models matches ../shared/testdata/README.md; a corrupt
// file is one error line and exit 1; bad usage exits 2.
#include "common/testing.h"

#include "gguf/gguf.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using lmscope::testing::CliRun;
using lmscope::testing::run_cli;

using namespace lmscope;

class TestCliInfo : public QObject {
    Q_OBJECT

private slots:
    void fixture_json_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("n_embd");
        QTest::addColumn<int>("n_layer");
        QTest::addColumn<int>("n_head");
        QTest::addColumn<int>("n_head_kv");
        QTest::addColumn<int>("n_ff");
        QTest::addColumn<int>("head_dim");
        QTest::addColumn<QString>("weight_type");  // type of blk.0.attn_q.weight
        QTest::addColumn<bool>("has_output");
        QTest::newRow("fx-gqa") << "fx-gqa.gguf" << 256 << 3 << 8 << 2 << 512 << 32 << "F32" << false;
        QTest::newRow("fx-mha-untied") << "fx-mha-untied.gguf" << 256 << 2 << 4 << 4 << 512 << 64 << "F16" << true;
        QTest::newRow("fx-gqa-Q8_0") << "fx-gqa-Q8_0.gguf" << 256 << 3 << 8 << 2 << 512 << 32 << "Q8_0" << false;
        QTest::newRow("fx-gqa-Q4_1") << "fx-gqa-Q4_1.gguf" << 256 << 3 << 8 << 2 << 512 << 32 << "Q4_1" << false;
        QTest::newRow("fx-gqa-Q4_K_M") << "fx-gqa-Q4_K_M.gguf" << 256 << 3 << 8 << 2 << 512 << 32 << "Q4_K"
                                       << false;
    }
    void fixture_json() {
        QFETCH(QString, file);
        QFETCH(int, n_embd);
        QFETCH(int, n_layer);
        QFETCH(int, n_head);
        QFETCH(int, n_head_kv);
        QFETCH(int, n_ff);
        QFETCH(int, head_dim);
        QFETCH(QString, weight_type);
        QFETCH(bool, has_output);
        const std::string path = testing::testdata_file("models/" + file.toStdString());
        LMSCOPE_REQUIRE_FILE(path, "the fixture models");
        const CliRun r = run_cli({"info", QString::fromStdString(path), "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonParseError perr;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &perr);
        QVERIFY2(perr.error == QJsonParseError::NoError, qPrintable(perr.errorString()));
        const QJsonObject j = doc.object();
        QCOMPARE(j["architecture"].toString(), QString("llama"));
        QCOMPARE(j["n_embd"].toInt(), n_embd);
        QCOMPARE(j["n_layer"].toInt(), n_layer);
        QCOMPARE(j["n_head"].toInt(), n_head);
        QCOMPARE(j["n_head_kv"].toInt(), n_head_kv);
        QCOMPARE(j["n_ff"].toInt(), n_ff);
        QCOMPARE(j["head_dim"].toInt(), head_dim);
        QCOMPARE(j["n_vocab"].toInt(), 1024);
        QCOMPARE(j["rope_freq_base"].toDouble(), 10000.0);
        QCOMPARE(j["rms_eps"].toDouble(), 1e-5);
        QCOMPARE(j["tokenizer_model"].toString(), QString("llama"));
        QVERIFY(j.contains("tokenizer_pre"));
        QVERIFY(j.contains("name"));
        QVERIFY(j["context_length"].toInt() > 0);
        QVERIFY(j["file_type"].toObject().contains("name"));
        QCOMPARE(j["kv_bytes_per_token_f16"].toInteger(), qint64(2) * n_layer * n_head_kv * head_dim * 2);
        QCOMPARE(j["gguf_version"].toInt(), 3);
        const QJsonArray tensors = j["tensors"].toArray();
        QCOMPARE(j["n_tensors"].toInt(), int(tensors.size()));
        QCOMPARE(int(tensors.size()), 2 + 9 * n_layer + (has_output ? 1 : 0));
        qint64 total = 0;
        bool found_q = false, found_output = false;
        for (const auto& v : tensors) {
            const QJsonObject t = v.toObject();
            total += t["bytes"].toInteger();
            if (t["name"] == "blk.0.attn_q.weight") {
                found_q = true;
                QCOMPARE(t["type"].toString(), weight_type);
                QCOMPARE(t["shape"].toArray(), (QJsonArray{n_embd, n_head * head_dim}));
            }
            if (t["name"] == "output.weight") found_output = true;
        }
        QVERIFY(found_q);
        QCOMPARE(found_output, has_output);
        QCOMPARE(j["total_bytes"].toInteger(), total);
        QVERIFY(total < QFileInfo(QString::fromStdString(path)).size());
        // info made the checks a run makes, and says which
        const QJsonObject checks = j["checks"].toObject();
        QCOMPARE(checks["passed"].toBool(), true);
        QVERIFY(checks["failure"].isNull());
        QCOMPARE(checks["ran"].toArray(),
                 (QJsonArray{"spec", "tensors", "vocabulary", "vocabulary size = output rows"}));
    }

    void readable_summary() {
        const std::string path = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(path, "models/fx-gqa.gguf");
        const CliRun r = run_cli({"info", QString::fromStdString(path)});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("layers        3\n"), qPrintable(out));
        QVERIFY2(out.contains("8 query, 2 KV (GQA, 4 query heads per KV head)"), qPrintable(out));
        QVERIFY2(out.contains("blk.2.ffn_down.weight"), qPrintable(out));
        QVERIFY2(out.contains("checks        spec, tensors, vocabulary, vocabulary size = output rows: passed, as a run "
                              "makes them\n"),
                 qPrintable(out));
        QVERIFY(r.err.isEmpty());
    }

    // Text from the file goes to a terminal escaped (found by an outside attack, round 3: a
    // general.name of OSC/ESC sequences changed the title and cleared the screen), one line
    // each and bounded (a 1 MiB name); the JSON escapes it as JSON does.
    void model_text_escaped() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("escapes.gguf");
        gguf::Writer w;
        w.set("general.architecture", gguf::Value::string("llama\x1b[2J"));
        w.set("general.name", gguf::Value::string("\x1b]0;pwned\x07\x1b[2J\r\nname" + std::string((1 << 20) - 100, 'x')));
        w.set("tokenizer.ggml.model", gguf::Value::string("gpt2\x9b" "31m"));
        const std::vector<float> x(64, 1.0f);
        w.add_tensor("x\x1b[31m", gguf::TensorType::F32, {64}, x.data(), x.size() * 4);
        const std::vector<uint8_t> bytes = w.to_bytes();
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
        f.close();
        const CliRun r = run_cli({"info", path});
        QCOMPARE(r.code, 1);  // an architecture lmscope does not run
        for (const char c : r.out) QVERIFY2(c == '\n' || (uint8_t(c) >= 0x20 && c != 0x7f), r.out.left(300).constData());
        QVERIFY2(!r.out.contains("\xc2\x9b"), "a C1 control (CSI) reached the terminal");
        QVERIFY2(r.out.contains("name          \\x1b]0;pwned\\x07\\x1b[2J\\r\\nname"), (r.out.left(600) + r.err).constData());
        QVERIFY2(r.out.contains("\\x1b[31m"), r.out.constData());
        QVERIFY(r.out.size() < 20000);  // the 1 MiB name cut to a line
        const CliRun j = run_cli({"info", path, "--json"});
        QCOMPARE(j.code, 1);
        QVERIFY(!j.out.contains('\x1b'));
        QVERIFY(QJsonDocument::fromJson(j.out).object()["name"].toString().startsWith("\x1b]0;pwned"));
    }

    void errors_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("exit_code");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad magic") << "magic" << 1 << "header.magic: not a GGUF file";
        QTest::newRow("truncated") << "truncated" << 1 << "extend past the end of the file";
        QTest::newRow("bad version") << "version" << 1 << "header.version: unsupported version 7";
        QTest::newRow("missing file") << "missing" << 1 << "cannot open";
        QTest::newRow("no model argument") << "no-arg" << 2 << "MODEL is required";
        QTest::newRow("unknown option") << "bad-option" << 2 << "--bogus";
    }
    void errors() {
        QFETCH(QString, kind);
        QFETCH(int, exit_code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("broken model.gguf");
        gguf::Writer w;
        w.set("general.architecture", gguf::Value::string("llama"));
        const std::vector<float> x(64, 1.0f);
        w.add_tensor("x", gguf::TensorType::F32, {64}, x.data(), x.size() * 4);
        std::vector<uint8_t> bytes = w.to_bytes();
        if (kind == "magic") bytes[0] = 'X';
        if (kind == "truncated") bytes.resize(bytes.size() - 10);
        if (kind == "version") bytes[4] = 7;
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
        f.close();
        QStringList args{"info", path};
        if (kind == "missing") args = {"info", dir.filePath("absent.gguf")};
        if (kind == "no-arg") args = {"info"};
        if (kind == "bad-option") args = {"info", path, "--bogus"};
        const CliRun r = run_cli(args);
        QCOMPARE(r.code, exit_code);
        QVERIFY(r.out.isEmpty());
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith("lmscope-cli: error: "), qPrintable(err));
        QVERIFY2(err.endsWith('\n') && err.count('\n') == 1, qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
        if (exit_code == 1) QVERIFY2(err.contains(kind == "missing" ? "absent.gguf" : "broken model.gguf"), qPrintable(err));
    }
};

QTEST_APPLESS_MAIN(TestCliInfo)
#include "test_cli_info.moc"
