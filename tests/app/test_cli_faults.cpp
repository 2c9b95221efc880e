// lmscope-cli under faults, each in a child process whose limits the test lowers:
//   - a model larger than the address-space limit (ulimit -v): a clear error naming the file,
//     exit code 1, no signal;
//   - a sweep of address-space limits from too small to start to enough for a short run:
//     every run either succeeds or fails with one line naming the model file, never a signal
//     or a hang. OpenBLAS runs single-threaded here (OPENBLAS_NUM_THREADS=1): its own worker
//     threads retry a failed 128 MiB buffer mapping forever under a low limit, a hang in the
//     library (an upstream issue), not in lmscope;
//   - `replay` of a trace too large for the address-space limit: "out of memory while loading";
//   - `run --threads 300` where the address-space limit leaves room for fewer thread stacks:
//     the run goes on with the threads it got and says so (a notice), exit 0;
//   - `run --trace` into a read-only folder (permissions; or a read-only file system: refused
//     before the run) and into a full one (a file-size limit with SIGXFSZ ignored; or a full
//     tmpfs: found while saving, after the text): an error naming the trace file, exit code 1,
//     the earlier file byte-identical, no temporary file left behind.
// The variants that need privileges (a private mount namespace for tmpfs, dropping root for
// the permission check) skip where the machine does not allow them.
#include "common/testing.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace lmscope;

namespace {

constexpr qint64 kBigModelBytes = qint64(6) << 30;  // a sparse 6 GiB model file
constexpr qint64 kAddressLimitKiB = qint64(3) << 20;  // ulimit -v 3 GiB
// Before the limit: OpenBLAS without worker threads (see above).
const QString kSingleBlas = QStringLiteral("export OPENBLAS_NUM_THREADS=1; ");

struct ChildRun {
    int code = -1;       // exit code; -1 when it did not start, timed out or died of a signal
    bool signalled = false;
    QByteArray out, err;
};

// Runs `/bin/sh -c script lmscope-faults args...` (the script refers to the arguments as "$@").
ChildRun run_sh(const QString& script, const QStringList& args, int timeout_ms = 120000) {
    QProcess p;
    p.start(QStringLiteral("/bin/sh"), QStringList{QStringLiteral("-c"), script, QStringLiteral("lmscope-faults")} + args);
    ChildRun r;
    if (!p.waitForStarted()) return r;
    p.closeWriteChannel();
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.signalled = p.exitStatus() != QProcess::NormalExit;
    r.code = r.signalled ? -1 : p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString cli() { return QString::fromStdString(testing::cli_path()); }
QString fixture() { return QString::fromStdString(testing::testdata_file("models/fx-gqa.gguf")); }

QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The arguments of a run that saves a trace of a few full-capture steps to `trace`.
QStringList run_args(const QString& trace, int steps) {
    return {cli(), QStringLiteral("run"), fixture(), QStringLiteral("--prompt"), QStringLiteral("The quick brown fox"),
            QStringLiteral("-n"), QString::number(steps), QStringLiteral("--temp"), QStringLiteral("0"),
            QStringLiteral("--capture"), QStringLiteral("full"), QStringLiteral("--threads"), QStringLiteral("2"),
            QStringLiteral("--trace"), trace};
}

}  // namespace

class TestCliFaults : public QObject {
    Q_OBJECT
private slots:
    void init();
    void model_over_the_address_limit();
    void address_limit_sweep();
    void trace_save_faults_data();
    void trace_save_faults();
    void trace_over_the_memory_limit();
    void threads_refused();
};

void TestCliFaults::init() {
    const std::string model = testing::testdata_file("models/fx-gqa.gguf");
    LMSCOPE_REQUIRE_FILE(model, "../shared/testdata/models/fx-gqa.gguf");
}

void TestCliFaults::model_over_the_address_limit() {
    if (testing::kAddressSanitizer) QSKIP("AddressSanitizer cannot start under an address-space limit");
    // The fixture model followed by zeros up to 6 GiB (sparse: no disk space): a valid model
    // (GGUF ignores bytes after the last tensor) whose mapping alone needs 6 GiB.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString big = dir.filePath(QStringLiteral("big-model.gguf"));
    QVERIFY(QFile::copy(fixture(), big));
    QFile f(big);
    QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    if (!f.resize(kBigModelBytes)) QSKIP("this file system cannot hold a sparse 6 GiB file");
    const QStringList args = {cli(), QStringLiteral("run"), big, QStringLiteral("--prompt"), QStringLiteral("Hello"),
                              QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral("--threads"), QStringLiteral("2")};

    // Without a limit it runs.
    const ChildRun free = run_sh(QStringLiteral("exec \"$@\""), args);
    QVERIFY2(free.code == 0, free.err.constData());

    // Under ulimit -v 3 GiB: a clear error naming the file, exit code 1, no signal.
    const ChildRun limited =
        run_sh(kSingleBlas + QStringLiteral("ulimit -v %1 || exit 97; exec \"$@\"").arg(kAddressLimitKiB), args, 60000);
    if (limited.code == 97) QSKIP("ulimit -v is not available");
    QVERIFY2(!limited.signalled, "lmscope-cli died of a signal under the address-space limit");
    QCOMPARE(limited.code, 1);
    const QString err = QString::fromUtf8(limited.err);
    QVERIFY2(err.contains(big), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("cannot map")), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("Cannot allocate memory")) || err.contains(QStringLiteral("out of memory")),
             qPrintable(err));
    QCOMPARE(err.count(QLatin1Char('\n')), 1);  // one line
}

