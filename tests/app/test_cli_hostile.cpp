// Every inconsistent or corrupted file of tests/common/hostile_files through every CLI entry
// point that reads it: info, tokenize, dump and run for GGUF models, tokenize for BPE
// vocabularies and SentencePiece .model files, replay (text and --json) for trace files.
// An entry point that reads the broken part exits 1 (no signal, no hang) with exactly one
// line on stderr, "lmscope-cli: error: FILE: FIELD: REASON"; one that does not read it
// (tokenize on a model whose weights are wrong) still works.
#include "common/hostile_files.h"
#include "common/testing.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using namespace lmscope::testing::hostile;
using lmscope::testing::CliRun;
using lmscope::testing::run_cli;

namespace {

constexpr int kTimeoutMs = 120000;  // a hang fails the row instead of the whole suite

// The arguments of `command` on `path`.
QStringList args_for(const QString& command, const QString& path) {
    if (command == "info") return {"info", path};
    if (command == "tokenize") return {"tokenize", path, "--text", "Hello world, 42 times!"};
    if (command == "dump") return {"dump", path, "--ids", "1,5,9", "--logits", path + ".logits.f32"};
    if (command == "run") return {"run", path, "--prompt", "Hello", "-n", "2", "--temp", "0", "--threads", "2"};
    if (command == "replay") return {"replay", path};
    return {"replay", path, "--json"};
}

// Whether `command` reads the part of a model file that `part` breaks.
bool reads(const QString& command, Part part) {
    if (command == "tokenize") return part == Part::Vocab;
    return true;  // info, dump and run check the spec, every tensor and the vocabulary
}

void verify_error(const CliRun& r, const QString& path, const std::string& field, const std::string& reason) {
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(r.code != -1, "crashed, was killed by a signal or hung");
    QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(err)));
    QVERIFY2(err.startsWith("lmscope-cli: error: "), qPrintable(err));
    QVERIFY2(err.endsWith('\n') && err.count('\n') == 1, qPrintable("not one line: " + err));
    QVERIFY2(err.contains(path), qPrintable("no file name: " + err));
    QVERIFY2(err.contains(QString::fromStdString(field)), qPrintable("no field: " + err));
    QVERIFY2(err.contains(QString::fromStdString(reason)), qPrintable("no reason: " + err));
}

}  // namespace

