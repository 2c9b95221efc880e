// SafeWriter, the one writer of every user file, on each kind of thing an output path can
// name: absent, a regular file (replaced, its permission bits kept), a symbolic link (written
// through to its target, the link kept; a dangling one creates the target), a directory, a
// FIFO, a character device, a loop of links (refused with IoError naming the path and the
// reason), and an input of the command under another name (refused with UsageError). Every
// row checks that what was there before is untouched when refused and that no temporary file
// is left behind.
#include "util/error.h"
#include "util/safe_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace lmscope;

namespace {

const QByteArray kEarlier = "earlier content\n";
const QByteArray kNew = "new content\n";

QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

// Sets up `dir` for `kind`: the output path is dir/out, the command's input dir/input.
// False (with a skip) when this machine does not allow it.
bool prepare(const QString& kind, const QDir& dir) {
    const QString out = dir.filePath("out"), input = dir.filePath("input");
    write(input, kEarlier);
    if (kind == "regular file") {
        write(out, kEarlier);
        QFile::setPermissions(out, QFile::ReadOwner | QFile::WriteOwner);
    } else if (kind == "link to a regular file") {
        write(dir.filePath("target"), kEarlier);
        QFile::link("target", out);
    } else if (kind == "dangling link") {
        QFile::link("target", out);
    } else if (kind == "directory") {
        dir.mkdir("out");
    } else if (kind == "FIFO") {
        ::mkfifo(out.toLocal8Bit().constData(), 0644);
    } else if (kind == "character device") {  // a node like /dev/null, made here: needs root
        if (::mknod(out.toLocal8Bit().constData(), S_IFCHR | 0666, makedev(1, 3)) != 0) return false;
    } else if (kind == "loop of links") {
        QFile::link("out", out);
    } else if (kind == "the input") {
        QFile::link("input", out);
        return true;
    } else if (kind == "a hard link of the input") {
        ::link(input.toLocal8Bit().constData(), out.toLocal8Bit().constData());
    }
    return true;
}

}  // namespace

class TestSafeWriter : public QObject {
    Q_OBJECT
private slots:
    void targets_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("error");  // "" when the write must succeed
        QTest::addColumn<QString>("written");  // the file that receives the bytes
        QTest::newRow("absent") << "absent" << "" << "out";
        QTest::newRow("regular file") << "regular file" << "" << "out";
        QTest::newRow("link to a regular file") << "link to a regular file" << "" << "target";
        QTest::newRow("dangling link") << "dangling link" << "" << "target";
        QTest::newRow("directory") << "directory" << "is a directory, not a regular file" << "";
        QTest::newRow("FIFO") << "FIFO" << "is a FIFO, not a regular file" << "";
        QTest::newRow("character device") << "character device" << "is a character device, not a regular file" << "";
        QTest::newRow("loop of links") << "loop of links" << "Too many levels of symbolic links" << "";
        QTest::newRow("the input under a link") << "the input" << "is the same file as the input" << "";
        QTest::newRow("a hard link of the input") << "a hard link of the input" << "is the same file as the input" << "";
    }
    void targets() {
        QFETCH(QString, kind);
        QFETCH(QString, error);
        QFETCH(QString, written);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QDir dir(tmp.path());
        if (!prepare(kind, dir)) QSKIP("cannot make a device node here (needs root)");
        const QStringList before = dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        const QString out = dir.filePath("out"), input = dir.filePath("input");
        const QFileInfo info_before(out);

        QString message;
        bool usage = false;
        try {
            write_file_safely(out.toStdString(), kNew.constData(), size_t(kNew.size()), {input.toStdString()});
        } catch (const UsageError& e) {
            message = e.what(), usage = true;
        } catch (const IoError& e) {
            message = e.what();
        }
        QCOMPARE(read_all(input), kEarlier);
        if (error.isEmpty()) {
            QVERIFY2(message.isEmpty(), qPrintable(message));
            QCOMPARE(read_all(dir.filePath(written)), kNew);
            QCOMPARE(QFileInfo(out).isSymLink(), info_before.isSymLink());  // a link stays a link
            struct stat st {};
            QCOMPARE(::stat(out.toLocal8Bit().constData(), &st), 0);
            if (kind == "regular file") QCOMPARE(st.st_mode & 07777, 0600u);  // kept
            QStringList after = before;
            if (kind == "absent" || kind == "dangling link") after = (after << written), after.sort();
            QCOMPARE(dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot), after);
            return;
        }
        QVERIFY2(message.startsWith(out + ": "), qPrintable(message));
        QVERIFY2(message.contains(error), qPrintable(message));
        QCOMPARE(usage, kind.contains("input"));
        QCOMPARE(dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot), before);
        QCOMPARE(QFileInfo(out).isDir(), kind == "directory");
        struct stat st {};
        if (kind == "FIFO" || kind == "character device") {
            QCOMPARE(::lstat(out.toLocal8Bit().constData(), &st), 0);
            QVERIFY(kind == "FIFO" ? S_ISFIFO(st.st_mode) : S_ISCHR(st.st_mode));
        }
    }

    // The check a command makes before its work leaves nothing behind, and refuses what a
    // write would refuse.
    void check_output_path_leaves_nothing() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        check_output_path(tmp.filePath("new.f32").toStdString());
        QVERIFY(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
        QVERIFY_THROWS_EXCEPTION(IoError, check_output_path(tmp.path().toStdString()));
        QVERIFY_THROWS_EXCEPTION(IoError, check_output_path(tmp.filePath("missing/new.f32").toStdString()));
    }

    // A writer destroyed before commit (an error while the bytes were produced) removes its
    // temporary and leaves the earlier file as it was.
    void uncommitted_writer_changes_nothing() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString out = tmp.filePath("out");
        write(out, kEarlier);
        {
            SafeWriter w(out.toStdString());
            w.write(kNew.constData(), size_t(kNew.size()));
        }
        QCOMPARE(read_all(out), kEarlier);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out"});
    }
};

QTEST_APPLESS_MAIN(TestSafeWriter)
#include "test_safe_writer.moc"