void TestCliFaults::address_limit_sweep() {
    if (testing::kAddressSanitizer) {
        // Not a QSKIP: CTest would then report the whole suite as skipped.
        qInfo("not swept: under AddressSanitizer its own allocations fail first at these limits");
        return;
    }
    const QStringList args = {cli(), QStringLiteral("run"), fixture(), QStringLiteral("--prompt"),
                              QStringLiteral("Hello there"), QStringLiteral("-n"), QStringLiteral("4"),
                              QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--capture"),
                              QStringLiteral("full")};
    int ran = 0, clean_errors = 0, not_started = 0;
    QStringList seen;
    int limits = 0;
    for (int mib = 40; mib <= 200; mib += mib < 100 ? 5 : 20) {
        ++limits;
        const ChildRun r =
            run_sh(kSingleBlas + QStringLiteral("ulimit -v %1 || exit 97; exec \"$@\"").arg(mib * 1024), args, 60000);
        if (r.code == 97) QSKIP("ulimit -v is not available");
        const QString err = QString::fromUtf8(r.err);
        const QString at = QStringLiteral("limit %1 MiB: ").arg(mib);
        QVERIFY2(!r.signalled, qPrintable(at + QStringLiteral("died of a signal; ") + err));
        QVERIFY2(r.code != -1, qPrintable(at + QStringLiteral("did not finish within a minute")));
        if (r.code == 127 && (err.contains(QStringLiteral("error while loading shared libraries")) ||
                              err.contains(QStringLiteral("cannot allocate TLS data structures")))) {
            ++not_started;  // the dynamic loader could not map a library or its TLS: before any of our code
            continue;
        }
        if (r.code == 0) {
            ++ran;
            continue;
        }
        QVERIFY2(r.code == 1, qPrintable(at + QStringLiteral("exit code %1; ").arg(r.code) + err));
        QVERIFY2(err.startsWith(QStringLiteral("lmscope-cli: error: ")) && err.count(QLatin1Char('\n')) == 1,
                 qPrintable(at + err));
        QVERIFY2(err.contains(fixture()), qPrintable(at + QStringLiteral("the message does not name the model: ") + err));
        ++clean_errors;
        seen << QStringLiteral("%1 MiB: %2").arg(mib).arg(err.trimmed());
    }
    QVERIFY2(clean_errors > 0, "no limit in the sweep made lmscope-cli fail");
    QVERIFY2(ran > 0, "no limit in the sweep let lmscope-cli run");
    qInfo("%d limits: %d did not start (loader), %d clean errors, %d ran", limits, not_started, clean_errors, ran);
    for (const QString& s : seen) qInfo("%s", qPrintable(s));
}

