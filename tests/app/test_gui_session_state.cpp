// Every panel shows the session as it is now: after Reset, a prompt edited after the first
// Step, a rewind, stepping again on the same token after a rewind, reopening the model and
// opening it after a replay, each panel's view state (chips, heatmap, KV chart, logits,
// timeline, status bar, window title) equals the session's; a language switch retranslates
// every chart at once, both ways; new sampler settings pick the pending token again and the
// logits panel shows that pick at once; a KV type change asks, and re-runs the session on the
// new cache when told to. Play turns into Pause; the Labs window's shortcuts work while
// it has the focus; a token is forced by clicking its label as well as its bar. The fixture
// model on the offscreen platform.
#include "common/testing.h"
#include "gui_testing.h"
#include "gui/labs/lab_window.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/sampling_panel.h"
#include "gui/session_controller.h"
#include "gui/step_controls.h"
#include "trace/trace_file.h"
#include "util/cpu_info.h"
#include "widgets/attention_heatmap.h"
#include "widgets/kv_chart.h"
#include "widgets/logits_view.h"
#include "widgets/timeline.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

using namespace lmscope;
using lmscope::gui::MainWindow;
using lmscope::gui::SessionController;
using lmscope::testing::open_window;
using lmscope::testing::panel_widget;
using lmscope::testing::step_and_wait;
using lmscope::testing::wait_for;

namespace {

// An English window on `prompt` after `steps` steps (the prefill first); null when one failed.
std::unique_ptr<MainWindow> english_window_after(gui::Language* language, const QString& prompt, int steps) {
    if (!language->apply(QStringLiteral("en"))) return nullptr;
    auto w = open_window(language, prompt);
    if (!w) return nullptr;
    for (int i = 0; i < steps; ++i)
        if (!step_and_wait(w->session())) return nullptr;
    return w;
}

// Runs `action` and waits until its snapshot reached the panels.
template <class F> bool apply_and_wait(SessionController* s, F&& action) {
    QSignalSpy applied(s, &SessionController::applied);
    action();
    return wait_for(applied);
}

}  // namespace

class TestGuiSessionState : public QObject {
    Q_OBJECT
    gui::Language language_;

    // The panels agree with each other and show `tokens` positions (0: an empty session).
    static void comparePanels(MainWindow& w, qint32 tokens) {
        SessionController* s = w.session();
        const widgets::TraceModel* m = s->model();
        QCOMPARE(m->sequenceLength(), tokens);
        QCOMPARE(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens)->chipCount(), tokens);
        QCOMPARE(panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention)->matrix().n, tokens);
        QCOMPARE(panel_widget<widgets::KvChart>(s, gui::Panel::KvCache)->viewState().tokens.size(), qsizetype(m->path().size()));
        if (tokens > 0) QCOMPARE(qint32(panel_widget<widgets::KvChart>(s, gui::Panel::KvCache)->viewState().tokens.back()), tokens);
        QCOMPARE(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->rows().isEmpty(), tokens == 0);
        QCOMPARE(panel_widget<widgets::Timeline>(s, gui::Panel::Timeline)->stepRect(m->currentStep()).isEmpty(), tokens == 0);
        const QString status = s->statusText(gui::StatusField::Tokens);
        QVERIFY2(status.startsWith(QString::number(tokens) + QLatin1Char(' ')), qPrintable(status));
        QVERIFY2(!s->statusText(gui::StatusField::Source).startsWith(QStringLiteral("Replay")), qPrintable(s->statusText(gui::StatusField::Source)));
        QVERIFY2(!w.windowTitle().contains(QStringLiteral("replay")), qPrintable(w.windowTitle()));
    }

