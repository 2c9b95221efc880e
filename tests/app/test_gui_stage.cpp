// Stage mode (View > Stage Mode, F11) with the fixture model on the offscreen platform: every
// stage shows its panels, the window's own (lent from the docks and labs, given back on
// leaving), and its title and sentences in English and Chinese; Page Down / → and Page Up / ←
// move between the stages, Esc and F11 leave; Space steps and the stage's panel shows the new
// step; the pickers move the selection every panel shares; at 1280×720 and 1920×1080 nothing
// on any stage is cut off (layout_check.h) and every chart's data area is at least 160×100;
// stage mode and its stage are remembered.
#include "common/testing.h"
#include "gui_testing.h"
#include "tools/layout_check.h"
#include "gui/labs/chat_lab.h"
#include "gui/labs/kv_lab.h"
#include "gui/labs/lab.h"
#include "gui/labs/lab_window.h"
#include "gui/language.h"
#include "gui/layer_view.h"
#include "gui/main_window.h"
#include "gui/panel_guide.h"
#include "gui/session_controller.h"
#include "gui/stage_registry.h"
#include "gui/stage_view.h"
#include "widgets/attention_heatmap.h"
#include "widgets/hint_bar.h"
#include "widgets/kv_chart.h"
#include "widgets/kv_growth_chart.h"
#include "widgets/logits_view.h"
#include "widgets/timeline.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QCoreApplication>
#include <QLabel>
#include <QMenuBar>
#include <QStatusBar>
#include <QSettings>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest>

#include <qcustomplot.h>

#include <optional>

using namespace lmscope;
using lmscope::gui::MainWindow;
using lmscope::gui::StageView;
using lmscope::testing::open_window;
using lmscope::testing::settle;
using lmscope::testing::step_and_wait;
using lmscope::testing::wait_for;

namespace {



int stage_count() { return int(gui::stages().size()); }

void add_stage_rows() {
    QTest::addColumn<int>("stage");
    for (int i = 0; i < stage_count(); ++i) QTest::addRow("%d %s", i + 1, gui::stages()[std::size_t(i)].id) << i;
}

bool has_cjk(const QString& s) {
    for (QChar c : s)
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}

// Whether `panel` shows the trace's current step (nullopt: the panel does not follow the
// session's steps, as the chat lab, or shows nothing a step changes).
std::optional<bool> shows_current_step(QWidget* panel, const widgets::TraceModel& trace) {
    const qint32 n = trace.sequenceLength();
    if (auto* strip = panel->findChild<widgets::TokenStrip*>()) return strip->chipCount() == n;
    if (auto* heat = qobject_cast<widgets::AttentionHeatmap*>(panel)) return heat->viewState().row.size() == n;
    if (auto* kv = qobject_cast<widgets::KvChart*>(panel)) {
        const QVector<double> tokens = kv->viewState().tokens;
        return !tokens.isEmpty() && tokens.back() == n;
    }
    if (auto* logits = qobject_cast<widgets::LogitsView*>(panel)) {
        const QString chosen = widgets::display_text(trace.current()->logits.chosen_text).toHtmlEscaped();
        return logits->viewState().heading.contains(chosen);
    }
    if (auto* timeline = qobject_cast<widgets::Timeline*>(panel)) return !timeline->stepRect(trace.currentStep()).isEmpty();
    if (auto* layer = qobject_cast<gui::LayerView*>(panel)) {
        for (int waited = 0; (!layer->figures() || layer->computing()) && waited < 30000; waited += 50) QTest::qWait(50);
        return layer->figures() && layer->figures()->request.step == trace.currentStep();
    }
    if (auto* growth = panel->findChild<widgets::KvGrowthChart*>()) {
        const auto measured = growth->viewState().measured;
        return measured && !measured->tokens.isEmpty() && measured->tokens.back() == n;
    }
    return std::nullopt;
}

// Whatever of the docked window (a dock, the tabs of tabbed docks) is drawn over the stage: a
// visible sibling above it that overlaps it.
QStringList docked_over_stage(MainWindow& w) {
    QStringList out;
    const QObjectList order = w.children();  // bottom to top
    const qsizetype stage = order.indexOf(w.stageView());
    for (QWidget* c : w.findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (c->isVisible() && c != w.menuBar() && c != w.statusBar() && order.indexOf(c) > stage &&
            c->geometry().intersects(w.stageView()->geometry()))
            out << QStringLiteral("%1 %2 lies over the stage").arg(c->metaObject()->className(), c->objectName());
    return out;
}

// Defects inside a widget's or a lab's own layout at 1280×720, which issue #35 gives to the
// widget fixes (its walk), not to the stage: reported as warnings here, not failed, until they
// are fixed (then the row goes). Anything else a stage shows fails.
struct KnownDefect {
    const char* stage;
    const char* size;
    const char* problem;  // a part of the problem's line
};
constexpr KnownDefect kKnownDefects[] = {
    // the heatmap's row bars (its second axis rect): a fixed share of the plot's height, under
    // 100 px at 720
    {"attention", "1280x720", "heatmapPlot (in lmscope::widgets::AttentionHeatmap) axis rect 1: data area"},
};

QStringList without_known_defects(const QStringList& problems, const char* stage, QSize size) {
    const QString at = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
    QStringList out;
    for (const QString& p : problems) {
        bool known = false;
        for (const KnownDefect& k : kKnownDefects)
            known = known || (QLatin1String(k.stage) == QLatin1String(stage) && QLatin1String(k.size) == at &&
                              p.contains(QLatin1String(k.problem)));
        if (known) qWarning("known widget defect (issue #35), not the stage's: %s", qPrintable(p));
        else out << p;
    }
    return out;
}

}  // namespace

class TestGuiStage : public QObject {
    Q_OBJECT
    gui::Language language_;

