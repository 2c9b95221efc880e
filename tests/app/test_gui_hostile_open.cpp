// The GUI's open paths on the inconsistent and corrupted files of tests/common/hostile_files
// (offscreen): File > Open on each bad model emits loadFailed with the loader's message (file,
// field, reason) and shows it in an error box while the previous model stays on screen;
// Open Trace on each corrupted trace reports the error in the engine's box while the trace
// replayed before stays usable. Traces whose sizes disagree are refused the same way; a very
// long trace and a model with a 1 MiB name open and step. The window survives every case.
#include "common/hostile_files.h"
#include "common/testing.h"
#include "gui_testing.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/model_document.h"
#include "gui/session_controller.h"
#include "trace/trace_file.h"
#include "widgets/attention_heatmap.h"
#include "widgets/format.h"
#include "widgets/metadata_model.h"
#include "widgets/spec_panel.h"
#include "widgets/tensor_table_model.h"
#include "widgets/trace_model.h"

#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using lmscope::testing::wait_for;
using namespace lmscope::testing::hostile;
using lmscope::gui::MainWindow;
using lmscope::gui::SessionController;

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

// The saved trace `bytes` with its steps edited by `edit` (the core's reader still accepts it).
Bytes edited_trace(const Bytes& bytes, const std::function<void(std::vector<trace::StepTrace>&)>& edit) {
    const trace::SessionTrace base = trace::parse_trace(bytes.data(), bytes.size(), "base");
    std::vector<trace::StepTrace> steps = base.steps();
    edit(steps);
    trace::SessionTrace out;
    out.model = base.model;
    out.tokenizer = base.tokenizer;
    out.sampling = base.sampling;
    out.capture = base.capture;
    out.pieces = base.pieces;
    for (trace::StepTrace& st : steps) out.restore(std::move(st));
    return trace::serialize_trace(out);
}