private slots:
    void initTestCase() { testing::use_test_settings("test_gui_session_state"); }
    void init() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(model, "the fixture model");
    }

    void panelsFollowTheSession_data() {
        QTest::addColumn<QString>("action");
        QTest::addColumn<qint32>("generated");  // tokens after the prompt; -1: the session is empty
        QTest::addColumn<qint32>("steps");      // steps in the trace afterwards
        QTest::newRow("reset") << "reset" << -1 << 0;  // a new session: no steps kept
        QTest::newRow("edited prompt") << "edit" << 0 << 4;
        QTest::newRow("rewind") << "rewind" << 1 << 3;
        QTest::newRow("same token after a rewind") << "rewindStep" << 2 << 3;
        QTest::newRow("model reopened") << "reopen" << -1 << 0;
        QTest::newRow("model after a replay") << "replayThenModel" << -1 << 0;
        QTest::newRow("back to the live model") << "replayThenLive" << -1 << 0;
    }
    void panelsFollowTheSession() {
        QFETCH(QString, action);
        QFETCH(qint32, generated);
        QFETCH(qint32, steps);
        auto w = open_window(&language_, QStringLiteral("Red green blue"));
        QVERIFY(w);
        SessionController* s = w->session();
        for (int i = 0; i < 3; ++i) QVERIFY(step_and_wait(s));  // prefill and two decodes
        const qint32 prompt = s->model()->step(0)->tokens.size();
        QTemporaryDir dir;
        if (action == QLatin1String("reset")) {
            QVERIFY(apply_and_wait(s, [s] { s->reset(); }));
        } else if (action == QLatin1String("edit")) {
            s->controls()->setPrompt(QStringLiteral("Yellow"));
            QVERIFY(step_and_wait(s));  // a new run from the edited prompt
            QCOMPARE(s->model()->current()->parent, -1);
        } else if (action == QLatin1String("rewind")) {
            QVERIFY(apply_and_wait(s, [s] { s->rewindTo(1); }));
        } else if (action == QLatin1String("rewindStep")) {
            QVERIFY(apply_and_wait(s, [s] { s->rewindTo(1); }));
            QVERIFY(step_and_wait(s));  // the same token again: the step already made is reused
            QCOMPARE(s->model()->currentStep(), 2);
            QCOMPARE(s->model()->leaves().size(), 1);
        } else if (action == QLatin1String("reopen") || action.startsWith(QLatin1String("replayThen"))) {
            QVERIFY(!s->liveAction()->isEnabled());  // live already
            if (action.startsWith(QLatin1String("replayThen"))) {
                const QString path = dir.filePath(QStringLiteral("t.lmtrace"));
                QSignalSpy saved(s, &SessionController::traceSaved);
                s->saveTrace(path);
                QVERIFY(wait_for(saved));
                QSignalSpy opened(s, &SessionController::traceOpened);
                s->openTrace(path);
                QVERIFY(wait_for(opened));
                QVERIFY(step_and_wait(s));
                QVERIFY(s->statusText(gui::StatusField::Source).startsWith(QStringLiteral("Replay")));
                QVERIFY(s->liveAction()->isEnabled());
            }
            QSignalSpy loaded(s, &SessionController::engineLoaded);
            if (action == QLatin1String("replayThenLive")) s->liveAction()->trigger();
            else w->openFile(testing::fixture_model());
            QVERIFY(wait_for(loaded));
            QVERIFY(!s->liveAction()->isEnabled());
        }
        QCOMPARE(s->model()->stepCount(), steps);
        const qint32 shown_prompt = generated < 0 ? 0 : s->model()->step(s->model()->path().front())->tokens.size();
        if (action != QLatin1String("edit") && generated >= 0) QCOMPARE(shown_prompt, prompt);
        comparePanels(*w, generated < 0 ? 0 : shown_prompt + generated);
    }

    // Reset starts a new session: the branches of the old one are gone from the Timeline's list
    // and from the trace (a trace saved after one Step holds that step only).
    void resetIsANewSession() {
        auto w = english_window_after(&language_, QStringLiteral("Red green blue"), 3);  // prefill, two decodes
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(apply_and_wait(s, [s] { s->rewindTo(1); }));
        QVERIFY(apply_and_wait(s, [s] { s->forceToken((s->model()->current()->logits.chosen + 1) % 1024); }));
        QCOMPARE(s->model()->leaves().size(), 2);  // a branch beside the first path
        auto* timeline = panel_widget<widgets::Timeline>(s, gui::Panel::Timeline);
        QCOMPARE(timeline->branchBox()->count(), 2);
        QVERIFY(apply_and_wait(s, [s] { s->reset(); }));
        QCOMPARE(s->model()->stepCount(), 0);
        QVERIFY(s->model()->leaves().isEmpty());
        QVERIFY(timeline->branchBox()->count() <= 1);
        QVERIFY(step_and_wait(s));
        QCOMPARE(s->model()->stepCount(), 1);
        QCOMPARE(s->model()->current()->index, 0);  // the new session's first step
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("after-reset.lmtrace"));
        QVERIFY(testing::save_trace(s, path));
        QCOMPARE(trace::load_trace(path.toStdString()).size(), size_t(1));
    }

    // The Attention tab keeps answering clicks through a lesson: after a language switch, a
    // Reset and Play, clicking a cell of the heatmap still selects its query row.
    void heatmapAnswersClicksAfterLanguageResetAndPlay() {
        auto w = english_window_after(&language_, QStringLiteral("Red green blue"), 1);
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(language_.apply(QStringLiteral("zh_CN")));
        QVERIFY(language_.apply(QStringLiteral("en")));
        QVERIFY(apply_and_wait(s, [s] { s->reset(); }));
        QVERIFY(step_and_wait(s));
        s->controls()->setSpeed(20);
        s->setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(s->model()->stepCount() >= 4, 60000);
        s->setPlaying(false);
        QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
        s->dock(gui::Panel::Attention)->raise();
        testing::settle();
        auto* heat = panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention);
        QVERIFY(heat && heat->isVisible());
        heat->plot()->replot();
        for (const qint32 query : {1, 2}) {
            QTest::mouseClick(heat->plot(), Qt::LeftButton, {}, heat->cellCenter(query, 0).toPoint());
            QCOMPARE(s->model()->selectedQuery(), query);
        }
    }

    // A prompt longer than the context is caught before the prefill: a question names both
    // numbers and offers to raise the context (up to the model's own, 512 for the fixture); its
    // button reloads the engine with the larger context and runs the prompt. Past the model's
    // own limit there is nothing to raise: the question says so. Never a bare "Engine error".
    void promptOverTheContextOffersToRaiseIt_data() {
        QTest::addColumn<int>("words");  // "river bank N" repeated
        QTest::addColumn<bool>("raisable");
        QTest::newRow("within the model's limit") << 20 << true;
        QTest::newRow("past the model's limit") << 120 << false;
    }
    void promptOverTheContextOffersToRaiseIt() {
        QFETCH(int, words);
        QFETCH(bool, raisable);
        QStringList text;
        for (int i = 0; i < words; ++i) text << QStringLiteral("river bank %1").arg(i % 10);
        auto w = english_window_after(&language_, text.join(QLatin1Char(' ')), 0);
        QVERIFY(w);
        SessionController* s = w->session();
        auto* context = panel_widget<gui::SamplingPanel>(s, gui::Panel::Sampling)->findChild<QSpinBox*>(QStringLiteral("context"));
        QSignalSpy loaded(s, &SessionController::engineLoaded);
        context->setValue(32);
        emit context->editingFinished();
        QVERIFY(wait_for(loaded));
        QSignalSpy errors(s, &SessionController::engineError);
        s->step();
        QTRY_VERIFY_WITH_TIMEOUT(w->findChild<QMessageBox*>(QStringLiteral("promptTooLongBox")), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
        auto* box = w->findChild<QMessageBox*>(QStringLiteral("promptTooLongBox"));
        const QString said = box->text() + QLatin1Char(' ') + box->informativeText();
        const qint32 tokens = qint32(box->property("tokens").toInt());
        QVERIFY2(tokens > 32, qPrintable(said));
        QVERIFY2(said.contains(QLocale().toString(tokens)) && said.contains(QStringLiteral("32")), qPrintable(said));
        QVERIFY(errors.isEmpty());
        QCOMPARE(s->model()->stepCount(), 0);
        auto* raise = box->findChild<QPushButton*>(QStringLiteral("raiseContext"));
        QCOMPARE(raise != nullptr, raisable);
        if (!raisable) {
            QVERIFY2(said.contains(QStringLiteral("512")), qPrintable(said));  // the model's own limit
            return;
        }
        QSignalSpy applied(s, &SessionController::applied);
        raise->click();
        QVERIFY(wait_for(loaded, 2));
        QVERIFY(wait_for(applied));
        QVERIFY2(context->value() >= tokens && context->value() <= 512, qPrintable(QString::number(context->value())));
        QCOMPARE(s->model()->model().n_ctx, context->value());
        QCOMPARE(s->model()->stepCount(), 1);
        QCOMPARE(s->model()->sequenceLength(), tokens);
        QVERIFY(errors.isEmpty());
    }

    // Every chart changes language at once, and back, without a step in between.
    void chartsFollowTheLanguage_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QString>("mean");
        QTest::addColumn<QString>("branch");
        QTest::addColumn<QString>("probability");
        QTest::addColumn<QString>("kvAxis");
        QTest::addColumn<QString>("noDistribution");
        QTest::newRow("zh_CN") << "zh_CN" << "层" << "各头平均" << "分支" << "概率" << "缓存中的词元数"
                               << "尚无分布：请先运行一步";
        QTest::newRow("en") << "en" << "Layer" << "Mean over heads" << "Branch" << "probability"
                            << "tokens in the cache" << "No distribution yet: run a step";
    }
    void chartsFollowTheLanguage() {
        QFETCH(QString, code);
        QFETCH(QString, layer);
        QFETCH(QString, mean);
        QFETCH(QString, branch);
        QFETCH(QString, probability);
        QFETCH(QString, kvAxis);
        QFETCH(QString, noDistribution);
        MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        SessionController* s = w.session();
        const QString other = code == QLatin1String("en") ? QStringLiteral("zh_CN") : QStringLiteral("en");
        QVERIFY(language_.apply(other));
        QCoreApplication::processEvents();
        QVERIFY(language_.apply(code));
        QTRY_COMPARE(panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention)->layerLabel()->text(), layer);
        QCOMPARE(panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention)->meanBox()->text(), mean);
        QVERIFY2(panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention)->title().startsWith(code == QLatin1String("en") ? QStringLiteral("Layer") : QStringLiteral("第")),
                 qPrintable(panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention)->title()));
        QCOMPARE(panel_widget<widgets::Timeline>(s, gui::Panel::Timeline)->branchLabel()->text(), branch);
        QCOMPARE(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->viewState().probability_label, probability);
        QCOMPARE(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->heading()->text(), noDistribution);
        QCOMPARE(panel_widget<widgets::KvChart>(s, gui::Panel::KvCache)->viewState().tokens_label, kvAxis);
        QVERIFY(s->dock(gui::Panel::Logits)->windowTitle().contains(QStringLiteral("Logits")));
        QCOMPARE(s->dock(gui::Panel::Logits)->windowTitle() == QStringLiteral("Logits"), code == QLatin1String("en"));
        QVERIFY(language_.apply(QStringLiteral("en")));
    }

    // The context limit in force is shown next to the prompt and in the status bar, and can be
    // set up to the model's own (512 for the fixture); a prompt past it is refused in words.
    void contextLimitShownAndSettable() {
        auto w = open_window(&language_, QStringLiteral("A B C"));
        QVERIFY(w);
        SessionController* s = w->session();
        auto* context = panel_widget<gui::SamplingPanel>(s, gui::Panel::Sampling)->findChild<QSpinBox*>(QStringLiteral("context"));
        QVERIFY(context);
        QCOMPARE(context->maximum(), 512);  // the fixture's context_length caps it
        QVERIFY2(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens)->legendText().contains(QStringLiteral(" of 512 ")), qPrintable(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens)->legendText()));
        QCOMPARE(s->statusText(gui::StatusField::Tokens), QStringLiteral("0 / 512 tokens"));
        QVERIFY2(context->toolTip().contains(QStringLiteral("384.0 KiB")), qPrintable(context->toolTip()));  // 512 x 768 B
        QSignalSpy loaded(s, &SessionController::engineLoaded);
        context->setValue(32);
        emit context->editingFinished();
        QVERIFY(wait_for(loaded));
        QCOMPARE(s->model()->model().n_ctx, 32);
        QVERIFY2(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens)->legendText().contains(QStringLiteral(" of 32 ")), qPrintable(panel_widget<widgets::TokenStrip>(s, gui::Panel::Tokens)->legendText()));
        QCOMPARE(s->statusText(gui::StatusField::Tokens), QStringLiteral("0 / 32 tokens"));
        QVERIFY(step_and_wait(s));
        QVERIFY2(s->statusText(gui::StatusField::Tokens).endsWith(QStringLiteral(" / 32 tokens")), qPrintable(s->statusText(gui::StatusField::Tokens)));
        QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
    }

    // The Threads setting offers no more threads than the machine has (1024 crashed the window
    // at load): a larger saved value comes back as the machine's count, and the model loads.
    void threadsBoundedByTheMachine_data() {
        QTest::addColumn<int>("saved");
        QTest::newRow("every core (0)") << 0;
        QTest::newRow("the machine's count") << hardware_threads();
        QTest::newRow("1024") << 1024;
    }
    void threadsBoundedByTheMachine() {
        QFETCH(int, saved);
        QSettings().setValue(QStringLiteral("sampling/threads"), saved);
        auto w = open_window(&language_, QStringLiteral("A B C"));
        QVERIFY(w);
        auto* threads = panel_widget<gui::SamplingPanel>(w->session(), gui::Panel::Sampling)->findChild<QSpinBox*>(QStringLiteral("threads"));
        QVERIFY(threads);
        QCOMPARE(threads->maximum(), hardware_threads());
        QCOMPARE(threads->value(), std::min(saved, hardware_threads()));
        threads->setValue(1024);
        QCOMPARE(threads->value(), hardware_threads());
        QVERIFY(step_and_wait(w->session()));
        QTRY_VERIFY_WITH_TIMEOUT(!w->session()->inFlight(), 60000);
        w.reset();
        QSettings().remove(QStringLiteral("sampling/threads"));  // the next cases use every core again
    }

    // The saved KV cache type reads back by its name (any case); an unknown one is said, naming
    // it and the names accepted, and the cache stays f16.
    void savedKvTypeReadsBack_data() {
        QTest::addColumn<QString>("saved");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("problem");
        QTest::newRow("q4_0") << "q4_0" << "q4_0" << "";
        QTest::newRow("Q8_0") << "Q8_0" << "q8_0" << "";
        QTest::newRow("unknown") << "q5_1" << "f16" << "'q5_1' is not one of f16, q8_0, q4_0";
    }
    void savedKvTypeReadsBack() {
        QFETCH(QString, saved);
        QFETCH(QString, shown);
        QFETCH(QString, problem);
        QSettings().setValue(QStringLiteral("sampling/kvType"), saved);
        gui::SamplingPanel panel({QStringLiteral("cpu")});
        const QString said = panel.restoreSettings();
        QSettings().remove(QStringLiteral("sampling/kvType"));
        QVERIFY2(problem.isEmpty() ? said.isEmpty() : said.contains(problem), qPrintable(said));
        QCOMPARE(panel.findChild<QComboBox*>(QStringLiteral("kvType"))->currentText(), shown);
        QCOMPARE(panel.engineOptions().resources.kv_type, parse_kv_type(shown.toStdString()).value());
    }

    // English plural forms through Qt's %n (the plurals-only lmscope_en translation): one
    // decode step is "1 step", greedy sampling leaves "1 token"; Chinese has one form.
    void englishPluralForms() {
        auto w = english_window_after(&language_, QStringLiteral("A B C"), 2);  // one decode step
        QVERIFY(w);
        SessionController* s = w->session();
        const QString summary = panel_widget<widgets::Timeline>(s, gui::Panel::Timeline)->summary()->text();
        QVERIFY2(summary.contains(QStringLiteral("over 1 step")) && !summary.contains(QStringLiteral("1 steps")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral(" tokens (")), qPrintable(summary));  // the prompt: several
        const QString after = panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->viewState().after_name;
        QVERIFY2(after.contains(QStringLiteral("(1 token left)")), qPrintable(after));
        QVERIFY(language_.apply(QStringLiteral("zh_CN")));
        QTRY_VERIFY(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->viewState().after_name.contains(QStringLiteral("剩余 1 个词元")));
        QVERIFY(language_.apply(QStringLiteral("en")));
        QTRY_VERIFY(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->viewState().after_name.contains(QStringLiteral("(1 token left)")));
        QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
    }

    // New sampler settings pick the pending token again: the logits panel shows the new
    // filters and pick at once, and the next Step feeds the pick it shows.
    void samplingChangeShowsTheNewPick() {
        auto w = english_window_after(&language_, QStringLiteral("Red green blue"), 2);
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY2(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->heading()->text().contains(QStringLiteral("(greedy)")), qPrintable(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->heading()->text()));
        const qint32 steps = s->model()->stepCount();
        gui::SamplingPanel* panel = panel_widget<gui::SamplingPanel>(s, gui::Panel::Sampling);
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("topP"))->setValue(1.0);
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("minP"))->setValue(0.0);
        panel->findChild<QSpinBox*>(QStringLiteral("topK"))->setValue(2);
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("temperature"))->setValue(0.8);
        QTRY_VERIFY_WITH_TIMEOUT(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->viewState().after_name == QStringLiteral("after temperature, top-k (2 tokens left)"), 30000);
        QTRY_VERIFY(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->heading()->text().contains(QStringLiteral("(sampled)")));
        QCOMPARE(s->model()->stepCount(), steps);  // the same step, picked again
        const qint32 shown = s->model()->current()->logits.chosen;
        QCOMPARE(panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->rows()[panel_widget<widgets::LogitsView>(s, gui::Panel::Logits)->chosenRow()].id, shown);
        QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
        QVERIFY(step_and_wait(s));
        QCOMPARE(s->model()->current()->tokens.front().id, shown);
    }

    // New settings at a step something already continued from leave its pick (a trace records
    // the token each step continued) and say so; the next Step walks on to the step it fed.
    void samplingChangeKeepsAContinuedPick() {
        auto w = english_window_after(&language_, QStringLiteral("Red green blue"), 3);
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(apply_and_wait(s, [s] { s->rewindTo(1); }));
        const qint32 fed = s->model()->step(2)->tokens.front().id;
        QCOMPARE(s->model()->current()->logits.chosen, fed);
        QSignalSpy said(s, &SessionController::statusMessage);
        gui::SamplingPanel* panel = panel_widget<gui::SamplingPanel>(s, gui::Panel::Sampling);
        panel->findChild<QSpinBox*>(QStringLiteral("topK"))->setValue(2);
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("temperature"))->setValue(1.5);
        QTRY_VERIFY_WITH_TIMEOUT(!said.isEmpty() && said.last().first().toString().contains(QStringLiteral("keeps its pick")), 30000);
        QCOMPARE(s->model()->current()->logits.chosen, fed);
        QVERIFY(step_and_wait(s));
        QCOMPARE(s->model()->currentStep(), 2);  // the step already made, not a new branch
        QCOMPARE(s->model()->leaves().size(), 1);
    }

    // A KV type change asks first: re-run the session (the same tokens, recomputed on the new
    // cache), start empty, or keep the old setting (nothing reloads, the panel shows f16 again).
    void engineChangeAsks_data() {
        QTest::addColumn<QString>("answer");  // the button's objectName
        QTest::addColumn<qint32>("steps");    // in the trace afterwards
        QTest::addColumn<QString>("kv");      // the KV type in force afterwards
        QTest::newRow("re-run") << "rerun" << 3 << "q8_0";
        QTest::newRow("start empty") << "startEmpty" << 0 << "q8_0";
        QTest::newRow("keep") << "keep" << 3 << "f16";
    }
    void engineChangeAsks() {
        QFETCH(QString, answer);
        QFETCH(qint32, steps);
        QFETCH(QString, kv);
        auto w = english_window_after(&language_, QStringLiteral("Red green blue"), 3);
        QVERIFY(w);
        SessionController* s = w->session();
        QVector<qint32> before;
        for (const widgets::TokenView& t : s->model()->sequence()) before.push_back(t.id);
        auto* type = panel_widget<gui::SamplingPanel>(s, gui::Panel::Sampling)->findChild<QComboBox*>(QStringLiteral("kvType"));
        QVERIFY(type);
        QCOMPARE(type->currentText(), QStringLiteral("f16"));
        QSignalSpy loaded(s, &SessionController::engineLoaded);
        type->setCurrentIndex(type->findText(QStringLiteral("q8_0")));
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = w->findChild<QMessageBox*>(QStringLiteral("engineChangeBox"))) != nullptr);
        QVERIFY2(box->text().contains(QStringLiteral("%1 tokens").arg(before.size())), qPrintable(box->text()));
        box->findChild<QPushButton*>(answer)->click();
        if (answer == QLatin1String("keep")) {
            QCOMPARE(type->currentText(), QStringLiteral("f16"));
            QTest::qWait(200);
            QCOMPARE(loaded.count(), 0);
        } else {
            QVERIFY(wait_for(loaded));
        }
        QTRY_VERIFY_WITH_TIMEOUT(s->model()->stepCount() == steps && !s->inFlight(), 60000);
        if (steps == 0) return comparePanels(*w, 0);
        QVector<qint32> after;
        for (const widgets::TokenView& t : s->model()->sequence()) after.push_back(t.id);
        QCOMPARE(after, before);
        QCOMPARE(s->model()->current()->kv.type, parse_kv_type(kv.toStdString()).value());
        comparePanels(*w, qint32(before.size()));
        QVERIFY(step_and_wait(s));  // the session goes on from there
        QCOMPARE(s->model()->sequenceLength(), qint32(before.size()) + 1);
    }

    // A prompt that nearly fills the fixture's context of 512: the status bar follows the
    // prefill layer by layer (with its tokens and speed) and goes away after it; the heatmap
    // holds every row. (lmscope-gui-bench measures a 2,000-token prefill on SmolLM2.)
    void longPromptShowsProgress() {
        QStringList words;
        for (int i = 0; i < 60; ++i) words << QStringLiteral("river bank %1").arg(i % 10);
        QVERIFY(language_.apply(QStringLiteral("en")));
        auto w = open_window(&language_, words.join(QLatin1Char(' ')));
        QVERIFY(w);
        SessionController* s = w->session();
        QSignalSpy progressed(s->prefillProgress(), &QProgressBar::valueChanged);
        QVERIFY(step_and_wait(s));
        const qint32 n = s->model()->sequenceLength();
        QVERIFY2(n > 400, qPrintable(QString::number(n)));
        QVERIFY(progressed.count() >= 1);
        QCOMPARE(progressed.last().at(0).toInt(), s->model()->model().n_layer);  // the last layer is reported
        QCOMPARE(s->prefillProgress()->maximum(), s->model()->model().n_layer);
        QVERIFY2(s->prefillProgress()->format().contains(QStringLiteral("%1 tokens").arg(QLocale().toString(n))),
                 qPrintable(s->prefillProgress()->format()));
        QVERIFY(s->prefillProgress()->isHidden());  // the prefill is done
        const widgets::AttentionMatrix& m = panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention)->matrix();
        QCOMPARE(m.n, n);
        QVERIFY(std::all_of(m.captured.begin(), m.captured.end(), [](bool c) { return c; }));
        QVERIFY(m.at(n - 1, 0) > 0.0f);
        comparePanels(*w, n);
    }

    // SmolLM2 on a prompt of about 2,000 tokens, captured in full: the status bar shows the
    // prefill's progress, the trace's budget keeps the planes that fit (the head the heatmap shows
    // among them, said in the heatmap's note), and the heatmap is an overview that is not blank.
    void twoThousandTokenPromptOnSmolLM2() {
        const QString model = QString::fromStdString(testing::sample_model());
        LMSCOPE_REQUIRE_FILE(model.toStdString(), "SmolLM2 (the sample model)");
        QStringList words;
        for (int i = 0; i < 250; ++i) words << QStringLiteral("The river bank %1 is here.").arg(i % 10);  // 8 tokens each
        QVERIFY(language_.apply(QStringLiteral("en")));
        auto w = open_window(&language_, words.join(QLatin1Char(' ')), model);
        QVERIFY(w);
        SessionController* s = w->session();
        QSignalSpy progressed(s->prefillProgress(), &QProgressBar::valueChanged);
        QSignalSpy applied(s, &SessionController::applied);
        QSignalSpy failed(s, &SessionController::engineError);
        QElapsedTimer timer;
        timer.start();
        s->step();
        QVERIFY2(wait_for(applied, 1, 600000), failed.isEmpty() ? "no step in time" : qPrintable(failed.first().first().toString()));  // seconds here, minutes under a sanitizer
        qInfo("2,000-token prefill with full capture in the window: %lld ms", timer.elapsed());
        const qint32 n = s->model()->sequenceLength();
        QVERIFY2(n > 1900 && n <= 2048, qPrintable(QString::number(n)));
        QVERIFY(progressed.count() >= 2);
        QCOMPARE(progressed.last().at(0).toInt(), s->model()->model().n_layer);
        const widgets::StepView* step = s->model()->current();
        QVERIFY(step);
        const qint32 heads = s->model()->model().n_layer * s->model()->model().n_head;
        QVERIFY2(step->planes.size() > 0 && step->planes.size() < heads, qPrintable(QString::number(step->planes.size())));
        QVERIFY(step->plane(s->model()->selectedLayer(), s->model()->selectedHead()));  // the head shown first
        widgets::AttentionHeatmap* heat = panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention);
        QCOMPARE(heat->matrix().n, n);
        QVERIFY(std::all_of(heat->matrix().captured.begin(), heat->matrix().captured.end(), [](bool c) { return c; }));
        QCOMPARE(heat->cellBlock(), (n + 511) / 512);  // an overview of blocks
        const widgets::AttentionHeatmap::ViewState shown = heat->viewState();
        const auto coloured = std::count_if(shown.cells.begin(), shown.cells.end(), [](double c) { return !std::isnan(c); });
        QVERIFY2(coloured > shown.cells.size() / 3, qPrintable(QString::number(coloured)));
        s->model()->setSelectedHead(5, 3);  // a head the budget did not keep: the note says why
        QVERIFY2(heat->noteLabel()->text().contains(QStringLiteral("memory budget")), qPrintable(heat->noteLabel()->text()));
    }

    void playTurnsIntoPause() {
        auto w = open_window(&language_, QStringLiteral("A B C"));
        QVERIFY(w);
        SessionController* s = w->session();
        QCOMPARE(s->playAction()->text(), QStringLiteral("Play"));
        s->controls()->setSpeed(20);
        s->setPlaying(true);
        QCOMPARE(s->playAction()->text(), QStringLiteral("Pause"));
        s->setPlaying(false);
        QCOMPARE(s->playAction()->text(), QStringLiteral("Play"));
        QTRY_VERIFY_WITH_TIMEOUT(!s->inFlight(), 60000);
    }

    void labShortcutsWorkInTheLabWindow_data() {
        QTest::addColumn<QKeySequence>("key");
        QTest::addColumn<int>("tab");  // -1: the window closes
        QTest::newRow("Ctrl+Alt+2") << QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_2) << 1;
        QTest::newRow("Ctrl+Alt+5") << QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_5) << 4;
        QTest::newRow("Ctrl+W") << QKeySequence(Qt::CTRL | Qt::Key_W) << -1;
    }
    void labShortcutsWorkInTheLabWindow() {
        QFETCH(QKeySequence, key);
        QFETCH(int, tab);
        MainWindow w(&language_);
        w.show();
        gui::labs::LabWindow* labs = w.labWindow();
        labs->showLab(0);
        QVERIFY(QTest::qWaitForWindowActive(labs));
        QTest::keySequence(labs->tabs(), key);
        if (tab < 0) {
            QTRY_VERIFY(!labs->isVisible());
        } else {
            QCOMPARE(labs->tabs()->currentIndex(), tab);
            QVERIFY(labs->isVisible());
        }
        labs->close();
    }

    // Clicking a candidate's label forces it, as clicking its bar does.
    void forcingByTheLabel() {
        auto w = open_window(&language_, QStringLiteral("Once upon"));
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(step_and_wait(s));
        const widgets::LogitsView* logits = panel_widget<widgets::LogitsView>(s, gui::Panel::Logits);
        QVERIFY(logits->rows().size() >= 2);
        QSignalSpy forced(logits, &widgets::LogitsView::forceToken);
        const QPoint label(logits->plot()->axisRect()->left() / 2, int(logits->rowCenter(1).y()));
        QSignalSpy applied(s, &SessionController::applied);
        QTest::mouseClick(logits->plot(), Qt::LeftButton, {}, label);
        QCOMPARE(forced.count(), 1);
        QCOMPARE(forced.first().at(0).toInt(), logits->rows()[1].id);
        QVERIFY(wait_for(applied));
        QCOMPARE(s->model()->current()->tokens.front().origin, Choice::Forced);
    }
};

QTEST_MAIN(TestGuiSessionState)
#include "test_gui_session_state.moc"