class TestCliHostile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        if (testing::testdata_file(kModelBase).empty()) return;
        // A real saved trace: a prefill of the prompt, then decode steps, full capture.
        trace_ = dir_.filePath("real.lmtrace");
        const CliRun r = run_cli({"run", QString::fromStdString(testing::testdata_file(kModelBase)), "--prompt",
                                  "The quick brown fox jumps", "-n", "4", "--temp", "0", "--capture", "full",
                                  "--threads", "2", "--trace", trace_},
                                 {}, kTimeoutMs);
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void models_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("command");
        for (size_t i = 0; i < model_cases().size(); ++i)
            for (const char* command : {"info", "tokenize", "dump", "run"})
                QTest::addRow("%s / %s", model_cases()[i].name.c_str(), command) << int(i) << QString(command);
    }
    void models() {
        QFETCH(int, index);
        QFETCH(QString, command);
        const std::string base = testing::testdata_file(kModelBase);
        LMSCOPE_REQUIRE_FILE(base, "the shared test data");
        const GgufCase& c = model_cases()[size_t(index)];
        const QString path = dir_.filePath(QStringLiteral("model %1.gguf").arg(index));
        if (!QFile::exists(path)) {
            GgufEdit edit(gguf::File::open(base));
            c.edit(edit);
            write_file(path.toStdString(), edit.bytes());
        }
        const CliRun r = run_cli(args_for(command, path), {}, kTimeoutMs);
        if (reads(command, c.part)) {
            verify_error(r, path, c.field, c.reason);
            // info describes the file, then says that the checks a run makes failed
            if (command == "info")
                QVERIFY2(r.out.contains("\nchecks        spec, tensors, vocabulary, vocabulary size = output rows: failed"),
                         r.out.constData());
        } else {
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY2(r.err.isEmpty(), r.err.constData());
        }
    }

    // Weights whose values are not finite load (the file is well formed) but give NaN logits:
    // run stops at the first step with one line naming the model, not the sampler's words.
    // Asking for more memory than any machine has is refused before any work, naming what
    // would need it (a copy of the model whose context_length is 2^21 positions).
    void memory_refused_up_front_data() {
        QTest::addColumn<QStringList>("args");  // @M: the model
        QTest::addColumn<QString>("reason");
        // (the planes are what the trace budget holds: a PiB budget lets them grow past memory)
        QTest::newRow("bench, full capture of a long prefill")
            << QStringList{"bench", "@M", "-p", "1048576", "-n", "0", "--capture", "full", "--trace-budget", "1073741824"}
            << "bench: -p 1048576 -n 0: needs ";
        QTest::newRow("run, a trace budget of a PiB")
            << QStringList{"run", "@M", "--prompt", "hi", "--trace-budget", "1073741824"}
            << "GiB for the trace's attention planes (--trace-budget)";
        QTest::newRow("dump, attention of 60000 ids")
            << QStringList{"dump", "@M", "--ids", QStringList(60000, "7").join(','), "--attention", "@M.attn"}
            << "dump: 60000 ids: needs ";
    }
    void memory_refused_up_front() {
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        const std::string base = testing::testdata_file(kModelBase);
        LMSCOPE_REQUIRE_FILE(base, "the shared test data");
        GgufEdit edit(gguf::File::open(base));
        edit.set("llama.context_length", gguf::Value(gguf::Value::Scalar(uint32_t(1) << 21)));
        const QString path = dir_.filePath(QStringLiteral("long context.gguf"));
        write_file(path.toStdString(), edit.bytes());
        const CliRun r = run_cli(args.replaceInStrings("@M", path), {}, kTimeoutMs);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(err)));
        QVERIFY2(err.startsWith("lmscope-cli: error: ") && err.count('\n') == 1, qPrintable(err));
        QVERIFY2(err.contains(reason) && err.contains("more than this machine's"), qPrintable(err));
        QVERIFY(!QFile::exists(path + ".attn"));
    }

    void nonfinite_weights_named_by_run_data() {
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QByteArray>("pattern");  // Q8_0 blocks: f16 scale, then 32 int8
        QTest::newRow("NaN embedding scales") << QString("token_embd.weight") << QByteArray("\x7e", 1);
        QTest::newRow("infinite feed-forward scales") << QString("blk.2.ffn_down.weight") << QByteArray("\x00\x7c", 2);
    }
    void nonfinite_weights_named_by_run() {
        QFETCH(QString, tensor);
        QFETCH(QByteArray, pattern);
        const std::string base = testing::testdata_file(kModelBase);
        LMSCOPE_REQUIRE_FILE(base, "the shared test data");
        GgufEdit edit(gguf::File::open(base));
        edit.fill_tensor(tensor.toStdString(), Bytes(pattern.begin(), pattern.end()));
        const QString path = dir_.filePath(QStringLiteral("nonfinite %1.gguf").arg(QTest::currentDataTag()));
        write_file(path.toStdString(), edit.bytes());
        const CliRun r = run_cli(args_for("run", path), {}, kTimeoutMs);
        QCOMPARE(r.code, 1);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith("lmscope-cli: error: " + path + ": the model computed a "), qPrintable(err));
        QVERIFY2(err.contains("its weights hold non-finite values") && err.count('\n') == 1, qPrintable(err));
        QVERIFY2(!err.contains("sampler"), qPrintable(err));
    }

    void bpe_vocabularies_data() {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < bpe_vocab_cases().size(); ++i) QTest::newRow(bpe_vocab_cases()[i].name.c_str()) << int(i);
    }
    void bpe_vocabularies() {
        QFETCH(int, index);
        const std::string base = testing::testdata_file(kBpeBase);
        LMSCOPE_REQUIRE_FILE(base, "the shared test data");
        const GgufCase& c = bpe_vocab_cases()[size_t(index)];
        const QString path = dir_.filePath(QStringLiteral("vocab %1.gguf").arg(index));
        GgufEdit edit(gguf::File::open(base));
        c.edit(edit);
        write_file(path.toStdString(), edit.bytes());
        verify_error(run_cli(args_for("tokenize", path), {}, kTimeoutMs), path, c.field, c.reason);
    }

    void spm_model_files_data() {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < spm_model_cases().size(); ++i) QTest::newRow(spm_model_cases()[i].name.c_str()) << int(i);
    }
    void spm_model_files() {
        QFETCH(int, index);
        const std::string base = testing::testdata_file(kSpmBase);
        LMSCOPE_REQUIRE_FILE(base, "the shared test data");
        const BytesCase& c = spm_model_cases()[size_t(index)];
        const QString path = dir_.filePath(QStringLiteral("tokenizer %1.model").arg(index));
        write_file(path.toStdString(), c.make(testing::read_bytes(base)));
        verify_error(run_cli(args_for("tokenize", path), {}, kTimeoutMs), path, c.field, c.reason);
    }

    void traces_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("command");
        for (size_t i = 0; i < trace_cases().size(); ++i)
            for (const char* command : {"replay", "replay --json"})
                QTest::addRow("%s / %s", trace_cases()[i].name.c_str(), command) << int(i) << QString(command);
    }
    void traces() {
        QFETCH(int, index);
        QFETCH(QString, command);
        LMSCOPE_REQUIRE_FILE(std::string(trace_.isEmpty() ? "" : "x"), "the shared test data");
        const BytesCase& c = trace_cases()[size_t(index)];
        const QString path = dir_.filePath(QStringLiteral("trace %1.lmtrace").arg(index));
        write_file(path.toStdString(), c.make(testing::read_bytes(trace_.toStdString())));
        const CliRun r = run_cli(args_for(command, path), {}, kTimeoutMs);
        verify_error(r, path, c.field, c.reason);
        QVERIFY2(r.out.isEmpty(), r.out.constData());  // nothing printed from a file that fails
    }

    // A file of another kind says what it is and what was expected (an outside attack, round
    // 3: `tokenize trace` said "ModelProto: invalid field number", `replay model.gguf` "header
    // length ... exceeds the limit").
    void wrong_kinds_data() {
        QTest::addColumn<QStringList>("args");  // @T: the real trace, @J: a JSON file, @M: the model
        QTest::addColumn<QString>("reason");
        const QString expected = "expected a GGUF model or vocabulary, a SentencePiece .model";
        QTest::newRow("tokenize a trace") << QStringList{"tokenize", "@T", "--text", "hi"} << "the file is an lmscope trace: " + expected;
        QTest::newRow("tokenize a JSON file") << QStringList{"tokenize", "@J", "--text", "hi"} << "the file is a JSON file: " + expected;
        QTest::newRow("replay a model") << QStringList{"replay", "@M"} << "header: the file is a GGUF model file, not an lmscope trace";
        QTest::newRow("replay a JSON file") << QStringList{"replay", "@J", "--json"} << "header: the file is a JSON file, not an lmscope trace";
    }
    void wrong_kinds() {
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        LMSCOPE_REQUIRE_FILE(std::string(trace_.isEmpty() ? "" : "x"), "the shared test data");
        const QString json = dir_.filePath("tokenizer.json");
        write_file(json.toStdString(), Bytes{'{', '"', 'a', '"', ':', '1', '}'});
        args.replaceInStrings("@T", trace_).replaceInStrings("@J", json)
            .replaceInStrings("@M", QString::fromStdString(testing::testdata_file(kModelBase)));
        const CliRun r = run_cli(args, {}, kTimeoutMs);
        QVERIFY2(r.code == 1, r.err.constData());
        QVERIFY2(r.err.startsWith("lmscope-cli: error: ") && r.err.count('\n') == 1, r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(reason), r.err.constData());
    }

    void real_trace_replays() {
        LMSCOPE_REQUIRE_FILE(std::string(trace_.isEmpty() ? "" : "x"), "the shared test data");
        const CliRun r = run_cli({"replay", trace_, "--json"}, {}, kTimeoutMs);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.out.count('\n'), 4);  // the prefill and three decode steps
    }

private:
    QTemporaryDir dir_;
    QString trace_;
};

QTEST_APPLESS_MAIN(TestCliHostile)
#include "test_cli_hostile.moc"
