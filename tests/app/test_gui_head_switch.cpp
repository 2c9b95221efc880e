// Switching heads off from the attention grid, on the fixture model: the grid's menu puts a head
// in the session's ablation set (a dashed frame), the next step runs without it (crossed out,
// recorded in the step) and its logits are the core's own for that ablation; "every head of
// layer L" and "every head back on" edit the set; Reset turns every head back on; a saved trace
// replays the crossed-out heads, with the menu off in the replay.
#include "analysis/distribution.h"
#include "common/testing.h"
#include "engine/backend.h"
#include "engine/backend_factory.h"
#include "engine/model.h"
#include "engine/session.h"
#include "gui/engine_setup.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/session_controller.h"
#include "gui_testing.h"
#include "tokenizer/tokenizer.h"
#include "widgets/attention_grid.h"
#include "widgets/attention_heatmap.h"
#include "widgets/logits_view.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using lmscope::gui::MainWindow;
using lmscope::gui::SessionController;
using lmscope::testing::open_window;
using lmscope::testing::panel_widget;
using lmscope::testing::step_and_wait;

namespace {

widgets::AttentionGrid* grid_of(const SessionController* s) { return panel_widget<widgets::AttentionGrid>(s, gui::Panel::AttentionGrid); }

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

widgets::AttentionHeatmap* heatmap_of(const SessionController* s) {
    return panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention);
}
widgets::LogitsView* logits_of(const SessionController* s) { return panel_widget<widgets::LogitsView>(s, gui::Panel::Logits); }

// The heatmap's menu (for the layer and head it shows): triggers the action starting with `what`.
bool choose(widgets::AttentionHeatmap* map, const QString& what) {
    QMenu menu;
    map->fillHeadMenu(&menu);
    for (QAction* a : menu.actions())
        if (a->text().startsWith(what) && a->isEnabled()) {
            a->trigger();
            return true;
        }
    return false;
}

std::vector<int32_t> ids_of(const widgets::StepView& step) {
    std::vector<int32_t> ids;
    for (const widgets::TokenView& t : step.tokens) ids.push_back(t.id);
    return ids;
}