// Step `s` without attention rows (its shape stays).
void drop_rows(trace::StepTrace& s) {
    s.attention.n_rows = 0;
    s.attention.planes.clear();
    s.attention.weights.clear();
    s.attention.summaries.clear();
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
        QSignalSpy engine(w.session(), &SessionController::engineLoaded);
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
        SessionController* s = w.session();
        QSignalSpy opened(s, &SessionController::traceOpened);
        s->openTrace(trace_);
        QVERIFY(wait_for(opened));
        QVERIFY(s->isReplay());

        QSignalSpy error(s, &SessionController::engineError);
        s->openTrace(path);
        QVERIFY(wait_for(error));
        const QString message = error.front().front().toString();
        QVERIFY2(contains_all(message, path, c.field, c.reason), qPrintable(message));
        QCOMPARE(dismiss_box("engineErrorBox"), message);
        QTRY_VERIFY(!QApplication::activeModalWidget());

        // The trace opened before still replays.
        QCOMPARE(opened.count(), 1);
        QVERIFY(s->isReplay());
        QSignalSpy applied(s, &SessionController::applied);
        s->step();
        QVERIFY(wait_for(applied));
        QCOMPARE(s->model()->stepCount(), 1);
    }

    // Traces whose sizes disagree, which the core's reader lets through but the panels could only
    // hide, are refused at open with the file, the field and the reason.
    void disagreeingTrace_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("prefill rows not its tokens") << 0 << "steps[0].attention.n_rows" << "1 rows, but the step feeds";
        QTest::newRow("plane rows before the step") << 1 << "step.3.planes[0]" << "outside the step's";
        QTest::newRow("attention shape not the model's") << 2 << "steps[1].attention" << "but the model has 3 of 8";
    }
    void disagreeingTrace() {
        QFETCH(int, which);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        LMSCOPE_REQUIRE_FILE(good_.toStdString(), "the shared test data");
        const QString path = dir_.filePath(QStringLiteral("disagreeing %1.lmtrace").arg(which));
        write_file(path.toStdString(), edited_trace(testing::read_bytes(trace_.toStdString()), [&](std::vector<trace::StepTrace>& steps) {
            trace::AttentionTrace& a = steps[which == 0 ? 0 : which == 1 ? 3 : 1].attention;
            if (which == 0) {  // one row of summaries for a prefill of several tokens
                a.n_rows = 1;
                a.planes.clear();
                a.weights.clear();
                a.summaries.resize(size_t(a.n_layer) * size_t(a.n_head));
                for (HeadSummary& h : a.summaries) h.argmax_key = 0;
            } else if (which == 1) {  // the decode step's one plane holds the row before it
                const trace::PlaneRef p = a.planes.front();
                a.planes = {trace::PlaneRef{p.at, p.first_row_pos - 1, 1, 0}};
                a.weights.assign(size_t(p.first_row_pos), uint16_t(0));
            } else {  // one head recorded where the model has eight
                drop_rows(steps[1]);
                a.n_head = 1;
            }
        }));

        MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy error(w.session(), &SessionController::engineError);
        w.session()->openTrace(path);
        QVERIFY(wait_for(error));
        const QString message = error.front().front().toString();
        QVERIFY2(message.contains(path) && message.contains(field) && message.contains(reason), qPrintable(message));
        QCOMPARE(dismiss_box("engineErrorBox"), message);
    }

    // A trace of one 45,000-token prefill (262 KB; its attention matrix would take 8.1 GB) opens
    // and replays: the heatmap holds 4 × 4 blocks within the trace's budget.
    void longTrace() {
        LMSCOPE_REQUIRE_FILE(good_.toStdString(), "the shared test data");
        constexpr int32_t kLong = 45000;
        const QString path = dir_.filePath(QStringLiteral("long.lmtrace"));
        write_file(path.toStdString(), edited_trace(testing::read_bytes(trace_.toStdString()), [](std::vector<trace::StepTrace>& steps) {
            trace::StepTrace s = steps.front();
            drop_rows(s);
            for (size_t i = s.tokens.size(); i < size_t(kLong); ++i) s.tokens.push_back(s.tokens[i % 4]);
            s.kv.tokens = kLong;
            steps = {s};
        }));
        auto w = testing::open_replay(&language_, path);
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(testing::step_and_wait(s));
        QCOMPARE(s->model()->sequenceLength(), kLong);
        const widgets::AttentionMatrix& m = testing::panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention)->matrix();
        QCOMPARE(m.n, kLong);
        QCOMPARE(m.block, 4);
        QVERIFY(quint64(m.weights.size()) * sizeof(float) <= widgets::TraceModel::kMatrixBytes);
        QVERIFY(w->isVisible());
    }

    // A model whose general.name is 1 MiB: the window opens it and steps without growing past the
    // screen (the name is elided, whole in the tooltip), and what it saves fits the screen again.
    void longModelName() {
        LMSCOPE_REQUIRE_FILE(good_.toStdString(), "the shared test data");
        const QString path = dir_.filePath(QStringLiteral("long name.gguf"));
        GgufEdit edit(gguf::File::open(good_.toStdString()));
        edit.set("general.name", gguf::Value::string(std::string(size_t(1) << 20, 'N')));
        edit.set(std::string(size_t(1) << 20, 'K'), gguf::Value::string("a 1 MiB key"));
        write_file(path.toStdString(), edit.bytes());
        {
            auto w = testing::open_window(&language_, QStringLiteral("A B C"), path);
            QVERIFY(w);
            QVERIFY(testing::step_and_wait(w->session()));
            QVERIFY2(w->minimumSizeHint().width() < 1600, qPrintable(QString::number(w->minimumSizeHint().width())));
            QVERIFY2(w->width() < 1600, qPrintable(QString::number(w->width())));
            QVERIFY(w->specPanel()->subtitle().size() < 400);
            QVERIFY(w->specPanel()->findChild<QLabel*>(QStringLiteral("subtitle"))->toolTip().contains(QStringLiteral("name in the file: NNNN")));
            const widgets::MetadataModel* meta = w->metadataModel();
            const auto key = std::find_if(meta->rows().begin(), meta->rows().end(),
                                          [](const widgets::MetadataRow& r) { return r.key.startsWith(QStringLiteral("KKKK")); });
            QVERIFY(key != meta->rows().end());
            QVERIFY(key->key.size() <= 120);
            QVERIFY(key->key_tip.startsWith(QStringLiteral("KKKK")) && key->key_tip.size() < 2 * widgets::kTipChars);
            QVERIFY(w->close());
        }
        MainWindow again(&language_);
        QVERIFY2(testing::within_screen(again), qPrintable(QStringLiteral("%1 x %2").arg(again.width()).arg(again.height())));
    }

private:
    QTemporaryDir dir_;
    QString good_;
    QString trace_;
};

QTEST_MAIN(TestGuiHostileOpen)
#include "test_gui_hostile_open.moc"
