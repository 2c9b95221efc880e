// Switching heads off from the attention grid, on the fixture model: the grid's menu puts a head
// in the session's ablation set (a dashed frame), the next step runs without it (crossed out,
// recorded in the step) and its logits are the core's own for that ablation; "every head of
// layer L" and "every head back on" edit the set; Reset turns every head back on; a saved trace
// replays the crossed-out heads, with the menu off in the replay.
#include "common/testing.h"
#include "engine/backend_factory.h"
#include "engine/session.h"
#include "gui/labs/lab_model.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/session_view.h"
#include "gui_testing.h"
#include "tokenizer/tokenizer.h"
#include "widgets/attention_grid.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QMenu>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using lmscope::gui::MainWindow;
using lmscope::gui::SessionView;
using lmscope::testing::open_window;
using lmscope::testing::panel_widget;
using lmscope::testing::step_and_wait;
using lmscope::testing::wait_for;

namespace {

widgets::AttentionGrid* grid_of(const SessionView* s) { return panel_widget<widgets::AttentionGrid>(s, gui::Panel::AttentionGrid); }

// Triggers the action of (layer, head)'s context menu whose text starts with `what`; false when
// the menu has no such enabled action.
bool choose(widgets::AttentionGrid* grid, qint32 layer, qint32 head, const QString& what) {
    QMenu menu;
    grid->fillHeadMenu(&menu, layer, head);
    for (QAction* a : menu.actions())
        if (a->text().startsWith(what) && a->isEnabled()) {
            a->trigger();
            return true;
        }
    return false;
}

}  // namespace

class TestGuiHeadSwitch : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() { testing::use_test_settings("test_gui_head_switch"); }
    void init() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(model, "the fixture model");
    }

    void switchedOffHeadRunsAsTheCoreAblates() {
        auto w = open_window(&language_, QStringLiteral("The sky is"));
        QVERIFY(w);
        SessionView* s = w->session();
        widgets::AttentionGrid* grid = grid_of(s);
        QVERIFY(step_and_wait(w->session()));  // the prompt, every head on
        QVERIFY(grid->viewState().off_in_step.isEmpty());

        QVERIFY(choose(grid, 1, 2, QStringLiteral("Turn off head 1:2")));
        const QVector<LayerHead> off{{1, 2}};
        QCOMPARE(grid->viewState().off_next, off);
        QVERIFY(grid->viewState().off_in_step.isEmpty());  // the shown step ran with it
        QVERIFY(step_and_wait(w->session()));
        QTRY_COMPARE(s->model()->stepCount(), 2);
        const widgets::StepView* decoded = s->model()->step(1);
        QVERIFY(decoded);
        QCOMPARE(decoded->ablated, off);
        QCOMPARE(grid->viewState().off_in_step, off);

        // The core: the same prompt, then the same token decoded with head 1:2 off.
        const gui::labs::LabModelPtr m = gui::labs::load_lab_model(testing::fixture_model());
        const std::unique_ptr<engine::Backend> backend = engine::make_backend("cpu", m->model, {});
        engine::Session core(*backend, *m->tokenizer);
        const widgets::StepView* prompt = s->model()->step(0);
        std::vector<int32_t> ids;
        for (const widgets::TokenView& t : prompt->tokens) ids.push_back(t.id);
        core.prefill(ids);
        core.set_ablation({{1, 2}});
        const trace::StepTrace& want = core.decode();
        QCOMPARE(want.tokens.front(), decoded->tokens.front().id);
        const std::vector<trace::Candidate>& top = want.logits.top_before();
        const QVector<widgets::CandidateView>& shown = decoded->logits.before();
        QVERIFY(!top.empty() && qsizetype(top.size()) >= shown.size());
        for (qsizetype i = 0; i < shown.size(); ++i) {
            QCOMPARE(shown[i].id, top[size_t(i)].id);
            QCOMPARE(shown[i].logit, top[size_t(i)].logit);
        }
        // ... and they differ from the unablated model's.
        core.rewind(0);
        core.set_ablation({});
        QVERIFY(core.decode().logits.top_before().front().logit != top.front().logit);

        QVERIFY(choose(grid, 1, 2, QStringLiteral("Turn head 1:2 back on")));
        QVERIFY(grid->viewState().off_next.isEmpty());
        QVERIFY(choose(grid, 0, 0, QStringLiteral("Turn off every head of layer 0")));
        QCOMPARE(grid->viewState().off_next.size(), s->model()->model().n_head);
        QVERIFY(choose(grid, 0, 0, QStringLiteral("Turn every head back on")));
        QVERIFY(grid->viewState().off_next.isEmpty());
        QVERIFY(!choose(grid, 0, 0, QStringLiteral("Turn every head back on")));  // nothing to turn on

        QVERIFY(choose(grid, 0, 1, QStringLiteral("Turn off head 0:1")));
        s->reset();
        QTRY_VERIFY(!s->inFlight() && s->model()->currentStep() == -1);
        QVERIFY(grid->viewState().off_next.isEmpty());  // Reset turns every head back on
        QVERIFY(step_and_wait(w->session()));
        QTRY_VERIFY(s->model()->currentStep() >= 0);
        const widgets::StepView* again = s->model()->step(s->model()->currentStep());
        QVERIFY(again && again->phase == Phase::Prefill);
        QVERIFY(again->ablated.isEmpty());
    }

    void replayShowsTheSwitchedOffHeads() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("heads.lmtrace"));
        {
            auto w = open_window(&language_, QStringLiteral("The sky is"));
            QVERIFY(w);
            QVERIFY(step_and_wait(w->session()));
            QVERIFY(choose(grid_of(w->session()), 1, 0, QStringLiteral("Turn off head 1:0")));
            QVERIFY(step_and_wait(w->session()));
            QSignalSpy saved(w->session(), &SessionView::traceSaved);
            w->session()->saveTrace(path);
            QVERIFY(wait_for(saved));
        }
        MainWindow replay(&language_);
        replay.show();
        QVERIFY(QTest::qWaitForWindowActive(&replay));
        SessionView* s = replay.session();
        QSignalSpy opened(s, &SessionView::traceOpened);
        s->openTrace(path);
        QVERIFY(wait_for(opened));
        QVERIFY(step_and_wait(replay.session()));
        QVERIFY(step_and_wait(replay.session()));
        widgets::AttentionGrid* grid = grid_of(s);
        QCOMPARE(grid->viewState().off_in_step, (QVector<LayerHead>{{1, 0}}));
        QVERIFY(!grid->switchingEnabled());
        QMenu menu;
        grid->fillHeadMenu(&menu, 1, 0);
        QVERIFY(menu.isEmpty());  // a replay cannot run a step
    }
};

QTEST_MAIN(TestGuiHeadSwitch)
#include "test_gui_head_switch.moc"
