// save_trace() when the folder refuses the file: read-only (permissions; a read-only file
// system), full (a file-size limit with SIGXFSZ ignored, so write() fails with EFBIG; a full
// tmpfs) or missing. Each throws IoError naming the file and the reason, leaves the earlier
// file at that path byte-identical and no temporary file beside it; saving again once the
// fault is gone works. The variants that need privileges (a private mount namespace for the
// tmpfs ones, dropping root for the permission one) skip where the process lacks them.
#include "trace/trace_file.h"
#include "trace_fixture.h"
#include "util/error.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace lmscope;

namespace {

QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

trace::SessionTrace small_trace() {
    trace::CapturePolicy p;
    p.mode = trace::CaptureMode::Summary;
    return testing::make_session(2, 2, 4, 1, p);
}

trace::SessionTrace large_trace() {
    trace::CapturePolicy p;
    p.mode = trace::CaptureMode::Full;
    return testing::make_session(4, 4, 64, 40, p);
}

// Enters a private mount namespace once (the test process is single-threaded); false when
// the process may not.
bool private_mounts() {
    static const bool ok = [] {
        if (::unshare(CLONE_NEWNS) != 0) return false;
        return ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0;
    }();
    return ok;
}

}  // namespace

class TestTraceSaveFaults : public QObject {
    Q_OBJECT
private slots:
    void refused_save_keeps_the_earlier_file_data();
    void refused_save_keeps_the_earlier_file();
};

void TestTraceSaveFaults::refused_save_keeps_the_earlier_file_data() {
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("reason");  // a part of the expected message
    QTest::newRow("read-only folder") << QStringLiteral("chmod") << QStringLiteral("Permission denied");
    QTest::newRow("read-only file system") << QStringLiteral("rofs") << QStringLiteral("Read-only file system");
    QTest::newRow("file size limit") << QStringLiteral("fsize") << QStringLiteral("File too large");
    QTest::newRow("full file system") << QStringLiteral("full") << QStringLiteral("No space left on device");
    QTest::newRow("missing folder") << QStringLiteral("missing") << QStringLiteral("No such file or directory");
}

void TestTraceSaveFaults::refused_save_keeps_the_earlier_file() {
    QFETCH(QString, fault);
    QFETCH(QString, reason);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(QFile::setPermissions(tmp.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                  QFile::ReadOther | QFile::ExeOther));
    const QString folder = tmp.filePath(QStringLiteral("traces"));
    QVERIFY(QDir().mkdir(folder));
    const bool tmpfs = fault == QLatin1String("rofs") || fault == QLatin1String("full");
    if (tmpfs) {
        if (!private_mounts()) QSKIP("no private mount namespace here (needs CAP_SYS_ADMIN)");
        const std::string where = folder.toStdString();
        if (::mount("lmscope-test", where.c_str(), "tmpfs", 0, "size=16k") != 0)
            QSKIP(qPrintable(QStringLiteral("cannot mount a tmpfs: %1").arg(std::strerror(errno))));
    }
    const QString path = (fault == QLatin1String("missing") ? tmp.filePath(QStringLiteral("gone/x")) : folder) +
                         QStringLiteral("/session.lmtrace");
    const std::string target = path.toStdString();
    const trace::SessionTrace first = small_trace();
    const trace::SessionTrace second = large_trace();
    QVERIFY(trace::serialize_trace(second).size() > 4 * trace::serialize_trace(first).size());
    if (fault != QLatin1String("missing")) trace::save_trace(first, target);
    const QByteArray earlier = read_all(path);
    QVERIFY(fault == QLatin1String("missing") || earlier.size() > 0);
    QVERIFY(earlier.size() < 12 * 1024);  // it fits the 16 KiB tmpfs

    bool as_nobody = false;
    rlimit old_fsize{};
    QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old_fsize), 0);
    if (fault == QLatin1String("chmod")) {
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther));
        if (::geteuid() == 0) {  // root ignores permissions: save as nobody
            if (::seteuid(65534) != 0) QSKIP("running as root and cannot drop to nobody");
            as_nobody = true;
        }
    } else if (fault == QLatin1String("rofs")) {
        QCOMPARE(::mount(nullptr, folder.toStdString().c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr), 0);
    } else if (fault == QLatin1String("fsize")) {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = old_fsize;
        small.rlim_cur = rlim_t(earlier.size());
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
    }

    QString message;
    try {
        trace::save_trace(second, target);
    } catch (const IoError& e) {
        message = QString::fromUtf8(e.what());
    }
    if (as_nobody) QCOMPARE(::seteuid(0), 0);
    QCOMPARE(::setrlimit(RLIMIT_FSIZE, &old_fsize), 0);

    QVERIFY2(!message.isEmpty(), "the refused save did not throw IoError");
    QVERIFY2(message.startsWith(path + QStringLiteral(": ")), qPrintable(message));
    QVERIFY2(message.contains(reason), qPrintable(message));
    QCOMPARE(read_all(path), earlier);
    if (fault != QLatin1String("missing"))
        QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System),
                 QStringList{QStringLiteral("session.lmtrace")});

    // Without the fault the same save works (and replaces the file whole).
    if (fault == QLatin1String("chmod"))
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    if (fault == QLatin1String("rofs") || fault == QLatin1String("full"))
        QCOMPARE(::umount(folder.toStdString().c_str()), 0);
    if (fault == QLatin1String("missing")) return;
    trace::save_trace(second, target);
    const std::vector<uint8_t> bytes = trace::serialize_trace(second);
    QCOMPARE(read_all(path), QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size())));
}

QTEST_APPLESS_MAIN(TestTraceSaveFaults)
#include "test_trace_save_faults.moc"
