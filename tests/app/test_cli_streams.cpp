// lmscope-cli's streams and arguments under attack:
//   - numbers: every numeric option and --ids refuse a leading space or '+', a base prefix,
//     trailing text and out-of-range values (no saturation): exit 2, one line naming the option;
//   - stdout into /dev/full for every command: exit 1, "stdout: write failed: No space left
//     on device"; `run --trace t | head -c 1`: the trace saved, then "Broken pipe", exit 1;
//   - a context that fills during `run`: the text so far, the trace saved, a notice and exit 0,
//     or exit 1 when -n asked for more; a prompt longer than the context is a usage error;
//   - tokenize --file of a directory or of more than 64 MiB: a clear error;
//   - messages: newlines, terminal escapes and invalid UTF-8 from arguments and file names
//     escaped, one line, at most about 512 bytes (an argument of 100,000); JSON output with invalid UTF-8 in a path.
#include "common/testing.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using lmscope::testing::CliRun;
using lmscope::testing::run_cli;

namespace {

constexpr int kTimeoutMs = 120000;

QString fixture() { return QString::fromStdString(testing::testdata_file("models/fx-gqa-Q8_0.gguf")); }

// Runs `/bin/sh -c script sh CLI MODEL DIR` (the script refers to them as $1, $2, $3).
CliRun run_sh(const QString& script, const QString& dir) {
    QProcess p;
    p.start("/bin/sh", {"-c", script, "sh", QString::fromStdString(testing::cli_path()), fixture(), dir});
    CliRun r;
    if (!p.waitForStarted() || !p.waitForFinished(kTimeoutMs) || p.exitStatus() != QProcess::NormalExit) return r;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

void verify_one_line(const QByteArray& err, const QString& prefix = "lmscope-cli: error: ") {
    QVERIFY2(err.startsWith(prefix.toUtf8()) && err.endsWith('\n') && err.count('\n') == 1, err.constData());
    QVERIFY2(err.size() < 700, qPrintable(QStringLiteral("%1 bytes").arg(err.size())));
    for (const char c : err.left(err.size() - 1)) QVERIFY2(uint8_t(c) >= 0x20 && c != 0x7f, err.constData());
}

}  // namespace

class TestCliStreams : public QObject {
    Q_OBJECT
private slots:
    void init() { LMSCOPE_REQUIRE_FILE(fixture().toStdString(), "the shared test data"); }

    void numbers_data() {
        QTest::addColumn<QStringList>("args");  // after "run MODEL --prompt hi" or "dump MODEL"
        QTest::addColumn<QString>("reason");
        const QStringList run = {"run", "@M", "--prompt", "hi"};
        const QStringList dump = {"dump", "@M", "--logits", "@D/l.f32"};
        QTest::newRow("seed past 2^64") << run + QStringList{"--seed", "18446744073709551616"} << "--seed: '18446744073709551616' is out of range";
        QTest::newRow("seed negative") << run + QStringList{"--seed", "-1"} << "--seed: '-1' is out of range";
        QTest::newRow("seed with a space") << run + QStringList{"--seed", " 1"} << "--seed: ' 1' is not a decimal integer";
        QTest::newRow("seed in hex") << run + QStringList{"--seed", "0x10"} << "--seed: '0x10' is not a decimal integer";
        QTest::newRow("temperature with '+'") << run + QStringList{"--temp", "+1"} << "--temp: '+1' is not a decimal number";
        QTest::newRow("temperature NaN") << run + QStringList{"--temp", "nan"} << "--temp: 'nan' is not a finite number";
        QTest::newRow("top-k with trailing text") << run + QStringList{"--top-k", "5x"} << "--top-k: '5x' is not a decimal integer";
        QTest::newRow("n past int") << run + QStringList{"-n", "99999999999"} << "'99999999999' is out of range";
        QTest::newRow("threads with a trailing space") << dump + QStringList{"--ids", "1", "--threads", "2 "} << "--threads: '2 ' is not";
        QTest::newRow("ids with a space") << dump + QStringList{"--ids", " 1"} << "--ids: ' 1' is not a token id";
        QTest::newRow("ids with '+'") << dump + QStringList{"--ids", "+5"} << "--ids: '+5' is not a token id";
        QTest::newRow("ids past int") << dump + QStringList{"--ids", "1,4294967297"} << "--ids: '4294967297' is not a token id";
        QTest::newRow("ids with a newline") << dump + QStringList{"--ids", "1\n2"} << "--ids: '1\\n2' is not a token id";
        QTest::newRow("ids with an escape") << dump + QStringList{"--ids", "\x1b[2J"} << "--ids: '\\x1b[2J' is not a token id";
        QTest::newRow("ids 100000 bytes long") << dump + QStringList{"--ids", QString(100000, 'x')} << "more bytes]";
        QTest::newRow("ids past the context") << dump + QStringList{"--ids", QStringList(600, "1").join(',')} << "600 ids exceed the model's context of 512 positions";
        QTest::newRow("trace empty") << run + QStringList{"--trace", ""} << "--trace: the path is empty";
    }
    void numbers() {
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        args.replaceInStrings("@M", fixture()).replaceInStrings("@D", dir.path());
        const CliRun r = run_cli(args, {}, kTimeoutMs);
        QVERIFY2(r.code == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
        verify_one_line(r.err);
        QVERIFY2(QString::fromUtf8(r.err).contains(reason), r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("l.f32")));
    }