    // A window on `model` (the fixture unless given), prefilled, hints dismissed, at `size`.
    std::unique_ptr<MainWindow> window(QSize size = QSize(1280, 720), const QString& model = testing::fixture_model()) {
        auto w = open_window(&language_, QStringLiteral("The capital of France is a city on the river, and"), model);
        if (!w) return nullptr;
        for (gui::Panel p : gui::all_panels())
            if (!gui::is_lab(p)) w->panelGuide()->hintBar(p)->closeButton()->click();
        w->resize(size);
        settle();
        w->resetLayoutAction()->trigger();  // the arrangement for this size: compact has tabbed docks
        settle();
        if (!step_and_wait(w->session())) return nullptr;
        return w;
    }

private slots:
    void initTestCase() { testing::use_test_settings("test_gui_stage"); }
    void init() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(model, "the fixture model");
    }
    void cleanup() {
        QSettings().clear();
        QVERIFY(language_.apply(QStringLiteral("en")));
    }

    // The registry: eight stages in the lesson's order, each with one or two panels and two to
    // four sentences.
    void theRegistryIsTheLesson() {
        QCOMPARE(stage_count(), 8);
        QStringList ids;
        for (const gui::StageSpec& s : gui::stages()) {
            ids << QLatin1String(s.id);
            const int sentences = QString::fromUtf8(s.sentences).count(QStringLiteral(". ")) + 1;
            QVERIFY2(sentences >= 2 && sentences <= 4, s.id);
        }
        QCOMPARE(ids, QStringList({"tokens", "prefill", "attention", "layer", "next-token", "decode", "kv-cost", "chat"}));
    }