void TestCliFaults::trace_save_faults_data() {
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("reason");  // a part of the expected strerror text
    QTest::newRow("read-only folder (permissions)") << QStringLiteral("chmod") << QStringLiteral("Permission denied");
    QTest::newRow("read-only file system") << QStringLiteral("rofs") << QStringLiteral("Read-only file system");
    QTest::newRow("file size limit") << QStringLiteral("fsize") << QStringLiteral("File too large");
    QTest::newRow("full file system") << QStringLiteral("full") << QStringLiteral("No space left on device");
}

void TestCliFaults::trace_save_faults() {
    QFETCH(QString, fault);
    QFETCH(QString, reason);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(QFile::setPermissions(tmp.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther |
                                                  QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup));
    const QString folder = tmp.filePath(QStringLiteral("traces"));
    QVERIFY(QDir().mkdir(folder));
    const QString trace = folder + QStringLiteral("/session.lmtrace");

    // The earlier file: a short run's trace, saved without any fault.
    const ChildRun first = run_sh(QStringLiteral("exec \"$@\""), run_args(trace, 1));
    QVERIFY2(first.code == 0, first.err.constData());
    const QByteArray earlier = read_all(trace);
    QVERIFY(earlier.size() > 0);
    const QString earlier_copy = tmp.filePath(QStringLiteral("earlier.lmtrace"));
    QVERIFY(QFile::copy(trace, earlier_copy));

    // A longer run saving over it under the fault: its trace is several times larger.
    const QStringList args = run_args(trace, 24);
    ChildRun r;
    if (fault == QLatin1String("chmod")) {
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther |
                                                  QFile::ReadGroup | QFile::ExeGroup));
        if (::geteuid() == 0) {  // root ignores permissions: run as nobody
            if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
                QSKIP("running as root without setpriv: the permission check cannot be exercised");
            r = run_sh(QStringLiteral("setpriv --reuid=65534 --regid=65534 --clear-groups -- true || exit 95; "
                                      "exec setpriv --reuid=65534 --regid=65534 --clear-groups -- \"$@\""),
                       args);
        } else {
            r = run_sh(QStringLiteral("exec \"$@\""), args);
        }
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    } else if (fault == QLatin1String("fsize")) {
        // SIG_IGN survives exec: write() then fails with EFBIG instead of killing the process.
        r = run_sh(QStringLiteral("trap '' XFSZ; ulimit -f 8 || exit 95; exec \"$@\""), args);
    } else {
        // A tmpfs in a private mount namespace, holding the earlier file: remounted read-only,
        // or too small for the new trace. The script checks the earlier file and the folder's
        // listing inside the namespace (exit 91 / 92) before it ends.
        const QString remount = fault == QLatin1String("rofs") ? QStringLiteral("mount -o remount,ro \"$D\" || exit 95; ")
                                                               : QString();
        const QString size = QString::number(((earlier.size() + 4095) / 4096 + 1) * 4096);
        const QString script =
            QStringLiteral("D=\"$1\"; E=\"$2\"; shift 2; "
                           "mount -t tmpfs -o size=%1 lmscope-faults \"$D\" 2>/dev/null || exit 95; "
                           "cp \"$E\" \"$D/session.lmtrace\" || exit 95; %2"
                           "\"$@\"; code=$?; "
                           "cmp -s \"$E\" \"$D/session.lmtrace\" || exit 91; "
                           "[ \"$(ls -A \"$D\")\" = session.lmtrace ] || exit 92; exit $code")
                .arg(size, remount);
        if (QStandardPaths::findExecutable(QStringLiteral("unshare")).isEmpty()) QSKIP("no unshare here");
        r = run_sh(QStringLiteral("unshare -m true 2>/dev/null || exit 95; exec unshare -m /bin/sh -c '") + script +
                       QStringLiteral("' sh \"$@\""),
                   QStringList{folder, earlier_copy} + args);
    }
    if (r.code == 95) QSKIP("this machine does not allow the fault's set-up (mount namespace, setpriv or ulimit)");
    QVERIFY2(r.code != 91, "the earlier file changed");
    QVERIFY2(r.code != 92, "a temporary file was left in the folder");
    QVERIFY2(!r.signalled, "lmscope-cli died of a signal");
    QCOMPARE(r.code, 1);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(trace), qPrintable(err));
    QVERIFY2(err.contains(reason), qPrintable(err));
    // A folder that refuses new files is found before the run; a full one only while saving.
    const bool found_first = fault == QLatin1String("chmod") || fault == QLatin1String("rofs");
    QVERIFY2(r.out.isEmpty() == found_first, found_first ? "the run went ahead" : "the run printed nothing before the save");
    QCOMPARE(read_all(trace), earlier);  // the earlier file is intact (the outer folder's one)
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System),
             QStringList{QStringLiteral("session.lmtrace")});
}

