// The files lmscope-cli writes (dump's logits and attention, run's trace) on hostile output
// paths: the model itself (directly, through a link, as a hard link), a directory, a FIFO, a
// character device, a missing folder, an empty path, a link (written through, kept) and a
// link planted at the name the old dump used for its temporary, the other output of the same
// command under another name or through a link. Each row asserts the exit
// code, the one line on stderr naming the path and the reason, and that no earlier file (the
// model, the link's victim) changed. A refused trace path is refused before the run.
#include "common/testing.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace lmscope;
using lmscope::testing::CliRun;
using lmscope::testing::run_cli;

namespace {

constexpr int kTimeoutMs = 120000;

QByteArray digest(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

}  // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT
private slots:
    void outputs_data() {
        QTest::addColumn<QString>("setup");    // what the output path `out` is
        QTest::addColumn<QString>("command");  // dump-logits, dump-attention or run
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");   // "" for success
        QTest::newRow("dump onto the model") << "model" << "dump-logits" << 2 << "is the same file as the input";
        QTest::newRow("dump attention onto the model") << "model" << "dump-attention" << 2 << "is the same file as the input";
        QTest::newRow("dump onto a link to the model") << "link to model" << "dump-logits" << 2 << "is the same file as the input";
        QTest::newRow("dump onto a hard link of the model") << "hard link to model" << "dump-logits" << 2 << "is the same file as the input";
        QTest::newRow("run --trace onto the model") << "model" << "run" << 2 << "is the same file as the input";
        QTest::newRow("run --trace into a directory") << "directory" << "run" << 1 << "is a directory, not a regular file";
        QTest::newRow("dump into a directory") << "directory" << "dump-logits" << 1 << "is a directory, not a regular file";
        QTest::newRow("run --trace onto a FIFO") << "fifo" << "run" << 1 << "is a FIFO, not a regular file";
        QTest::newRow("run --trace onto a device") << "device" << "run" << 1 << "is a character device, not a regular file";
        QTest::newRow("dump onto a device") << "device" << "dump-logits" << 1 << "is a character device, not a regular file";
        QTest::newRow("run --trace into a missing folder") << "missing folder" << "run" << 1 << "No such file or directory";
        QTest::newRow("run --trace empty") << "empty" << "run" << 2 << "--trace: the path is empty";
        QTest::newRow("dump --logits empty") << "empty" << "dump-logits" << 2 << "--logits: the path is empty";
        QTest::newRow("dump through a link") << "link to file" << "dump-logits" << 0 << "";
        QTest::newRow("run --trace through a link") << "link to file" << "run" << 0 << "";
        QTest::newRow("dump beside a planted temporary link") << "planted" << "dump-logits" << 0 << "";
        // Found by an outside attack (round 3): both outputs in one file, exit 0 (paths compared
        // as strings), only the attention left.
        QTest::newRow("dump attention onto the logits, spelled ./") << "the logits spelled" << "dump-attention" << 2 << "is the same file as --logits";
        QTest::newRow("dump attention onto a link to the logits") << "link to the logits" << "dump-attention" << 2 << "is the same file as --logits";
    }
    void outputs() {
        QFETCH(QString, setup);
        QFETCH(QString, command);
        QFETCH(int, code);
        QFETCH(QString, reason);
        const std::string fixture = testing::testdata_file("models/fx-gqa-Q8_0.gguf");
        LMSCOPE_REQUIRE_FILE(fixture, "the shared test data");
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QDir dir(tmp.path());
        const QString model = dir.filePath("model.gguf"), victim = dir.filePath("victim");
        QVERIFY(QFile::copy(QString::fromStdString(fixture), model));  // a copy: a regression harms nothing shared
        QFile v(victim);
        QVERIFY(v.open(QIODevice::WriteOnly) && v.write("precious\n") == 9);
        v.close();
        QString out = dir.filePath("out");
        if (setup == "model") out = model;
        else if (setup == "link to model") QVERIFY(QFile::link(model, out));
        else if (setup == "hard link to model") QCOMPARE(::link(model.toLocal8Bit(), out.toLocal8Bit()), 0);
        else if (setup == "directory") QVERIFY(dir.mkdir("out"));
        else if (setup == "fifo") QCOMPARE(::mkfifo(out.toLocal8Bit(), 0644), 0);
        else if (setup == "device" && ::mknod(out.toLocal8Bit(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            QSKIP("cannot make a device node here (needs root)");
        else if (setup == "missing folder") out = dir.filePath("gone/out");
        else if (setup == "empty") out.clear();
        else if (setup == "link to file") QVERIFY(QFile::link(victim, out));
        else if (setup == "planted") QVERIFY(QFile::link(victim, out + ".tmp-dump"));
        else if (setup == "the logits spelled") out = tmp.path() + "/./l.f32";
        else if (setup == "link to the logits") QVERIFY(QFile::link(dir.filePath("l.f32"), out));
        const QByteArray model_before = digest(model), victim_before = digest(victim);

        QStringList args;
        if (command == "run")
            args = {"run", model, "--prompt", "Hello", "-n", "2", "--temp", "0", "--threads", "2", "--trace", out};
        else if (command == "dump-logits")
            args = {"dump", model, "--ids", "1,2,3", "--logits", out, "--threads", "2"};
        else
            args = {"dump", model, "--ids", "1,2,3", "--logits", dir.filePath("l.f32"), "--attention", out};
        const CliRun r = run_cli(args, {}, kTimeoutMs);
        const QString err = QString::fromUtf8(r.err);

        QCOMPARE(digest(model), model_before);
        QVERIFY2(r.code == code, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(err)));
        if (code == 0) {
            QVERIFY2(err.isEmpty(), qPrintable(err));
            if (setup == "planted") {
                QCOMPARE(digest(victim), victim_before);
                QVERIFY(QFileInfo(out).size() > 0 && QFileInfo(out).size() % (3 * 4) == 0);  // [3][n_vocab] floats
            } else {
                QVERIFY(QFileInfo(out).isSymLink());  // written through, the link kept
                QVERIFY(digest(victim) != victim_before);
            }
            return;
        }
        QCOMPARE(digest(victim), victim_before);
        QVERIFY2(err.startsWith("lmscope-cli: error: ") && err.count('\n') == 1, qPrintable(err));
        QVERIFY2(err.contains(out), qPrintable("no file name: " + err));
        QVERIFY2(err.contains(reason), qPrintable("no reason: " + err));
        QVERIFY2(r.out.isEmpty(), r.out.constData());  // refused before the run
        if (setup == "device") {
            struct stat st {};
            QVERIFY(::lstat(out.toLocal8Bit(), &st) == 0 && S_ISCHR(st.st_mode));
        }
    }
};

QTEST_APPLESS_MAIN(TestCliOutputs)
#include "test_cli_outputs.moc"
