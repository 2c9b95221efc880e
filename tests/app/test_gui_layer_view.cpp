// The Layer view (app/gui/layer_view.h) in the main window, on the fixture model and on SmolLM2,
// for a prefill step and a decode step: what it shows is the core's own hook captures of that
// step (the same forwards replayed on a fresh backend, capturing the selected layer's hooks) —
// the token's vectors, q, k and v of the head, z, the FFN's activations, the stream's norms;
// the score stages compose (hidden keys -inf before softmax and 0 after, the engine's scores
// where visible, softmax = the heatmap's row); the RoPE offset plot is flat within 1e-4; heads
// switched off for a step are switched off in the view's numbers too; a new selection never
// shows under the old one's figures; a replay and a reset say why nothing is shown.
#include "common/testing.h"
#include "engine/backend_factory.h"
#include "engine/layer_anatomy.h"
#include "engine/model.h"
#include "gui/engine_setup.h"
#include "gui/labs/lab_window.h"
#include "gui/labs/logit_lens_lab.h"
#include "gui/language.h"
#include "gui/layer_view.h"
#include "gui/main_window.h"
#include "gui/session_controller.h"
#include "gui_testing.h"
#include "tools/layout_check.h"
#include "trace/hooks.h"
#include "widgets/rope_view.h"
#include "widgets/score_stages_chart.h"
#include "widgets/trace_model.h"
#include "widgets/vector_strips.h"

#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace lmscope;
using lmscope::gui::LayerView;
using lmscope::gui::SessionController;
using lmscope::testing::open_window;
using lmscope::testing::panel_widget;
using lmscope::testing::step_and_wait;
using trace::Hook;

namespace {

LayerView* layer_of(const SessionController* s) { return panel_widget<LayerView>(s, gui::Panel::Layer); }

// Shows the Layer dock and waits for the figures of the current selection (null: none came).
const gui::LayerFigures* shown(SessionController* s) {
    QDockWidget* dock = s->dock(gui::Panel::Layer);
    dock->show();
    dock->raise();
    LayerView* v = layer_of(s);
    return QTest::qWaitFor([v] { return v->figures() != nullptr; }, 60000) ? v->figures() : nullptr;
}

// The hooks of `layer` for each step of the shown path, recomputed on a fresh CPU backend the
// way the session computed them: each step's tokens fed at its position with its heads off.
struct StepHooks {
    int32_t first_pos = 0;
    trace::StepCapture capture;
};
std::vector<StepHooks> replay_steps(const widgets::TraceModel& m, const std::shared_ptr<const engine::Model>& model,
                                    int32_t layer) {
    auto b = engine::make_backend("cpu", model, {});
    trace::CapturePolicy p;
    p.mode = trace::CaptureMode::None;
    for (int i = 0; i < trace::kHookCount; ++i)
        if (trace::is_layer_hook(Hook(i))) p.hooks.push_back({Hook(i), layer});
    for (int32_t l = 0; l < model->spec().n_layer(); ++l)
        if (l != layer) p.hooks.push_back({Hook::ResidPre, l});
    std::vector<StepHooks> out;
    std::vector<float> logits(size_t(model->spec().n_vocab()));
    for (qint32 index : m.path()) {
        const widgets::StepView* s = m.step(index);
        std::vector<int32_t> ids;
        for (const widgets::TokenView& t : s->tokens) ids.push_back(t.id);
        const std::vector<LayerHead> off(s->ablated.begin(), s->ablated.end());
        StepHooks h{.first_pos = s->first_pos};
        b->forward({.tokens = ids, .pos0 = s->first_pos, .policy = p, .capture = &h.capture, .logits = logits,
                    .ablate = off});
        out.push_back(std::move(h));
    }
    return out;
}

// Row `pos` of hook (h, layer), `width` floats, from the step that fed it.
std::vector<float> hook_row(const std::vector<StepHooks>& steps, Hook h, int32_t layer, int32_t pos, int32_t width) {
    for (const StepHooks& s : steps) {
        const trace::HookTensor* t = s.capture.hook({h, layer});
        const int32_t rows = int32_t(t->data.size() / size_t(width));
        if (pos >= s.first_pos && pos < s.first_pos + rows) {
            const auto at = t->data.begin() + ptrdiff_t(pos - s.first_pos) * width;
            return {at, at + width};
        }
    }
    return {};
}

// max |a - b| / max |b|
double rel_diff(const QVector<float>& a, const std::vector<float>& b) {
    if (size_t(a.size()) != b.size() || b.empty()) return INFINITY;
    double d = 0, top = 1e-30;
    for (size_t i = 0; i < b.size(); ++i) {
        d = std::max(d, std::fabs(double(a[qsizetype(i)]) - double(b[i])));
        top = std::max(top, std::fabs(double(b[i])));
    }
    return d / top;
}

std::vector<float> slice(const std::vector<float>& row, int32_t head, int32_t hd) {
    return {row.begin() + ptrdiff_t(head) * hd, row.begin() + ptrdiff_t(head + 1) * hd};
}

}  // namespace

