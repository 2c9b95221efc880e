// The step-through window under faults, with the fixture model on the offscreen platform:
//   - Stop during Play at 100 random moments (seeded): each time the window stops playing,
//     the engine goes idle, the panels hold a consistent chain of steps (each step continues
//     the one before and feeds the token it chose), and Step continues from there;
//   - saving the trace into a read-only folder and into a full one (a file-size limit with
//     SIGXFSZ ignored): the engine reports an error naming the file, the earlier file stays
//     byte-identical, no temporary file is left, and the window goes on stepping and saving;
//   - opening a model larger than the address-space limit (RLIMIT_AS lowered for a moment):
//     a clear error naming the file, and the window opens the fixture model afterwards.
#include "common/testing.h"
#include "gui_testing.h"
#include "gui/engine_worker.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/session_controller.h"
#include "gui/step_controls.h"
#include "widgets/trace_model.h"

#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>
#include <random>
#include <sys/resource.h>
#include <unistd.h>

using namespace lmscope;
using lmscope::testing::fixture_model;
using lmscope::testing::open_window;
using lmscope::testing::wait_for;
using lmscope::gui::EngineWorker;
using lmscope::gui::MainWindow;
using lmscope::gui::SessionController;

namespace {

constexpr int kStops = 100;

// One Step through the window; true when it reached the panels.
bool step_once(SessionController* s) {
    QSignalSpy applied(s, &SessionController::applied);
    s->step();
    return wait_for(applied);
}

QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Closes the window-modal error boxes a fault opened (they do not block: open(), not exec()).
void close_boxes(MainWindow& w) {
    for (QMessageBox* box : w.findChildren<QMessageBox*>()) box->close();
    QCoreApplication::processEvents();
}

// The panels' steps form one chain: each step continues the one before it on the current
// branch and was fed the token that one chose.
QString chain_problem(const widgets::TraceModel* m) {
    for (qint32 i = 1; i < m->stepCount(); ++i) {
        const widgets::StepView* s = m->step(i);
        const widgets::StepView* p = m->step(i - 1);
        if (!s || !p) return QStringLiteral("step %1 is missing").arg(i);
        if (s->phase == Phase::Prefill) continue;  // after a Reset
        if (s->parent != i - 1) return QStringLiteral("step %1 continues %2").arg(i).arg(s->parent);
        if (s->tokens.isEmpty() || s->tokens.front().id != p->logits.chosen)
            return QStringLiteral("step %1 was not fed the token step %2 chose").arg(i).arg(i - 1);
    }
    return {};
}

}  // namespace