// The next-token logits after `prompt` then `next` (when >= 0) fed on a fresh CPU backend of the
// fixture model, `next` with the heads `off` switched off (the prompt with every head on).
std::vector<float> core_logits(const gui::LabModelPtr& m, const std::vector<int32_t>& prompt, int32_t next,
                               const std::vector<LayerHead>& off) {
    const std::unique_ptr<engine::Backend> b = engine::make_backend("cpu", m->model, {});
    std::vector<float> logits(size_t(m->model->spec().n_vocab()));
    b->forward({.tokens = prompt, .pos0 = 0, .logits = logits, .ablate = next >= 0 ? std::span<const LayerHead>() : off});
    if (next >= 0) {
        const int32_t one[] = {next};
        b->forward({.tokens = one, .pos0 = int32_t(prompt.size()), .logits = logits, .ablate = off});
    }
    return logits;
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
        SessionController* s = w->session();
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
        const gui::LabModelPtr m = gui::load_lab_model(testing::fixture_model());
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

    void heatmapMenuEditsTheAblation_data() {
        QTest::addColumn<qint32>("layer");
        QTest::addColumn<qint32>("head");
        QTest::addColumn<QStringList>("actions");  // chosen one after the other
        QTest::addColumn<QVector<LayerHead>>("off");
        QTest::newRow("one head") << 1 << 2 << QStringList{QStringLiteral("Turn off head 1:2")} << QVector<LayerHead>{{1, 2}};
        QTest::newRow("off and back on") << 0 << 3
                                         << QStringList{QStringLiteral("Turn off head 0:3"), QStringLiteral("Turn head 0:3 back on")}
                                         << QVector<LayerHead>{};
        QTest::newRow("a layer") << 1 << 0 << QStringList{QStringLiteral("Turn off every head of layer 1")}
                                 << QVector<LayerHead>{{1, 0}, {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6}, {1, 7}};
        QTest::newRow("every head back on") << 0 << 1
                                            << QStringList{QStringLiteral("Turn off head 0:1"), QStringLiteral("Turn every head back on")}
                                            << QVector<LayerHead>{};
    }

    void heatmapMenuEditsTheAblation() {
        QFETCH(qint32, layer);
        QFETCH(qint32, head);
        QFETCH(QStringList, actions);
        QFETCH(QVector<LayerHead>, off);
        auto w = open_window(&language_, QStringLiteral("The sky is"));
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(step_and_wait(s));
        QCOMPARE(s->model()->model().n_head, 8);  // the rows above are for the fixture's shape
        widgets::AttentionHeatmap* map = heatmap_of(s);
        QVERIFY(map && map->switchingEnabled());
        s->model()->setSelectedHead(layer, head);  // the map shows (layer, head): its menu is for it
        for (const QString& a : actions) QVERIFY2(choose(map, a), qPrintable(a));
        QCOMPARE(s->model()->ablation(), off);
        QCOMPARE(grid_of(s)->viewState().off_next, off);  // the grid shows the same set
    }

    void withAndWithoutEqualTheCore() {
        auto w = open_window(&language_, QStringLiteral("The sky is"));
        QVERIFY(w);
        SessionController* s = w->session();
        widgets::LogitsView* logits = logits_of(s);
        QVERIFY(step_and_wait(s));
        QVERIFY(!logits->viewState().comparison_shown);  // every head on: nothing to compare
        QVERIFY(choose(grid_of(s), 1, 2, QStringLiteral("Turn off head 1:2")));
        QVERIFY(choose(grid_of(s), 0, 0, QStringLiteral("Turn off head 0:0")));
        QVERIFY(step_and_wait(s));
        QTRY_COMPARE(s->model()->currentStep(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!std::isnan(logits->viewState().kl), 20000);
        const widgets::LogitsView::ViewState v = logits->viewState();
        QVERIFY(v.comparison_shown);
        QVERIFY2(v.comparison_heading.contains(QStringLiteral("Heads switched off: L0 H0, L1 H2")), qPrintable(v.comparison_heading));
        // on a projector's 1280x720 the table is in view in the Logits dock, not below its fold
        w->resize(1280, 720);
        w->resetLayoutAction()->trigger();
        s->dock(gui::Panel::Logits)->raise();
        testing::settle();
        QWidget* table = logits->findChild<QWidget*>(QStringLiteral("logitsComparison"));
        QVERIFY(table && table->isVisible());
        const QRect seen = table->visibleRegion().boundingRect();
        QVERIFY2(seen.height() >= table->height() / 2, qPrintable(QStringLiteral("%1 of %2 px in view").arg(seen.height()).arg(table->height())));

        const gui::LabModelPtr m = gui::load_lab_model(testing::fixture_model());
        const std::vector<int32_t> prompt = ids_of(*s->model()->step(0));
        const int32_t next = s->model()->step(1)->tokens.front().id;
        const std::vector<float> with = core_logits(m, prompt, next, {{0, 0}, {1, 2}});
        std::vector<int32_t> all = prompt;
        all.push_back(next);
        const std::vector<float> without = core_logits(m, all, -1, {});
        const std::vector<double> p = analysis::softmax(with), q = analysis::softmax(without);
        const std::vector<int32_t> top = analysis::top_k(std::span<const double>(p), 5);
        QCOMPARE(v.with.size(), qsizetype(5));
        for (qsizetype i = 0; i < 5; ++i) {
            QCOMPARE(v.with[i], p[size_t(top[size_t(i)])]);
            QCOMPARE(v.without[i], q[size_t(top[size_t(i)])]);
        }
        const double kl = analysis::kl_divergence(with, without);
        QVERIFY(kl > 0.0);
        QCOMPARE(v.kl, kl);

        // The next step (also with heads off) gets its own figures; back on step 1, step 1's
        // again (a result is for the step and path it was computed for).
        QVERIFY(step_and_wait(s));
        QTRY_COMPARE(s->model()->currentStep(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(!std::isnan(logits->viewState().kl) && logits->viewState().kl != kl, 20000);
        {  // the prompt with every head on, then both decoded tokens with the heads off (one forward in the job)
            const std::vector<int32_t> rest{next, s->model()->step(2)->tokens.front().id};
            const std::unique_ptr<engine::Backend> b = engine::make_backend("cpu", m->model, {});
            std::vector<float> with2(size_t(m->model->spec().n_vocab())), without2(with2.size());
            b->forward({.tokens = prompt, .pos0 = 0, .logits = with2});
            const std::vector<LayerHead> off2{{0, 0}, {1, 2}};
            b->forward({.tokens = std::span<const int32_t>(rest.data(), 1), .pos0 = int32_t(prompt.size()), .logits = with2, .ablate = off2});
            b->forward({.tokens = std::span<const int32_t>(rest.data() + 1, 1), .pos0 = int32_t(prompt.size()) + 1, .logits = with2, .ablate = off2});
            std::vector<int32_t> all2 = all;
            all2.push_back(rest[1]);
            b->forward({.tokens = all2, .pos0 = 0, .logits = without2});
            const double kl2 = analysis::kl_divergence(with2, without2);
            QVERIFY2(std::fabs(logits->viewState().kl - kl2) <= 1e-6 + 1e-4 * kl2,
                     qPrintable(QStringLiteral("%1 vs %2").arg(logits->viewState().kl).arg(kl2)));
        }
        s->rewindTo(1);
        QTRY_COMPARE(s->model()->currentStep(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!std::isnan(logits->viewState().kl), 20000);
        QCOMPARE(logits->viewState().kl, kl);
        QCOMPARE(logits->viewState().with, v.with);

        // Another step shown: its comparison never shows the old one's figures.
        s->rewindTo(0);
        QTRY_COMPARE(s->model()->currentStep(), 0);
        QVERIFY(!logits->viewState().comparison_shown);  // the prompt ran with every head on
    }

    void recomputeRunsTheStepWithTheHeadsOffNow() {
        auto w = open_window(&language_, QStringLiteral("The sky is"));
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(step_and_wait(s));
        QVERIFY(step_and_wait(s));  // decoded with every head on
        QTRY_COMPARE(s->model()->stepCount(), 2);
        QVERIFY(choose(grid_of(s), 1, 2, QStringLiteral("Turn off head 1:2")));
        QVERIFY(logits_of(s)->viewState().recompute_enabled);
        QMenu menu;
        heatmap_of(s)->fillHeadMenu(&menu);
        QAction* again = nullptr;
        for (QAction* a : menu.actions())
            if (a->text().startsWith(QStringLiteral("Recompute this step"))) again = a;
        QVERIFY(again && again->isEnabled());
        again->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(s->model()->stepCount() == 3 && !s->inFlight(), 20000);
        QTRY_COMPARE(s->model()->currentStep(), 2);
        const widgets::StepView* redone = s->model()->step(2);
        QCOMPARE(redone->parent, 0);
        QCOMPARE(redone->ablated, (QVector<LayerHead>{{1, 2}}));
        QCOMPARE(redone->tokens.front().id, s->model()->step(1)->tokens.front().id);

        const gui::LabModelPtr m = gui::load_lab_model(testing::fixture_model());
        const std::vector<float> want = core_logits(m, ids_of(*s->model()->step(0)), redone->tokens.front().id, {{1, 2}});
        const std::vector<int32_t> top = analysis::top_k(std::span<const float>(want), 5);
        const QVector<widgets::CandidateView>& shown = redone->logits.before();
        QVERIFY(shown.size() >= 5);
        for (qsizetype i = 0; i < 5; ++i) {
            QCOMPARE(shown[i].id, top[size_t(i)]);
            QCOMPARE(shown[i].logit, want[size_t(top[size_t(i)])]);
        }
        // ... and they are not the first run's (every head on).
        QVERIFY(s->model()->step(1)->logits.before().front().logit != shown.front().logit);

        // The prompt's step: prefilled again with the heads off now.
        s->recomputeStep(0);
        QTRY_VERIFY_WITH_TIMEOUT(s->model()->stepCount() == 4 && !s->inFlight(), 20000);
        QTRY_COMPARE(s->model()->currentStep(), 3);
        const widgets::StepView* prefill = s->model()->step(3);
        QCOMPARE(prefill->phase, Phase::Prefill);
        QCOMPARE(prefill->ablated, (QVector<LayerHead>{{1, 2}}));
        QCOMPARE(ids_of(*prefill), ids_of(*s->model()->step(0)));
        const std::vector<float> want_prefill = core_logits(m, ids_of(*prefill), -1, {{1, 2}});
        const std::vector<int32_t> top_prefill = analysis::top_k(std::span<const float>(want_prefill), 5);
        for (qsizetype i = 0; i < 5; ++i) {
            QCOMPARE(prefill->logits.before()[i].id, top_prefill[size_t(i)]);
            QCOMPARE(prefill->logits.before()[i].logit, want_prefill[size_t(top_prefill[size_t(i)])]);
        }
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
            QVERIFY(testing::save_trace(w->session(), path));
        }
        const std::unique_ptr<MainWindow> replay = testing::open_replay(&language_, path);
        QVERIFY(replay);
        SessionController* s = replay->session();
        QVERIFY(step_and_wait(s));
        QVERIFY(step_and_wait(s));
        widgets::AttentionGrid* grid = grid_of(s);
        QCOMPARE(grid->viewState().off_in_step, (QVector<LayerHead>{{1, 0}}));
        QVERIFY(!grid->switchingEnabled());
        QMenu menu;
        grid->fillHeadMenu(&menu, 1, 0);
        QVERIFY(menu.isEmpty());  // a replay cannot run a step
        widgets::AttentionHeatmap* map = heatmap_of(s);
        QVERIFY(!map->switchingEnabled());
        QMenu map_menu;
        map->fillHeadMenu(&map_menu);
        QVERIFY(map_menu.isEmpty());
        QVERIFY(!logits_of(s)->viewState().recompute_enabled);
        QVERIFY(!logits_of(s)->viewState().comparison_shown);  // a replay runs nothing
    }
};

QTEST_MAIN(TestGuiHeadSwitch)
#include "test_gui_head_switch.moc"
