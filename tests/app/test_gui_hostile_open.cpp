// The GUI's open paths on the inconsistent and corrupted files of tests/common/hostile_files
// (offscreen): File > Open on each bad model emits loadFailed with the loader's message (file,
// field, reason) and shows it in an error box while the previous model stays on screen;
// Open Trace on each corrupted trace reports the error in the engine's box while the trace
// replayed before stays usable. The window survives every case.
#include "common/hostile_files.h"
#include "common/testing.h"
#include "gui_testing.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/model_document.h"
#include "gui/session_view.h"
#include "widgets/spec_panel.h"
#include "widgets/tensor_table_model.h"
#include "widgets/trace_model.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using lmscope::testing::wait_for;
using namespace lmscope::testing::hostile;
using lmscope::gui::MainWindow;
using lmscope::gui::SessionView;

namespace {

// The informative text of the message box `object_name` the window shows, which is then
// dismissed with OK; "<no box>" when none comes.
QString dismiss_box(const char* object_name) {
    QMessageBox* box = nullptr;
    for (int waited = 0; !box && waited < 10000; waited += 50) {
        box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) QTest::qWait(50);
    }
    if (!box || box->objectName() != QLatin1String(object_name)) return QStringLiteral("<no box>");
    const QString text = box->informativeText();
    box->button(QMessageBox::Ok)->click();
    return text;
}

bool contains_all(const QString& message, const QString& path, const std::string& field, const std::string& reason) {
    return message.contains(path) && message.contains(QString::fromStdString(field)) &&
           message.contains(QString::fromStdString(reason));
}

}  // namespace

class TestGuiHostileOpen : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() {
        testing::use_test_settings("test_gui_hostile_open");
        QVERIFY(dir_.isValid());
        const std::string base = testing::testdata_file(kModelBase);
        if (base.empty()) return;
        good_ = QString::fromStdString(base);
        trace_ = dir_.filePath(QStringLiteral("real.lmtrace"));
        write_file(trace_.toStdString(), real_trace(base));
    }
    void init() { QSettings().clear(); }

    void badModel_data() {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < model_cases().size(); ++i) QTest::newRow(model_cases()[i].name.c_str()) << int(i);
    }
    void badModel() {
        QFETCH(int, index);
        LMSCOPE_REQUIRE_FILE(good_.toStdString(), "the shared test data");
        const GgufCase& c = model_cases()[size_t(index)];
        const QString path = dir_.filePath(QStringLiteral("bad model %1.gguf").arg(index));
        GgufEdit edit(gguf::File::open(good_.toStdString()));
        c.edit(edit);
        write_file(path.toStdString(), edit.bytes());

        MainWindow w(&language_);
        w.show();
        QSignalSpy changed(w.document(), &gui::ModelDocument::modelChanged);
        QSignalSpy engine(w.session(), &SessionView::engineLoaded);
        w.openFile(good_);
        QVERIFY(wait_for(changed));
        QVERIFY(wait_for(engine));  // the window has settled on the good model
        const int rows = w.tensorModel()->rowCount();
        const QString title = w.windowTitle();
        const QString spec_title = w.specPanel()->title();

        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openFile(path);
        QVERIFY(wait_for(failed));
        const QString message = failed.front().front().toString();
        QVERIFY2(contains_all(message, path, c.field, c.reason), qPrintable(message));
        QVERIFY2(!message.contains('\n'), qPrintable(message));
        QCOMPARE(dismiss_box("loadErrorBox"), message);
        QTRY_VERIFY(!QApplication::activeModalWidget());

        // The previous model is still shown (and runs in the engine), and the window still
        // opens files.
        QCOMPARE(changed.count(), 1);
        QCOMPARE(engine.count(), 1);
        QVERIFY(w.session()->hasEngine());
        QCOMPARE(w.document()->model()->path, good_);
        QCOMPARE(w.tensorModel()->rowCount(), rows);
        QCOMPARE(w.windowTitle(), title);
        QCOMPARE(w.specPanel()->title(), spec_title);
        w.openFile(good_);
        QVERIFY(wait_for(changed, 2));
    }

    void badTrace_data() {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < trace_cases().size(); ++i) QTest::newRow(trace_cases()[i].name.c_str()) << int(i);
    }
    void badTrace() {
        QFETCH(int, index);
        LMSCOPE_REQUIRE_FILE(good_.toStdString(), "the shared test data");
        const BytesCase& c = trace_cases()[size_t(index)];
        const QString path = dir_.filePath(QStringLiteral("bad trace %1.lmtrace").arg(index));
        write_file(path.toStdString(), c.make(testing::read_bytes(trace_.toStdString())));

        MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        SessionView* s = w.session();
        QSignalSpy opened(s, &SessionView::traceOpened);
        s->openTrace(trace_);
        QVERIFY(wait_for(opened));
        QVERIFY(s->isReplay());

        QSignalSpy error(s, &SessionView::engineError);
        s->openTrace(path);
        QVERIFY(wait_for(error));
        const QString message = error.front().front().toString();
        QVERIFY2(contains_all(message, path, c.field, c.reason), qPrintable(message));
        QCOMPARE(dismiss_box("engineErrorBox"), message);
        QTRY_VERIFY(!QApplication::activeModalWidget());

        // The trace opened before still replays.
        QCOMPARE(opened.count(), 1);
        QVERIFY(s->isReplay());
        QSignalSpy applied(s, &SessionView::applied);
        s->step();
        QVERIFY(wait_for(applied));
        QCOMPARE(s->model()->stepCount(), 1);
    }

private:
    QTemporaryDir dir_;
    QString good_;
    QString trace_;
};

QTEST_MAIN(TestGuiHostileOpen)
#include "test_gui_hostile_open.moc"
