// SafeWriter, the one writer of every user file, on each kind of thing an output path can
// name: absent, a regular file (replaced, its permission bits kept), a symbolic link (written
// through to its target, the link kept; a dangling one creates the target), a directory, a
// FIFO, a character device, a loop of links (refused with IoError naming the path and the
// reason), and an input of the command under another name (refused with UsageError); files the
// user may not write or does not own (refused); two outputs of one command that are one file.
// Every row checks that what was there before is untouched when refused and that no temporary
// file is left behind.
#include "util/error.h"
#include "util/safe_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

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

    // A file the user may not write is refused, not replaced (the rename needs only the
    // folder's permission), and so is one another user owns; root replacing another user's
    // file keeps its owner. Each row writes as `user` in a folder everyone may write, in a
    // child process (the test itself keeps root).
    void foreign_files_data() {
        QTest::addColumn<uint>("user");   // who writes
        QTest::addColumn<uint>("owner");  // whose file it is
        QTest::addColumn<uint>("mode");
        QTest::addColumn<QString>("error");  // empty: replaced
        QTest::newRow("root's read-only file, as nobody") << 65534u << 0u << 0644u << "you may not write it";
        QTest::newRow("one's own read-only file") << 65534u << 65534u << 0444u << "you may not write it";
        QTest::newRow("another user's world-writable file") << 65533u << 65534u << 0666u << "belongs to another user (uid 65534)";
        QTest::newRow("one's own file") << 65534u << 65534u << 0644u << "";
        QTest::newRow("another user's file, as root") << 0u << 65534u << 0644u << "";
    }
    void foreign_files() {
        QFETCH(uint, user);
        QFETCH(uint, owner);
        QFETCH(uint, mode);
        QFETCH(QString, error);
        if (::geteuid() != 0) QSKIP("needs root, to own files as other users and to become them");
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QCOMPARE(::chmod(tmp.path().toLocal8Bit().constData(), 0777), 0);
        const QString out = tmp.filePath("out");
        write(out, kEarlier);
        const QByteArray path = out.toLocal8Bit();
        QCOMPARE(::chown(path.constData(), owner, owner), 0);
        QCOMPARE(::chmod(path.constData(), mode), 0);

        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {  // 0: as the row says, 1: replaced when it should not be, 2: another error
            if (user != 0 && (::setgid(user) != 0 || ::setuid(user) != 0)) ::_exit(3);
            try {
                write_file_safely(path.toStdString(), kNew.constData(), size_t(kNew.size()));
            } catch (const IoError& e) {
                ::_exit(!error.isEmpty() && std::string(e.what()).find(path.toStdString() + ": " + error.toStdString()) == 0 ? 0 : 2);
            }
            ::_exit(error.isEmpty() ? 0 : 1);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QCOMPARE(read_all(out), error.isEmpty() ? kNew : kEarlier);
        struct stat st {};
        QCOMPARE(::stat(path.constData(), &st), 0);
        QCOMPARE(uint(st.st_uid), error.isEmpty() ? (user == 0 ? owner : user) : owner);
        QCOMPARE(uint(st.st_mode & 07777), mode);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"out"});
    }

    // Two outputs of one command naming one file (dump --logits out.f32 --attention ./out.f32)
    // are refused however they name it; different files are not.
    void distinct_outputs_data() {
        QTest::addColumn<QString>("first");  // relative to the folder, which holds file "a"
        QTest::addColumn<QString>("second");
        QTest::addColumn<bool>("same");
        QTest::newRow("one new file, two spellings") << "new.f32" << "./sub/../new.f32" << true;
        QTest::newRow("one existing file, two spellings") << "a" << "sub/../a" << true;
        QTest::newRow("a link and its file") << "a" << "link-to-a" << true;
        QTest::newRow("a hard link and its file") << "hard-a" << "a" << true;
        QTest::newRow("a dangling link and its target") << "dangling" << "new.f32" << true;
        QTest::newRow("two new files") << "new.f32" << "other.f32" << false;
        QTest::newRow("one name in two folders") << "a" << "sub/a" << false;
    }
    void distinct_outputs() {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(bool, same);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QDir dir(tmp.path());
        QVERIFY(dir.mkdir("sub"));
        write(dir.filePath("a"), kEarlier);
        write(dir.filePath("sub/a"), kEarlier);
        QVERIFY(QFile::link("a", dir.filePath("link-to-a")));
        QCOMPARE(::link(dir.filePath("a").toLocal8Bit().constData(), dir.filePath("hard-a").toLocal8Bit().constData()), 0);
        QVERIFY(QFile::link("new.f32", dir.filePath("dangling")));
        const std::vector<std::pair<std::string, std::string>> outputs = {
            {"--logits", dir.filePath(first).toStdString()}, {"--attention", dir.filePath(second).toStdString()}};
        try {
            check_distinct_outputs(outputs);
            QVERIFY2(!same, "the same file was accepted twice");
        } catch (const UsageError& e) {
            QVERIFY2(same, e.what());
            const std::string want = "--attention: " + outputs[1].second + " is the same file as --logits " + outputs[0].second;
            QVERIFY2(std::string(e.what()).find(want) == 0, e.what());
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