class TestGuiFaults : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() {
        testing::use_test_settings("test_gui_faults");
    }
    void init() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(model, "the fixture model");
    }

    void stopDuringPlayAtRandomMoments() {
        // A long prompt: its prefill is the longest step, so some stops land inside it.
        QString prompt;
        for (int i = 0; i < 10; ++i) prompt += QStringLiteral("the quick brown fox jumps over the lazy dog ");
        auto w = open_window(&language_, prompt);
        QVERIFY(w);
        SessionController* s = w->session();
        s->controls()->setSpeed(20);
        QSignalSpy cancelled(s->worker(), &EngineWorker::stopped);
        QSignalSpy errors(s, &SessionController::engineError);
        std::mt19937 rng(4242);
        for (int stop = 0; stop < kStops; ++stop) {
            // Now and then from the start (the next Play prefills), well before the fixture's
            // 512-token context is full.
            if (stop % 10 == 9) {
                s->reset();
                QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
            }
            s->setPlaying(true);
            // Mostly within the step Play has just started, sometimes a few steps later.
            const int delay = rng() % 3 == 0 ? int(rng() % 150) : int(rng() % 4);
            QTest::qWait(delay);
            s->stop();
            QVERIFY(!s->isPlaying());
            QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
            QTest::qWait(60);  // the coalesced snapshot reaches the panels
            const QString problem = chain_problem(s->model());
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("stop %1: %2").arg(stop).arg(problem)));
            QVERIFY(w->isVisible());
        }
        QVERIFY2(errors.isEmpty(), errors.isEmpty() ? "" : qPrintable(QStringLiteral("%1 engine errors, the first: %2")
                                                                       .arg(errors.count())
                                                                       .arg(errors.first().first().toString())));
        // The session continues: Step adds a step that continues the current one.
        const qint32 steps = s->model()->stepCount();
        const qint32 current = s->model()->currentStep();
        QVERIFY(step_once(s));
        QCOMPARE(s->model()->stepCount(), steps + 1);
        // It continues the current step, or (when the last Stop cancelled the prefill after a
        // Reset, so the cache is empty) it is a new prefill.
        const widgets::StepView* next = s->model()->current();
        QVERIFY2(next->parent == current || (next->parent == -1 && next->phase == Phase::Prefill),
                 qPrintable(QStringLiteral("the step after the stops continues step %1 but the current one was %2")
                                .arg(next->parent)
                                .arg(current)));
        QVERIFY(chain_problem(s->model()).isEmpty());
        qInfo("%d stops during Play: %lld cancelled a running step, the others came between steps; "
              "%d steps in the window",
              kStops, qlonglong(cancelled.count()), int(s->model()->stepCount()));
    }

    void saveTraceFaults_data() {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("reason");
        QTest::newRow("read-only folder") << QStringLiteral("chmod") << QStringLiteral("Permission denied");
        QTest::newRow("file size limit") << QStringLiteral("fsize") << QStringLiteral("File too large");
    }

    void saveTraceFaults() {
        QFETCH(QString, fault);
        QFETCH(QString, reason);
        auto w = open_window(&language_, QStringLiteral("Save me"));
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(step_once(s));
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(QFile::setPermissions(tmp.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                      QFile::ReadOther | QFile::ExeOther));
        const QString folder = tmp.filePath(QStringLiteral("traces"));
        QVERIFY(QDir().mkdir(folder));
        const QString path = folder + QStringLiteral("/session.lmtrace");
        {
            QSignalSpy saved(s, &SessionController::traceSaved);
            s->saveTrace(path);
            QVERIFY(wait_for(saved));
        }
        const QByteArray earlier = read_all(path);
        QVERIFY(earlier.size() > 0);
        for (int i = 0; i < 12; ++i) QVERIFY(step_once(s));  // the next trace is several times larger

        QSignalSpy errors(s, &SessionController::engineError);
        bool as_nobody = false;
        rlimit old_fsize{};
        if (fault == QLatin1String("chmod")) {
            QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther));
            if (::geteuid() == 0) {  // root ignores permissions: save as nobody (every thread)
                if (::seteuid(65534) != 0) QSKIP("running as root and cannot drop to nobody");
                as_nobody = true;
            }
        } else {
            std::signal(SIGXFSZ, SIG_IGN);  // write() fails with EFBIG instead
            QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old_fsize), 0);
            rlimit small = old_fsize;
            small.rlim_cur = rlim_t(earlier.size() / 2);
            QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        }
        s->saveTrace(path);
        const bool reported = wait_for(errors);
        if (as_nobody) QCOMPARE(::seteuid(0), 0);
        if (fault == QLatin1String("fsize")) QCOMPARE(::setrlimit(RLIMIT_FSIZE, &old_fsize), 0);
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(reported);
        const QString message = errors.first().at(0).toString();
        QVERIFY2(message.contains(path), qPrintable(message));
        QVERIFY2(message.contains(reason), qPrintable(message));
        QCOMPARE(read_all(path), earlier);
        QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System),
                 QStringList{QStringLiteral("session.lmtrace")});

        // The window is alive: it steps and saves again.
        close_boxes(*w);
        QVERIFY(w->isVisible());
        QVERIFY(step_once(s));
        QSignalSpy saved(s, &SessionController::traceSaved);
        s->saveTrace(path);
        QVERIFY(wait_for(saved));
        QVERIFY(read_all(path).size() > earlier.size());
    }

    void modelOverTheAddressLimit() {
        auto w = open_window(&language_, QStringLiteral("Still here"));
        QVERIFY(w);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString big = tmp.filePath(QStringLiteral("big-model.gguf"));
        QVERIFY(QFile::copy(fixture_model(), big));
        QFile f(big);
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        // A valid model followed by zeros (sparse): the mapping needs more than the limit.
        rlimit old_as{};
        QCOMPARE(::getrlimit(RLIMIT_AS, &old_as), 0);
        QFile status(QStringLiteral("/proc/self/status"));
        QVERIFY(status.open(QIODevice::ReadOnly));
        qint64 vm_bytes = 0;
        for (const QByteArray& line : status.readAll().split('\n'))
            if (line.startsWith("VmSize:")) vm_bytes = line.mid(7).simplified().split(' ').value(0).toLongLong() * 1024;
        QVERIFY(vm_bytes > 0);
        const qint64 headroom = qint64(1) << 30;
        if (!f.resize(vm_bytes + 2 * headroom)) QSKIP("this file system cannot hold a large sparse file");

        QSignalSpy failed(w.get(), &MainWindow::loadFailed);
        QSignalSpy engine_errors(w->session(), &SessionController::engineError);
        rlimit low = old_as;
        low.rlim_cur = rlim_t(vm_bytes + headroom);
        QCOMPARE(::setrlimit(RLIMIT_AS, &low), 0);
        w->openFile(big);
        const bool reported = failed.count() > 0 || failed.wait(60000) || engine_errors.count() > 0;
        QCOMPARE(::setrlimit(RLIMIT_AS, &old_as), 0);
        QVERIFY(reported);
        const QString message = failed.count() ? failed.first().at(0).toString() : engine_errors.first().at(0).toString();
        QVERIFY2(message.contains(big), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("cannot map")), qPrintable(message));
        close_boxes(*w);
        QVERIFY(w->isVisible());

        // The window goes on: the fixture opens and steps.
        QSignalSpy loaded(w->session(), &SessionController::engineLoaded);
        w->openFile(fixture_model());
        QVERIFY(wait_for(loaded));
        QVERIFY(step_once(w->session()));
    }
};

QTEST_MAIN(TestGuiFaults)
#include "test_gui_faults.moc"