    // Each stage shows its panels (the window's own, lent from their docks and labs) and its
    // title and sentences, in English and in Chinese; leaving gives every panel back.
    void eachStageShowsItsPanelsAndText_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("language");
        for (int i = 0; i < stage_count(); ++i)
            for (const char* lang : {"en", "zh_CN"})
                QTest::addRow("%d %s %s", i + 1, gui::stages()[std::size_t(i)].id, lang) << i << QString::fromLatin1(lang);
    }
    void eachStageShowsItsPanelsAndText() {
        QFETCH(int, stage);
        QFETCH(QString, language);
        auto w = window();
        QVERIFY(w);
        QTabWidget* lab_tabs = w->labWindow()->tabs();
        QList<QWidget*> lab_order;
        for (int i = 0; i < lab_tabs->count(); ++i) lab_order << lab_tabs->widget(i);
        QVERIFY(language_.apply(language));
        w->showStage(stage);
        settle();
        StageView* view = w->stageView();
        QVERIFY(w->isStageMode());
        QCOMPARE(w->centralWidget(), view);
        QCOMPARE(view->current(), stage);
        const gui::StageSpec& spec = gui::stages()[std::size_t(stage)];
        QCOMPARE(view->titleLabel()->text(), QCoreApplication::translate("Stage", spec.title));
        QCOMPARE(view->sentencesLabel()->text(), QCoreApplication::translate("Stage", spec.sentences));
        const bool zh = language == QLatin1String("zh_CN");
        QCOMPARE(has_cjk(view->titleLabel()->text()), zh);
        QCOMPARE(has_cjk(view->sentencesLabel()->text()), zh);
        const QList<QWidget*> panels = view->panels();
        QVERIFY(panels.size() == 1 || panels.size() == 2);
        for (QWidget* p : panels) {
            QVERIFY(view->isAncestorOf(p));
            QVERIFY2(p->isVisible(), p->metaObject()->className());
        }
        for (QDockWidget* d : w->findChildren<QDockWidget*>()) QVERIFY(!d->isVisible());

        QTest::keyClick(view, Qt::Key_Escape);  // leaves: every panel home again
        settle();
        QVERIFY(!w->isStageMode());
        QVERIFY(!w->stageAction()->isChecked());
        for (gui::Panel d : w->session()->panels()) QVERIFY(w->dock(d)->isAncestorOf(w->session()->panelWidget(d)));
        // the tables between the docks are back too (hidden, Qt's dock layout gives the right
        // dock area a separator more at each relayout: the Attention column grew step by step)
        QVERIFY(w->centralWidget()->isVisible());
        // what the stage showed were the window's own panels, not copies: each is back home
        for (QWidget* p : panels) {
            bool home = w->labWindow()->isAncestorOf(p);
            for (gui::Panel d : w->session()->panels()) home = home || w->session()->panelWidget(d) == p;
            QVERIFY2(home, p->metaObject()->className());
        }
        QCOMPARE(lab_tabs->count(), lab_order.size());
        for (int i = 0; i < lab_tabs->count(); ++i) {
            QCOMPARE(lab_tabs->widget(i), lab_order[i]);
            QCOMPARE(lab_tabs->tabText(i), qobject_cast<gui::labs::Lab*>(lab_order[i])->title());
            // only the current tab's page shows (a page shown behind it is drawn over by nothing)
            QCOMPARE(lab_tabs->widget(i)->isVisibleTo(lab_tabs), i == lab_tabs->currentIndex());
        }
        QVERIFY(w->dock(gui::Panel::Attention)->isVisible());
        // the tabs of tabbed docks are back with them (stage mode hid them)
        bool tabbed = false, tabs_shown = false;
        for (QDockWidget* d : w->findChildren<QDockWidget*>())
            tabbed = tabbed || (d->isVisible() && !w->tabifiedDockWidgets(d).isEmpty());
        for (QTabBar* bar : w->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) tabs_shown = tabs_shown || bar->isVisible();
        QCOMPARE(tabs_shown, tabbed);
    }

    // Page Down / → go on, Page Up / ← go back (at the ends they stay), F11 and Esc leave.
    void keysMoveBetweenStages() {
        auto w = window();
        QVERIFY(w);
        StageView* view = w->stageView();
        QTest::keyClick(w.get(), Qt::Key_F11);
        QVERIFY(w->isStageMode());
        QCOMPARE(view->current(), 0);
        QTest::keyClick(view, Qt::Key_PageUp);
        QCOMPARE(view->current(), 0);
        QTest::keyClick(view, Qt::Key_PageDown);
        QCOMPARE(view->current(), 1);
        QTest::keyClick(view, Qt::Key_Right);
        QCOMPARE(view->current(), 2);
        QTest::keyClick(view, Qt::Key_Left);
        QCOMPARE(view->current(), 1);
        for (int i = 0; i < stage_count() + 2; ++i) QTest::keyClick(view, Qt::Key_PageDown);
        QCOMPARE(view->current(), stage_count() - 1);
        // a window resized on stage (moved to the projector) keeps the docks' tabs away
        w->resize(1600, 900);
        settle();
        const QStringList over = docked_over_stage(*w);
        QVERIFY2(over.isEmpty(), qPrintable(over.join(QLatin1Char('\n'))));
        QTest::keyClick(view, Qt::Key_F11);
        QVERIFY(!w->isStageMode());
        QTest::keyClick(w.get(), Qt::Key_F11);  // back where it was left
        QCOMPARE(view->current(), stage_count() - 1);
        QTest::keyClick(view, Qt::Key_Escape);
        QVERIFY(!w->isStageMode());
        QCOMPARE(view->current(), -1);
    }

    // Space steps on every stage, and the stage's panel shows the new step.
    void spaceStepsAndThePanelFollows_data() { add_stage_rows(); }
    void spaceStepsAndThePanelFollows() {
        QFETCH(int, stage);
        auto w = window();
        QVERIFY(w);
        w->showStage(stage);
        settle();
        const widgets::TraceModel& trace = *w->session()->model();
        const qint32 before = trace.sequenceLength();
        QSignalSpy applied(w->session(), &gui::SessionController::applied);
        QTest::keyClick(w->stageView(), Qt::Key_Space);
        QVERIFY(wait_for(applied));
        settle();
        QCOMPARE(trace.sequenceLength(), before + 1);
        int following = 0;
        for (QWidget* p : w->stageView()->panels()) {
            const std::optional<bool> shows = shows_current_step(p, trace);
            if (!shows) continue;
            ++following;
            QVERIFY2(*shows, p->metaObject()->className());
        }
        // The chat stage's lab runs its own conversation; every other stage follows the session.
        if (QLatin1String(gui::stages()[std::size_t(stage)].id) != QLatin1String("chat")) QVERIFY(following > 0);
    }

    // The stage's pickers move the selection every panel shares, and follow it.
    void pickersMoveTheSelection() {
        auto w = window();
        QVERIFY(w);
        w->showStage(2);  // attention
        settle();
        StageView* view = w->stageView();
        widgets::TraceModel* trace = w->session()->model();
        auto* layer = view->findChild<QSpinBox*>(QStringLiteral("stageLayer"));
        auto* head = view->findChild<QSpinBox*>(QStringLiteral("stageHead"));
        auto* token = view->findChild<QSpinBox*>(QStringLiteral("stageToken"));
        QVERIFY(layer && head && token && layer->isVisible() && head->isVisible() && token->isVisible());
        QCOMPARE(layer->maximum(), trace->model().n_layer - 1);
        QCOMPARE(head->maximum(), trace->model().n_head - 1);
        QCOMPARE(token->maximum(), trace->sequenceLength() - 1);
        layer->setValue(1);
        head->setValue(trace->model().n_head - 1);
        token->setValue(2);
        QCOMPARE(trace->selectedLayer(), 1);
        QCOMPARE(trace->selectedHead(), trace->model().n_head - 1);
        QCOMPARE(trace->selectedQuery(), 2);
        auto* heat = qobject_cast<widgets::AttentionHeatmap*>(view->panels().front());
        QVERIFY(heat);
        QCOMPARE(heat->headBox()->value(), trace->model().n_head - 1);
        QCOMPARE(heat->viewState().row.size(), 3);  // the third token reads three keys
        // GQA: the head picker names the KV head it reads
        QVERIFY(trace->model().n_head_kv < trace->model().n_head);
        QCOMPARE(head->suffix(), QStringLiteral(" (KV %1)").arg(trace->model().kv_group(head->value())));
        trace->setSelectedHead(0, 0);  // a click in a panel: the pickers follow
        QCOMPARE(layer->value(), 0);
        QCOMPARE(head->value(), 0);
        w->showStage(0);  // the tokens stage offers no pickers
        QVERIFY(!layer->isVisible() && !head->isVisible() && !token->isVisible());
    }

    // At a projector's sizes every stage fits: no text cut off or overlapping, every chart's
    // data area at least 160×100, in English and Chinese.
    // (on the fixture, and on SmolLM2 for real words and 30 layers of 9 heads: skipped when it
    // has not been fetched)
    void everyStageFits_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        QTest::addColumn<bool>("smollm2");
        for (int i = 0; i < stage_count(); ++i) {
            const char* id = gui::stages()[std::size_t(i)].id;
            QTest::addRow("%d %s 1280x720", i + 1, id) << i << QSize(1280, 720) << "en" << false;
            QTest::addRow("%d %s zh_CN 1280x720", i + 1, id) << i << QSize(1280, 720) << "zh_CN" << false;
            QTest::addRow("%d %s 1920x1080", i + 1, id) << i << QSize(1920, 1080) << "en" << false;
            QTest::addRow("%d %s smollm2 1280x720", i + 1, id) << i << QSize(1280, 720) << "en" << true;
            QTest::addRow("%d %s smollm2 zh_CN 1920x1080", i + 1, id) << i << QSize(1920, 1080) << "zh_CN" << true;
        }
    }
    void everyStageFits() {
        QFETCH(int, stage);
        QFETCH(QSize, size);
        QFETCH(QString, language);
        QFETCH(bool, smollm2);
        const QString model = smollm2 ? QString::fromStdString(testing::sample_model()) : testing::fixture_model();
        LMSCOPE_REQUIRE_FILE(model.toStdString(), "SmolLM2 (the sample model)");
        auto w = window(size, model);
        QVERIFY(w);
        for (int i = 0; i < 4; ++i) QVERIFY(step_and_wait(w->session()));
        QVERIFY(language_.apply(language));
        w->showStage(stage);
        settle();
        QStringList problems = tools::clipped_texts(w->stageView());
        problems << docked_over_stage(*w);
        if (w->size() != size) problems << QStringLiteral("window grew to %1x%2").arg(w->width()).arg(w->height());
        problems = without_known_defects(problems, gui::stages()[std::size_t(stage)].id, size);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The labs' stages at 1280×720 with what a lesson puts in them: every page of the KV lab
    // on SmolLM2 and on Gemma 3 (its sliding-window formula, its name in the preset list), and
    // the chat lab after three turns; nothing cut off, no legend over the data, in English and
    // Chinese. (skipped when the model has not been fetched)
    void labStagesFit_data() {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<int>("page");  // a KvLab::Page for kv-cost
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("language");
        const std::pair<gui::labs::KvLab::Page, const char*> pages[] = {
            {gui::labs::KvLab::ChartPage, "chart"}, {gui::labs::KvLab::ExperimentPage, "experiment"},
            {gui::labs::KvLab::OffloadPage, "offload"}};
        for (const char* model : {"smollm2", "gemma"})
            for (const char* lang : {"en", "zh_CN"}) {
                for (const auto& [page, name] : pages)
                    QTest::addRow("kv-cost %s %s %s", name, model, lang) << "kv-cost" << int(page) << model << lang;
                QTest::addRow("chat %s %s", model, lang) << "chat" << 0 << model << lang;
            }
    }
    void labStagesFit() {
        QFETCH(QString, stage);
        QFETCH(int, page);
        QFETCH(QString, model);
        QFETCH(QString, language);
        const std::string path = model == QLatin1String("gemma") ? testing::gemma_model() : testing::sample_model();
        LMSCOPE_REQUIRE_FILE(path, "the lab stage's model");
        auto w = window(QSize(1280, 720), QString::fromStdString(path));
        QVERIFY(w);
        gui::labs::LabWindow* labs = w->labWindow();
        if (stage == QLatin1String("chat")) {
            auto* chat = labs->lab<gui::labs::ChatLab>(gui::labs::LabId::Chat);
            chat->setMaxReplyTokens(8);
            for (const char* message : {"Hi! Who are you?", "What is the capital of France?", "Thanks!"}) {
                QSignalSpy finished(chat, &gui::labs::ChatLab::turnFinished);
                chat->sendMessage(QString::fromUtf8(message));
                QVERIFY(wait_for(finished, 1, 300000));
            }
        } else {
            labs->lab<gui::labs::KvLab>(gui::labs::LabId::KvCache)->showPage(page);
        }
        QVERIFY(language_.apply(language));
        int index = 0;
        while (QLatin1String(gui::stages()[std::size_t(index)].id) != stage) ++index;
        w->showStage(index);
        settle();
        const QStringList problems = tools::clipped_texts(w->stageView());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The layout check and the chart check can fail: a stage squeezed below its panels' room is
    // caught.
    void aSqueezedStageIsCaught() {
        auto w = window(QSize(1280, 720));
        QVERIFY(w);
        w->showStage(2);  // attention: the heatmap and the grid
        settle();
        w->stageView()->findChild<QWidget*>(QStringLiteral("stageSide"))->setFixedWidth(1100);
        settle();
        QStringList problems = tools::clipped_texts(w->stageView());
        QVERIFY(!problems.isEmpty());
    }

    // Stage mode and its stage are remembered for the next window.
    void stageModeIsRemembered() {
        {
            MainWindow w(&language_);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.showStage(3);
            QVERIFY(w.stageAction()->isChecked());
            w.close();
        }
        MainWindow again(&language_);
        again.show();
        QTRY_VERIFY(again.isStageMode());
        QCOMPARE(again.stageView()->current(), 3);
        again.stageAction()->trigger();
        QVERIFY(!again.isStageMode());
    }
};

QTEST_MAIN(TestGuiStage)
#include "test_gui_stage.moc"
