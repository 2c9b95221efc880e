// The step-through window with the fixture model on the offscreen platform: Space prefills
// and then decodes (the token strip, timeline and model follow), Play and Stop, a logits
// click forces a token, a timeline click rewinds, a saved trace replays in a window without
// any model, and closing the window while playing is clean.
#include "common/testing.h"
#include "gui_testing.h"
#include "tools/layout_check.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/session_controller.h"
#include "gui/step_controls.h"
#include "widgets/kv_chart.h"
#include "widgets/logits_view.h"
#include "widgets/timeline.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

using namespace lmscope;
using lmscope::testing::fixture_model;
using lmscope::testing::open_window;
using lmscope::testing::panel_widget;
using lmscope::testing::wait_for;
using lmscope::gui::MainWindow;
using lmscope::gui::SessionController;

namespace {

// Presses `key` on the token strip (focus outside the prompt editor) and waits until the
// step has reached the panels.
bool press_and_wait(MainWindow& w, Qt::Key key) {
    QSignalSpy applied(w.session(), &SessionController::applied);
    QTest::keyClick(panel_widget<widgets::TokenStrip>(w.session(), gui::Panel::Tokens), key);
    return wait_for(applied);  // a replay step applies at once, a live one later
}

}  // namespace

class TestGuiStepFlow : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() {
        testing::use_test_settings("test_gui_step_flow");
    }
    void init() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(model, "the fixture model");
    }

    void spaceStepsThroughThePanels() {
        auto w = open_window(&language_, QStringLiteral("Hello world"));
        QVERIFY(w);
        SessionController* s = w->session();
        QCOMPARE(s->model()->stepCount(), 0);
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QCOMPARE(QApplication::focusWidget(), panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens));  // Space steps from the start
        QVERIFY(press_and_wait(*w, Qt::Key_Space));  // prefill
        QCOMPARE(s->model()->stepCount(), 1);
        const qint32 prompt_tokens = s->model()->sequenceLength();
        QVERIFY(prompt_tokens > 1);
        QCOMPARE(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens)->chipCount(), prompt_tokens);
        QVERIFY(!panel_widget<widgets::Timeline>(s, gui::Panel::Timeline)->stepRect(0).isEmpty());
        QVERIFY(press_and_wait(*w, Qt::Key_Space));  // one decode
        QCOMPARE(s->model()->stepCount(), 2);
        QCOMPARE(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens)->chipCount(), prompt_tokens + 1);
        QVERIFY(!panel_widget<widgets::Timeline>(s, gui::Panel::Timeline)->stepRect(1).isEmpty());
        QCOMPARE(s->model()->current()->tokens.front().id, s->model()->step(0)->logits.chosen);
        QVERIFY(s->model()->current()->kv.bytes_total > s->model()->step(0)->kv.bytes_total);
    }

    void playThenStop() {
        auto w = open_window(&language_, QStringLiteral("A B C D"));
        QVERIFY(w);
        SessionController* s = w->session();
        s->controls()->setSpeed(20);
        QTest::keyClick(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens), Qt::Key_P);
        QVERIFY(s->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(s->model()->stepCount() >= 4, 60000);
        QTest::keyClick(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens), Qt::Key_Escape);
        QVERIFY(!s->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
        QTest::qWait(100);  // a late snapshot reaches the model
        const qint32 steps = s->model()->stepCount();
        QVERIFY(press_and_wait(*w, Qt::Key_Space));  // the session continues
        QCOMPARE(s->model()->stepCount(), steps + 1);
        QCOMPARE(s->model()->current()->parent, steps - 1);
    }

    // The Tokens panel follows the newest token (issue 35: after Play to 86 tokens and after a
    // 2,163-token prompt only the first rows showed, with no scroll bar): its chip is in view,
    // and the chips scroll.
    void newestTokenStaysInView_data() {
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<int>("play_to");  // 0: the prefill only
        QTest::newRow("Play to 86 tokens") << QStringLiteral("The capital of France is") << 86;
        QString long_prompt;
        for (int i = 0; i < 20; ++i) long_prompt += QStringLiteral("Line %1 of a long prompt. ").arg(i);
        QTest::newRow("a long prompt") << long_prompt << 0;
    }
    void newestTokenStaysInView() {
        QFETCH(QString, prompt);
        QFETCH(int, play_to);
        auto w = open_window(&language_, prompt);
        QVERIFY(w);
        w->resize(1280, 720);
        SessionController* s = w->session();
        QVERIFY(testing::step_and_wait(s));
        if (play_to > 0) {
            s->controls()->setSpeed(20);
            s->setPlaying(true);
            QTRY_VERIFY_WITH_TIMEOUT(s->model()->sequenceLength() >= play_to || !s->isPlaying(), 120000);
            s->setPlaying(false);
            QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
            QTest::qWait(200);  // the last snapshot reaches the panels
        }
        QVERIFY2(s->model()->sequenceLength() >= 80, qPrintable(QString::number(s->model()->sequenceLength())));
        QTRY_VERIFY2(tools::hidden_newest_token(w.get()).isEmpty(), qPrintable(tools::hidden_newest_token(w.get()).join(QLatin1Char('\n'))));
        for (QSize size : {QSize(1920, 1080), QSize(1280, 720)}) {  // the lines laid out again
            w->resize(size);
            QTRY_VERIFY2(tools::hidden_newest_token(w.get()).isEmpty(), qPrintable(tools::hidden_newest_token(w.get()).join(QLatin1Char('\n'))));
        }
        auto* strip = panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens);
        QCOMPARE(strip->height(), strip->heightForWidth(strip->width()));  // all of it scrolls into view
    }

    void logitsClickForcesAToken() {
        auto w = open_window(&language_, QStringLiteral("Once upon"));
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(press_and_wait(*w, Qt::Key_Space));
        const auto& before = s->model()->current()->logits.before();
        QVERIFY(before.size() >= 2);
        QSignalSpy forced(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits), &widgets::LogitsView::forceToken);
        QSignalSpy applied(s, &SessionController::applied);
        QTest::mouseClick(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->plot(), Qt::LeftButton, {}, panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->rowCenter(1).toPoint());
        QCOMPARE(forced.count(), 1);
        const qint32 id = forced.first().at(0).toInt();
        QVERIFY(wait_for(applied));
        QCOMPARE(s->model()->stepCount(), 2);
        QCOMPARE(s->model()->current()->tokens.front().id, id);
        QCOMPARE(s->model()->current()->tokens.front().origin, Choice::Forced);
    }

    // A timeline click rewinds; stepping on the same token walks on to the step made before
    // (no duplicate branch); forcing another token starts a branch, which is reused in turn.
    void timelineClickRewinds() {
        auto w = open_window(&language_, QStringLiteral("Red green blue"));
        QVERIFY(w);
        SessionController* s = w->session();
        for (int i = 0; i < 4; ++i) QVERIFY(press_and_wait(*w, Qt::Key_Space));
        QCOMPARE(s->model()->stepCount(), 4);
        auto rewind_to_1 = [&] {
            const QRect r = panel_widget<widgets::Timeline>(s, gui::Panel::Timeline)->stepRect(1);
            QSignalSpy applied(s, &SessionController::applied);
            QTest::mouseClick(panel_widget<widgets::Timeline>(s, gui::Panel::Timeline)->canvas(), Qt::LeftButton, {}, r.center());
            return !r.isEmpty() && wait_for(applied) && s->model()->currentStep() == 1;
        };
        QVERIFY(rewind_to_1());
        QVERIFY(press_and_wait(*w, Qt::Key_Space));  // the same token as before
        QCOMPARE(s->model()->stepCount(), 4);
        QCOMPARE(s->model()->currentStep(), 2);
        QCOMPARE(s->model()->leaves().size(), 1);
        for (int round = 0; round < 2; ++round) {  // a new branch, then the same one again
            QVERIFY(rewind_to_1());
            const widgets::LogitsView* logits = panel_widget<widgets::LogitsView>(s, gui::Panel::Logits);
            qint32 row = 0;
            while (row < logits->rows().size() && row == logits->chosenRow()) ++row;
            QVERIFY(row < logits->rows().size());
            QSignalSpy applied(s, &SessionController::applied);
            QTest::mouseClick(logits->plot(), Qt::LeftButton, {}, logits->rowCenter(row).toPoint());
            QVERIFY(wait_for(applied));
            QCOMPARE(s->model()->stepCount(), 5);
            QCOMPARE(s->model()->current()->parent, 1);
            QCOMPARE(s->model()->leaves().size(), 2);
        }
    }

    void saveThenReplayWithoutModel() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("session.lmtrace"));
        QVector<qint32> fed;  // the first token each step fed
        {
            auto w = open_window(&language_, QStringLiteral("The sky is"));
            QVERIFY(w);
            for (int i = 0; i < 3; ++i) QVERIFY(press_and_wait(*w, Qt::Key_Space));
            for (const widgets::StepView& v : w->session()->model()->steps()) fed << v.tokens.front().id;
            QSignalSpy saved(w->session(), &SessionController::traceSaved);
            w->session()->saveTrace(path);
            QVERIFY(wait_for(saved));
            QVERIFY(QFileInfo::exists(path));
        }
        MainWindow replay(&language_);  // no model opened
        replay.show();
        QVERIFY(QTest::qWaitForWindowActive(&replay));
        SessionController* s = replay.session();
        QVERIFY(!s->hasEngine());
        QSignalSpy opened(s, &SessionController::traceOpened);
        s->openTrace(path);
        QVERIFY(wait_for(opened));
        QVERIFY(s->isReplay());
        for (int i = 0; i < 3; ++i) QVERIFY(press_and_wait(replay, Qt::Key_Space));
        QCOMPARE(s->model()->stepCount(), fed.size());
        for (qint32 i = 0; i < s->model()->stepCount(); ++i) QCOMPARE(s->model()->step(i)->tokens.front().id, fed[i]);
        QVERIFY(press_and_wait(replay, Qt::Key_Space));  // past the end: stays
        QCOMPARE(s->model()->stepCount(), fed.size());
    }

    // File > Export writes the chart clicked last: the KV chart's numbers, one row per step.
    void exportsTheFocusedChart() {
        auto w = open_window(&language_, QStringLiteral("Export me"));
        QVERIFY(w);
        SessionController* s = w->session();
        for (int i = 0; i < 3; ++i) QVERIFY(press_and_wait(*w, Qt::Key_Space));
        s->dock(gui::Panel::KvCache)->raise();  // in front of the docks it shares tabs with
        testing::settle();
        QTest::mouseClick(panel_widget<widgets::KvChart>(s, gui::Panel::KvCache)->plot(), Qt::LeftButton, {}, QPoint(10, 10));
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("kv.csv"));
        QString error;
        QVERIFY2(w->exportFocusedChart(csv, &error), qPrintable(error));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 3);  // header, then one row per step
        const QString png = dir.filePath(QStringLiteral("kv.png"));
        QVERIFY2(w->exportFocusedChart(png, &error), qPrintable(error));
        QVERIFY(QFileInfo(png).size() > 0);
        QVERIFY(!w->exportFocusedChart(dir.filePath(QStringLiteral("kv.bmp")), &error));
        QVERIFY2(error.contains(QStringLiteral("kv.bmp")) && error.contains(QStringLiteral(".png, .pdf, .csv, .json")),
                 qPrintable(error));
    }

    // The step-through controls switch to Chinese with the rest of the window.
    void controlsSwitchToChinese() {
        MainWindow w(&language_);
        SessionController* s = w.session();
        QCOMPARE(s->stepAction()->text(), QStringLiteral("Step"));
        QVERIFY(language_.apply(QStringLiteral("zh_CN")));
        QTRY_COMPARE(s->stepAction()->text(), QStringLiteral("单步"));
        QCOMPARE(s->playAction()->text(), QStringLiteral("播放"));
        QCOMPARE(w.stageAction()->text(), QStringLiteral("讲解模式(&S)"));
        QVERIFY(language_.apply(QStringLiteral("en")));
        QTRY_COMPARE(s->stepAction()->text(), QStringLiteral("Step"));
    }

    void closingWhilePlayingIsClean() {
        auto w = open_window(&language_, QStringLiteral("Keep going"));
        QVERIFY(w);
        SessionController* s = w->session();
        s->controls()->setSpeed(20);
        s->setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(s->model()->stepCount() >= 2, 60000);
        QVERIFY(w->close());
        QVERIFY(!s->worker());  // the engine thread has ended
        w.reset();
    }
};

QTEST_MAIN(TestGuiStepFlow)
#include "test_gui_step_flow.moc"
