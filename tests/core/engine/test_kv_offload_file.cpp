// The KV offload tier's file: private (created in $TMPDIR, gone from the folder once open, mode
// 0600 while it had a name), bytes written come back, a write or read past its bound is refused,
// and a write the system refuses (a file-size limit, as a full disk) is an IoError naming the
// file, never a silent short write.
#include "engine/kv_offload_file.h"
#include "util/error.h"

#include <QtTest>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sys/resource.h>
#include <vector>

using lmscope::engine::KvOffloadFile;

class TestKvOffloadFile : public QObject {
    Q_OBJECT

private slots:
    void private_and_bounded() {
        QTemporaryDir dir;
        qputenv("TMPDIR", dir.path().toUtf8());
        KvOffloadFile f(1 << 20);
        qunsetenv("TMPDIR");
        QVERIFY(f.path().starts_with(dir.path().toStdString() + "/lmscope-kv-"));
        QVERIFY(!std::filesystem::exists(f.path()));  // unlinked at once: nothing left behind
        QVERIFY(std::filesystem::is_empty(dir.path().toStdString()));
        std::vector<uint8_t> a(4096), b(a.size());
        for (size_t i = 0; i < a.size(); ++i) a[i] = uint8_t(i * 7);
        f.write(8192, a.data(), a.size());
        f.read(8192, b.data(), b.size());
        QVERIFY(a == b);
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, f.write((1 << 20) - 100, a.data(), a.size()));
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, f.read(1 << 20, b.data(), 1));
        // bytes never written read back as the file's end, not as garbage
        try {
            f.read(12288, b.data(), b.size());
            QFAIL("a read past the written bytes succeeded");
        } catch (const lmscope::IoError& e) {
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(f.path())), e.what());
        }
    }

    void no_folder() {
        qputenv("TMPDIR", "/nonexistent-lmscope-folder");
        try {
            KvOffloadFile f(4096);
            qunsetenv("TMPDIR");
            QFAIL("a file was created in a folder that does not exist");
        } catch (const lmscope::IoError& e) {
            qunsetenv("TMPDIR");
            QVERIFY2(QString(e.what()).contains("/nonexistent-lmscope-folder"), e.what());
        }
    }

    // A file-size limit refuses the write as a full disk does (EFBIG instead of ENOSPC).
    void refused_write() {
        KvOffloadFile f(1 << 20);
        rlimit old{};
        getrlimit(RLIMIT_FSIZE, &old);
        auto* previous = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = old;
        small.rlim_cur = 65536;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const std::vector<uint8_t> page(32768, 1);
        QString what;
        try {
            f.write(0, page.data(), page.size());  // fits
            f.write(49152, page.data(), page.size());  // crosses the limit: part written, then refused
        } catch (const lmscope::IoError& e) {
            what = e.what();
        }
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        QVERIFY2(what.contains(QString::fromStdString(f.path())) && what.contains("cannot write"), qPrintable(what));
    }
};

QTEST_APPLESS_MAIN(TestKvOffloadFile)
#include "test_kv_offload_file.moc"