// A trace whose header (80 MiB, under the 100 MiB cap) is one list of 40 million zeros: under
// ulimit -v 400 MiB, replay reports running out of memory while loading it, once, exit 1,
// no signal (nothing may throw from a destructor while the partial document is freed).
void TestCliFaults::trace_over_the_memory_limit() {
    if (testing::kAddressSanitizer) QSKIP("AddressSanitizer cannot start under an address-space limit");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString trace = dir.filePath(QStringLiteral("wide.lmtrace"));
    QByteArray header = "{\"a\":[" + QByteArray("0,").repeated(40 << 20) + "0]}";
    header.append(QByteArray((8 - header.size() % 8) % 8, ' '));
    QByteArray bytes(8, '\0');
    for (int i = 0; i < 8; ++i) bytes[i] = char(uint64_t(header.size()) >> (8 * i));
    QFile f(trace);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes + header) == header.size() + 8);
    f.close();
    for (const QString& json : {QString(), QStringLiteral("--json")}) {
        const ChildRun r = run_sh(QStringLiteral("ulimit -v 409600 || exit 97; exec \"$@\""),
                                  QStringList{cli(), QStringLiteral("replay"), trace} + (json.isEmpty() ? QStringList() : QStringList{json}));
        if (r.code == 97) QSKIP("ulimit -v is not available");
        QVERIFY2(!r.signalled, "lmscope-cli died of a signal under the memory limit");
        QCOMPARE(r.code, 1);
        QCOMPARE(QString::fromUtf8(r.err), QStringLiteral("lmscope-cli: error: %1: out of memory while loading\n").arg(trace));
    }
}

// Threads the system refuses to start (under ulimit -v 2 GiB, 300 thread stacks of 8 MiB do
// not fit): the run goes on with those it got and says so on stderr (it died of SIGABRT,
// "terminate called without an active exception", in the thread pool's constructor).
void TestCliFaults::threads_refused() {
    if (testing::kAddressSanitizer) {
        qInfo("not run: AddressSanitizer cannot start under an address-space limit");
        return;
    }
    const QStringList args = {cli(), QStringLiteral("run"), fixture(), QStringLiteral("--prompt"), QStringLiteral("Hello"),
                              QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral("--temp"), QStringLiteral("0"),
                              QStringLiteral("--threads"), QStringLiteral("300")};
    const ChildRun r = run_sh(kSingleBlas + QStringLiteral("ulimit -s 8192 && ulimit -v %1 || exit 97; exec \"$@\"").arg(qint64(2) << 20), args);
    if (r.code == 97) QSKIP("ulimit -v is not available");
    QVERIFY2(!r.signalled, r.err.constData());
    QVERIFY2(r.code == 0, r.err.constData());
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.startsWith(QStringLiteral("lmscope-cli: notice: running on ")) && err.count(QLatin1Char('\n')) == 1, qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral(" of the 300 CPU threads asked for")), qPrintable(err));
    QVERIFY(!r.out.isEmpty());  // the text
}

QTEST_APPLESS_MAIN(TestCliFaults)
#include "test_cli_faults.moc"