    void stdout_full_data() {
        QTest::addColumn<QString>("command");
        QTest::newRow("--version") << "\"$1\" --version";
        QTest::newRow("--help") << "\"$1\" --help";  // exited 0 (round 3 of the outside attack)
        QTest::newRow("run --help") << "\"$1\" run --help";
        QTest::newRow("info") << "\"$1\" info \"$2\"";
        QTest::newRow("info --json") << "\"$1\" info \"$2\" --json";
        QTest::newRow("tokenize") << "\"$1\" tokenize \"$2\" --text hello";
        QTest::newRow("kv --list-presets") << "\"$1\" kv --list-presets";
        QTest::newRow("run") << "\"$1\" run \"$2\" --prompt hi -n 2 --threads 2";
        QTest::newRow("run --jsonl") << "\"$1\" run \"$2\" --prompt hi -n 2 --threads 2 --jsonl";
    }
    void stdout_full() {
        QFETCH(QString, command);
        if (!QFile::exists("/dev/full")) QSKIP("no /dev/full here");
        const CliRun r = run_sh(command + " > /dev/full", QDir::tempPath());
        QCOMPARE(r.code, 1);
        QCOMPARE(QString::fromUtf8(r.err), QStringLiteral("lmscope-cli: error: stdout: write failed: No space left on device\n"));
    }

    // `run --trace t | head -c 1`: the reader goes away; the run stops, saves the trace, then
    // reports the broken pipe.
    void broken_pipe_saves_the_trace() {
        QTemporaryDir dir;
        const CliRun r = run_sh("( \"$1\" run \"$2\" --prompt 'The quick brown fox' -n 400 --ignore-eos --temp 0 "
                                "--threads 2 --trace \"$3/t.lmtrace\" 2>\"$3/err\"; echo $? >\"$3/code\" ) | head -c 1 >/dev/null; "
                                "cat \"$3/err\" >&2; exit $(cat \"$3/code\")",
                                dir.path());
        QCOMPARE(r.code, 1);
        QCOMPARE(QString::fromUtf8(r.err), QStringLiteral("lmscope-cli: error: stdout: write failed: Broken pipe\n"));
        const CliRun replay = run_cli({"replay", dir.filePath("t.lmtrace")}, {}, kTimeoutMs);
        QVERIFY2(replay.code == 0, replay.err.constData());
    }

    void full_context_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("default -n") << QStringList{"--ctx", "16"} << 0 << "lmscope-cli: notice: the context of 16 positions is full after 5 steps; the trace is saved to";
        QTest::newRow("-n asks for more") << QStringList{"--ctx", "16", "-n", "20"} << 1 << "lmscope-cli: error: -n 20: the context of 16 positions is full after 5 steps; the trace is saved to";
        // caught before the prefill, with the --ctx that holds it (#33, #35)
        QTest::newRow("prompt longer than the context") << QStringList{"--ctx", "8"} << 2
            << "lmscope-cli: error: --prompt: the prompt is 12 tokens, more than the context of 8 positions; --ctx 512 holds it";
    }
    void full_context() {
        QFETCH(QStringList, extra);
        QFETCH(int, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString trace = dir.filePath("t.lmtrace");
        const CliRun r = run_cli(QStringList{"run", fixture(), "--prompt", "The quick brown fox", "--temp", "0",
                                             "--ignore-eos", "--threads", "2", "--trace", trace} + extra,
                                 {}, kTimeoutMs);
        QVERIFY2(r.code == code, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
        verify_one_line(r.err, message);
        QVERIFY2(r.err.contains("context"), r.err.constData());
        if (code == 2) return;  // nothing ran
        QVERIFY(!r.out.trimmed().isEmpty());  // the text so far
        const CliRun replay = run_cli({"replay", trace, "--json"}, {}, kTimeoutMs);
        QVERIFY2(replay.code == 0, replay.err.constData());
        QCOMPARE(replay.out.count('\n'), 5);
    }

    // tokenize --file (and --batch) on what is not a text file lmscope should read whole.
    void text_files_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::newRow("a directory") << "directory" << 1 << ": is a directory";
        QTest::newRow("65 MiB") << "large" << 1 << ": size: larger than the 64 MiB allowed";
    }
    void text_files() {
        QFETCH(QString, kind);
        QFETCH(int, code);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QString path = dir.path();
        if (kind == "large") {
            path = dir.filePath("big.txt");
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(qint64(65) << 20));  // sparse
        }
        for (const char* option : {"--file", "--batch"}) {
            const CliRun r = run_cli({"tokenize", fixture(), option, path}, {}, kTimeoutMs);
            QCOMPARE(r.code, code);
            verify_one_line(r.err);
            QVERIFY2(QString::fromUtf8(r.err).contains(path + reason), r.err.constData());
        }
    }

    // A model file named with invalid UTF-8 and a terminal escape: JSON output stays valid
    // (U+FFFD), the trace saves, and replay prints the name escaped.
    void hostile_file_names() {
        QTemporaryDir dir;
        const CliRun r = run_sh("f=\"$3/$(printf 'm\\377\\033[31m.gguf')\"; cp \"$2\" \"$f\" && "
                                "\"$1\" info \"$f\" --json > \"$3/info.json\" && "
                                "\"$1\" run \"$f\" --prompt hi -n 2 --threads 2 --trace \"$3/t.lmtrace\" >/dev/null && "
                                "\"$1\" replay \"$3/t.lmtrace\" | head -n 1",
                                dir.path());
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QFile info(dir.filePath("info.json"));
        QVERIFY(info.open(QIODevice::ReadOnly));
        QJsonParseError error{};
        QJsonDocument::fromJson(info.readAll(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY2(r.out.startsWith("model: ") && r.out.contains("\\x1b[31m.gguf") && !r.out.contains('\x1b'), r.out.constData());
    }
};

QTEST_APPLESS_MAIN(TestCliStreams)
#include "test_cli_streams.moc"