class TestGuiLayerView : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() { testing::use_test_settings("test_gui_layer_view"); }

    void showsTheStepsHooks_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<int>("steps");     // 1: the prefill; 2: and one decode step
        QTest::addColumn<int>("query");     // -1: the last position
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("head");
        QTest::addColumn<bool>("switch_off");  // heads 1:0 and 1:1 off for the decode step
        const QString fixture = testing::fixture_model();
        const QString smol = QString::fromStdString(testing::sample_model());
        QTest::newRow("fixture prefill, a middle token") << fixture << "The sky is blue and the grass" << 1 << 3 << 1 << 2 << false;
        QTest::newRow("fixture decode step") << fixture << "The sky is" << 2 << -1 << 0 << 1 << false;
        QTest::newRow("fixture decode, heads off") << fixture << "The sky is" << 2 << -1 << 1 << 3 << true;
        QTest::newRow("SmolLM2 prefill") << smol << "The river bank was muddy" << 1 << 4 << 5 << 3 << false;
        QTest::newRow("SmolLM2 decode step") << smol << "The capital of France is" << 2 << -1 << 12 << 7 << false;
    }
    void showsTheStepsHooks() {
        QFETCH(QString, model);
        QFETCH(QString, prompt);
        QFETCH(int, steps);
        QFETCH(int, query);
        QFETCH(int, layer);
        QFETCH(int, head);
        QFETCH(bool, switch_off);
        LMSCOPE_REQUIRE_FILE(model.toStdString(), "the model");
        auto w = open_window(&language_, prompt, model);
        QVERIFY(w);
        SessionController* s = w->session();
        widgets::TraceModel* m = s->model();
        QVERIFY(step_and_wait(s));
        if (switch_off) m->setAblation({{1, 0}, {1, 1}});
        for (int i = 1; i < steps; ++i) QVERIFY(step_and_wait(s));
        QTRY_COMPARE(m->stepCount(), steps);
        m->setSelectedHead(layer, head);
        if (query >= 0) m->setSelectedQuery(query);
        const qint32 q = m->selectedQuery();
        const gui::LayerFigures* f = shown(s);
        QVERIFY(f);
        QCOMPARE(f->request.layer, layer);
        QCOMPARE(f->request.head, head);
        QCOMPARE(f->request.query, q);
        QCOMPARE(f->request.tokens.size(), m->sequenceLength());

        const gui::LabModelPtr lm = gui::load_lab_model(model);
        const model::ModelSpec& spec = lm->model->spec();
        const std::vector<StepHooks> ref = replay_steps(*m, lm->model, layer);
        const int32_t E = spec.n_embd(), hd = spec.head_dim(), H = spec.n_head(), KV = spec.n_head_kv();
        const int32_t kvh = head / (H / KV);
        QCOMPARE(f->kv_head, kvh);
        // the Q, K, V tab: resid_pre, attn_in, q, q_rot, k, k_rot, v
        const QVector<widgets::VectorStrip>& v = f->vectors.strips;
        QCOMPARE(v.size(), 7);
        const std::pair<int, std::vector<float>> want[] = {
            {0, hook_row(ref, Hook::ResidPre, layer, q, E)},
            {1, hook_row(ref, Hook::AttnIn, layer, q, E)},
            {2, slice(hook_row(ref, Hook::Q, layer, q, H * hd), head, hd)},
            {3, slice(hook_row(ref, Hook::QRot, layer, q, H * hd), head, hd)},
            {4, slice(hook_row(ref, Hook::K, layer, q, KV * hd), kvh, hd)},
            {5, slice(hook_row(ref, Hook::KRot, layer, q, KV * hd), kvh, hd)},
            {6, slice(hook_row(ref, Hook::V, layer, q, KV * hd), kvh, hd)}};
        for (const auto& [i, row] : want)
            QVERIFY2(rel_diff(v[i].values, row) < 1e-4, qPrintable(QString("%1: %2").arg(v[i].label).arg(rel_diff(v[i].values, row))));

        // the Scores tab: the stages compose; visible keys are the engine's scores, hidden ones
        // -inf then 0; softmax is the heatmap's row
        const widgets::ScoreStagesData& sc = f->scores;
        QCOMPARE(sc.query, q);
        QCOMPARE(sc.weights.size(), m->sequenceLength());
        const std::vector<float> scores = [&] {  // row q of the step that fed q: [n_keys]
            for (const StepHooks& st : ref) {
                const trace::HookTensor* t = st.capture.hook({Hook::Scores, layer});
                const int32_t rows = int32_t(t->shape[1]), keys = int32_t(t->shape[2]);
                if (q >= st.first_pos && q < st.first_pos + rows) {
                    const auto at = t->data.begin() + (ptrdiff_t(head) * rows + (q - st.first_pos)) * keys;
                    return std::vector<float>(at, at + keys);
                }
            }
            return std::vector<float>{};
        }();
        QVERIFY(!scores.empty());
        const QVector<widgets::AttentionRowRef> rows_ref = m->attentionRows(layer, head, q);
        QVERIFY(!rows_ref.empty() && rows_ref.front().plane);
        double sum = 0;
        for (qint32 j = 0; j < sc.weights.size(); ++j) {
            QCOMPARE(sc.scaled[j], sc.dot[j] * sc.scale);
            const bool hidden = sc.mask[j] != widgets::KeyMask::Visible;
            QCOMPARE(hidden, j >= qint32(scores.size()) || !std::isfinite(scores[size_t(j)]));
            if (hidden) {
                QVERIFY(std::isinf(sc.masked[j]) && sc.masked[j] < 0);
                QCOMPARE(sc.weights[j], 0.0);
                QCOMPARE(sc.mask[j] == widgets::KeyMask::Future, j > q);
            } else {
                // the engine scores the keys its f16 cache holds (each value within 2^-11 of k_rot,
                // relative), the view scores k_rot itself: they differ by up to the bound below
                // (measured on SmolLM2: up to 0.0017 with a bound of 0.006)
                const std::vector<float> qr = slice(hook_row(ref, Hook::QRot, layer, q, H * hd), head, hd);
                const std::vector<float> kr = slice(hook_row(ref, Hook::KRot, layer, j, KV * hd), kvh, hd);
                double rounding = 0;
                for (int32_t i = 0; i < hd; ++i) rounding += std::fabs(double(qr[size_t(i)]) * double(kr[size_t(i)]));
                rounding *= std::ldexp(1.0, -11) * std::fabs(sc.scale);
                QVERIFY2(std::fabs(sc.masked[j] - scores[size_t(j)]) <= rounding + 1e-3 * std::max(1.0, std::fabs(double(scores[size_t(j)]))),
                         qPrintable(QString("key %1: %2 vs %3").arg(j).arg(sc.masked[j]).arg(scores[size_t(j)])));
                const float heat = rows_ref.front().plane->weight(rows_ref.front().row, j);
                QVERIFY2(std::fabs(sc.weights[j] - heat) <= 1e-3, qPrintable(QString("key %1: %2 vs heatmap %3").arg(j).arg(sc.weights[j]).arg(heat)));
            }
            sum += sc.weights[j];
        }
        QVERIFY(std::fabs(sum - 1.0) < 1e-9);
        drawsTheFigures(s, *f);

        // the Mix tab: the last strip is the engine's z of the head
        const std::vector<float> z = slice(hook_row(ref, Hook::Z, layer, q, H * hd), head, hd);
        QVERIFY(rel_diff(f->mix.strips.back().values, z) < 1e-4);
        if (switch_off && layer == 1 && head <= 1) QCOMPARE(f->mix.strips.back().norm, 0.0);
        QCOMPARE(f->head_shares.values.size(), H);
        // the RoPE tab: flat against the offset
        double spread = 0, scale = 1;
        for (const widgets::RopeOffsetPoint& o : f->rope.offsets) {
            spread = std::max(spread, o.max - o.min);
            scale = std::max(scale, std::fabs(o.max));
        }
        QVERIFY(!f->rope.offsets.isEmpty());
        QVERIFY2(spread <= 1e-4 * scale, qPrintable(QString::number(spread)));
        QCOMPARE(f->rope.rope, bool(spec.layers[size_t(layer)].rope));
        // the FFN tab: the largest activations are the engine's mlp_act
        const std::vector<float> act = hook_row(ref, Hook::MlpAct, layer, q, spec.n_ff());
        QVERIFY(!f->ffn.top_neurons.isEmpty());
        for (qsizetype i = 0; i < f->ffn.top_neurons.size(); ++i)
            QVERIFY(std::fabs(f->ffn.top_values[i] - act[size_t(f->ffn.top_neurons[i])]) <= 1e-4 * (1 + std::fabs(f->ffn.top_values[i])));
        // the stream: |resid_pre| of every layer
        QCOMPARE(f->stream.resid_pre.size(), spec.n_layer());
        for (int32_t l = 0; l < spec.n_layer(); ++l) {
            const std::vector<float> r = hook_row(ref, Hook::ResidPre, l, q, E);
            const double n = engine::l2_norm(r);
            QVERIFY2(std::fabs(f->stream.resid_pre[l] - n) <= 1e-4 * n, qPrintable(QString("layer %1").arg(l)));
        }
    }

    // The charts draw the figures they were handed: the strips' cells, each score stage's
    // bars (by clicking its button), the RoPE caption.
    static void drawsTheFigures(SessionController* s, const gui::LayerFigures& f) {
        LayerView* view = layer_of(s);
        const auto* strips = view->findChild<widgets::VectorStrips*>(QStringLiteral("layerVectors"));
        QVERIFY(strips);
        const widgets::VectorStrips::ViewState vs = strips->viewState();
        QCOMPARE(vs.values.size(), f.vectors.strips.size());
        for (qsizetype i = 0; i < vs.values.size(); ++i) QCOMPARE(vs.values[i], f.vectors.strips[i].values);
        view->setTab(LayerView::Tab::Scores);
        auto* chart = view->findChild<widgets::ScoreStagesChart*>();
        QVERIFY(chart);
        const std::pair<widgets::ScoreStage, const QVector<double>*> stages[] = {
            {widgets::ScoreStage::Dot, &f.scores.dot}, {widgets::ScoreStage::Scaled, &f.scores.scaled},
            {widgets::ScoreStage::Masked, &f.scores.masked}, {widgets::ScoreStage::Softmax, &f.scores.weights}};
        for (const auto& [stage, values] : stages) {
            chart->stageButton(stage)->click();
            const widgets::ScoreStagesChart::ViewState cs = chart->viewState();
            QCOMPARE(cs.stage, stage);
            QCOMPARE(cs.values.size(), values->size());
            for (qsizetype j = 0; j < values->size(); ++j)
                if (std::isfinite((*values)[j])) QCOMPARE(cs.values[j], (*values)[j]);
        }
        view->setTab(LayerView::Tab::Rope);
        const QString caption = view->findChild<widgets::RopeView*>()->viewState().caption;
        QVERIFY2(caption.contains(QStringLiteral("flat within 1e-4")), qPrintable(caption));
        view->setTab(LayerView::Tab::Vectors);
    }

    // Each tab of the Layer view, docked as the window arranges it, shows its figures with
    // nothing cut off or overlapping (issue 35: the RoPE tab's pair titles were clipped at
    // every size, its spectrum and offset charts squashed at 1280x720).
    void eachTabFits_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QSize>("size");
        const QString smol = QString::fromStdString(testing::sample_model());
        QTest::newRow("fixture 1280x720") << testing::fixture_model() << QSize(1280, 720);
        QTest::newRow("SmolLM2 1280x720") << smol << QSize(1280, 720);
        QTest::newRow("SmolLM2 1920x1080") << smol << QSize(1920, 1080);
    }
    void eachTabFits() {
        QFETCH(QString, model);
        QFETCH(QSize, size);
        LMSCOPE_REQUIRE_FILE(model.toStdString(), "the model");
        gui::Language language;
        auto w = testing::open_window(&language, QStringLiteral("The capital of France is"), model);
        QVERIFY(w);
        w->resize(size);
        w->resetLayoutAction()->trigger();
        QVERIFY(step_and_wait(w->session()));
        QVERIFY(shown(w->session()));
        LayerView* view = layer_of(w->session());
        for (LayerView::Tab tab : {LayerView::Tab::Vectors, LayerView::Tab::Scores, LayerView::Tab::Mix, LayerView::Tab::Rope,
                                   LayerView::Tab::Ffn, LayerView::Tab::Stream}) {
            view->setTab(tab);
            QTest::qWait(100);
            const QStringList problems = tools::clipped_texts(w->dock(gui::Panel::Layer));
            QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("tab %1:\n").arg(int(tab)) + problems.join(QLatin1Char('\n'))));
        }
    }

    // Another head: the old figures are not offered as the new selection's; the new ones come.
    void newSelectionIsNeverShownStale() {
        auto w = open_window(&language_, QStringLiteral("The sky is"));
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(step_and_wait(s));
        s->model()->setSelectedHead(0, 0);
        QVERIFY(shown(s));
        s->model()->setSelectedHead(1, 2);
        QVERIFY(!layer_of(s)->figures());  // computing, or the old selection's: not shown as current
        const gui::LayerFigures* f = shown(s);
        QVERIFY(f);
        QCOMPARE(f->request.layer, 1);
        QCOMPARE(f->request.head, 2);
        QVERIFY(layer_of(s)->statusText().contains(QStringLiteral("Layer 1, head 2")));
        // a step: the figures follow the new token
        QVERIFY(step_and_wait(s));
        f = shown(s);
        QVERIFY(f);
        QCOMPARE(f->request.query, s->model()->sequenceLength() - 1);
        QCOMPARE(f->request.step, s->model()->currentStep());
        // Reset: nothing to show, and the view says what to do
        s->reset();
        QTRY_VERIFY(!s->inFlight() && s->model()->currentStep() == -1);
        QTRY_VERIFY(!layer_of(s)->figures() && !layer_of(s)->computing());
    }

    // While Play runs the view waits (its probe would slow the steps), saying so; when Play
    // stops it shows the last step.
    void waitsWhilePlaying() {
        auto w = open_window(&language_, QStringLiteral("The sky is"));
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(step_and_wait(s));
        QVERIFY(shown(s));
        s->setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(s->model()->stepCount() >= 4, 60000);
        QVERIFY(!layer_of(s)->figures() || layer_of(s)->figures()->request.step == s->model()->currentStep());
        QVERIFY2(layer_of(s)->statusText().contains(QStringLiteral("stepping")), qPrintable(layer_of(s)->statusText()));
        s->setPlaying(false);
        QTRY_VERIFY(!s->inFlight());
        const gui::LayerFigures* f = shown(s);
        QVERIFY(f);
        QCOMPARE(f->request.step, s->model()->currentStep());
        QCOMPARE(f->request.tokens.size(), s->model()->sequenceLength());
    }

    // The Stream tab's link opens the logit lens lab on the text up to the selected token.
    void streamLinksToTheLogitLens() {
        auto w = open_window(&language_, QStringLiteral("The sky is blue"));
        QVERIFY(w);
        SessionController* s = w->session();
        QVERIFY(step_and_wait(s));
        s->model()->setSelectedQuery(2);
        const gui::LayerFigures* f = shown(s);
        QVERIFY(f);
        layer_of(s)->setTab(LayerView::Tab::Stream);
        layer_of(s)->findChild<QPushButton*>(QStringLiteral("layerLogitLens"))->click();
        gui::labs::LabWindow* labs = w->labWindow();
        QTRY_VERIFY(labs->isVisible());
        auto* lens = labs->findChild<gui::labs::LogitLensLab*>();
        QVERIFY(lens);
        QTRY_VERIFY(!lens->promptIds().empty());
        QCOMPARE(qint32(lens->promptIds().back()), f->request.tokens[2]);
        QCOMPARE(lens->selectedPosition(), int(lens->promptIds().size()) - 1);
    }

    void replayHasNoModel() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("layer.lmtrace"));
        {
            auto w = open_window(&language_, QStringLiteral("The sky is"));
            QVERIFY(w);
            QVERIFY(step_and_wait(w->session()));
            QVERIFY(testing::save_trace(w->session(), path));
        }
        const std::unique_ptr<gui::MainWindow> replay = testing::open_replay(&language_, path);
        QVERIFY(replay);
        SessionController* s = replay->session();
        QVERIFY(step_and_wait(s));
        s->dock(gui::Panel::Layer)->show();
        s->dock(gui::Panel::Layer)->raise();
        QTRY_VERIFY(!layer_of(s)->computing());
        QVERIFY(!layer_of(s)->figures());
        QLabel* message = nullptr;
        for (QLabel* l : layer_of(s)->findChildren<QLabel*>())
            if (l->isVisible() && l->text().contains(QStringLiteral("replay"))) message = l;
        QVERIFY(message);
    }
};

QTEST_MAIN(TestGuiLayerView)
#include "test_gui_layer_view.moc"
