// read_bounded, the one reader of the files lmscope reads whole, on each kind of thing a path
// can name: a regular file under, at and over the cap (sparse, so nothing is written), a
// directory, a missing path, a FIFO that no one writes (end-of-file at once, no hang), a
// character device that never ends (/dev/zero: stopped at the cap) and an unreadable file.
// Each row checks the bytes or the exact error type and message.
#include "util/bounded_file.h"
#include "util/error.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace lmscope;

namespace {

constexpr size_t kCap = size_t(1) << 20;  // 1 MiB

enum class Outcome { Bytes, Io, Format };

}  // namespace

Q_DECLARE_METATYPE(Outcome)

class TestBoundedFile : public QObject {
    Q_OBJECT
private slots:
    void kinds_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<Outcome>("outcome");
        QTest::addColumn<qint64>("size");      // bytes read, for Outcome::Bytes
        QTest::addColumn<QString>("message");  // after the path, for errors
        QTest::newRow("small file") << "small" << Outcome::Bytes << qint64(5) << "";
        QTest::newRow("empty file") << "empty" << Outcome::Bytes << qint64(0) << "";
        QTest::newRow("exactly the cap") << "at cap" << Outcome::Bytes << qint64(kCap) << "";
        QTest::newRow("one byte over the cap") << "over cap" << Outcome::Format << qint64(0)
                                               << ": size: larger than the 1 MiB allowed";
        QTest::newRow("directory") << "directory" << Outcome::Io << qint64(0) << ": is a directory";
        QTest::newRow("missing") << "missing" << Outcome::Io << qint64(0) << ": cannot open: No such file or directory";
        QTest::newRow("FIFO no one writes") << "fifo" << Outcome::Bytes << qint64(0) << "";
        QTest::newRow("endless device") << "/dev/zero" << Outcome::Format << qint64(0)
                                        << ": size: larger than the 1 MiB allowed";
        QTest::newRow("unreadable") << "unreadable" << Outcome::Io << qint64(0) << ": cannot open: Permission denied";
    }
    void kinds() {
        QFETCH(QString, kind);
        QFETCH(Outcome, outcome);
        QFETCH(qint64, size);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString path = dir.filePath("input");
        if (kind == "small" || kind == "empty" || kind == "unreadable") {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            if (kind != "empty") f.write("hello");
            f.close();
            if (kind == "unreadable") {
                if (::geteuid() == 0) QSKIP("root reads any file");
                QVERIFY(QFile::setPermissions(path, QFile::WriteOwner));
            }
        } else if (kind == "at cap" || kind == "over cap") {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(qint64(kCap) + (kind == "over cap" ? 1 : 0)));
        } else if (kind == "directory") {
            path = dir.path();
        } else if (kind == "fifo") {
            QCOMPARE(::mkfifo(path.toLocal8Bit().constData(), 0600), 0);
        } else if (kind.startsWith('/')) {
            path = kind;
        }
        const std::string p = path.toStdString();
        try {
            const std::string bytes = read_bounded(p, kCap);
            QVERIFY2(outcome == Outcome::Bytes, "read instead of refusing");
            QCOMPARE(qint64(bytes.size()), size);
            if (kind == "small") QCOMPARE(bytes, std::string("hello"));
        } catch (const FormatError& e) {
            QVERIFY2(outcome == Outcome::Format, e.what());
            QCOMPARE(QString::fromStdString(e.what()), path + message);
        } catch (const IoError& e) {
            QVERIFY2(outcome == Outcome::Io, e.what());
            QCOMPARE(QString::fromStdString(e.what()), path + message);
        }
    }
};

QTEST_GUILESS_MAIN(TestBoundedFile)
#include "test_bounded_file.moc"
