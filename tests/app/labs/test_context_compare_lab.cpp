// The Context compare lab: the attention rows, grids, next-token top-k and KL it shows against
// the core's own results (an engine Session with every plane captured, a backend forward of
// the prefix up to the picked token, the core's softmax), on the fixtures and SmolLM2.
#include "common/testing.h"
#include "engine/backend_factory.h"
#include "engine/model.h"
#include "engine/ops.h"
#include "engine/session.h"
#include "gui/labs/context_compare_lab.h"
#include "gui/labs/lab_host.h"
#include "tokenizer/tokenizer.h"
#include "widgets/head_grid.h"
#include "widgets/labelled_bars.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"

#include <QCoreApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

using namespace lmscope;
using namespace lmscope::gui;
using namespace lmscope::gui::labs;
using context_compare::HeadMeasure;

namespace {

constexpr int kRunTimeoutMs = 120000;

// The cell a head grid draws for (layer, head).
double cell(const widgets::HeadGrid* grid, int32_t layer, int32_t head) {
    const widgets::HeadGrid::ViewState v = grid->viewState();
    return v.cells[qsizetype(layer) * v.heads + head];
}

std::string model_path(const QString& which) {
    if (which == QLatin1String("smollm2")) return testing::sample_model();
    return testing::testdata_file("models/" + which.toStdString() + ".gguf");
}

// The core's own run of one prompt: an engine Session with every plane captured.
struct CoreRun {
    std::vector<int32_t> ids;
    std::unique_ptr<engine::Backend> backend;
    std::unique_ptr<engine::Session> session;

    const trace::AttentionTrace& attention() const { return session->trace().steps().front().attention; }
    // Query pos's weights over keys 0..pos, unpacked by the core.
    std::vector<float> row(int32_t layer, int32_t head, int32_t pos) const {
        const trace::AttentionTrace& at = attention();
        for (size_t i = 0; i < at.planes.size(); ++i)
            if (at.planes[i].at.layer == layer && at.planes[i].at.head == head) {
                const std::vector<float> m = at.matrix(i);
                const auto begin = m.begin() + std::ptrdiff_t(pos) * at.planes[i].n_keys();
                return std::vector<float>(begin, begin + pos + 1);
            }
        return {};
    }
};

CoreRun core_run(const LabModelPtr& model, const QString& text) {
    CoreRun r;
    r.ids = model->tokenizer->encode_ids(text.toStdString(), true, false);
    engine::BackendOptions bo;
    bo.n_ctx = 128;
    r.backend = engine::make_backend("cpu", model->model, bo);
    engine::SessionOptions so;
    so.capture.mode = trace::CaptureMode::Full;
    r.session = std::make_unique<engine::Session>(*r.backend, *model->tokenizer, so);
    r.session->prefill(r.ids);
    return r;
}

// The next-token logits after position `pos`: a fresh backend fed the prefix 0..pos (with the
// heads `off` switched off).
std::vector<float> prefix_logits(const LabModelPtr& model, const std::vector<int32_t>& ids, int32_t pos,
                                 const std::vector<LayerHead>& off = {}) {
    engine::BackendOptions bo;
    bo.n_ctx = 128;
    auto backend = engine::make_backend("cpu", model->model, bo);
    std::vector<float> logits(size_t(model->model->spec().n_vocab()));
    backend->forward({.tokens = std::span<const int32_t>(ids).first(size_t(pos) + 1), .logits = logits, .ablate = off});
    return logits;
}

// KL(P || Q) of two logit rows, written out here independently of the lab.
double test_kl(const std::vector<float>& p_logits, const std::vector<float>& q_logits) {
    auto log_probs = [](const std::vector<float>& x) {
        const double m = *std::max_element(x.begin(), x.end());
        double s = 0.0;
        for (float v : x) s += std::exp(double(v) - m);
        std::vector<double> out;
        for (float v : x) out.push_back(double(v) - m - std::log(s));
        return out;
    };
    const std::vector<double> lp = log_probs(p_logits), lq = log_probs(q_logits);
    double kl = 0.0;
    for (size_t i = 0; i < lp.size(); ++i) kl += std::exp(lp[i]) * (lp[i] - lq[i]);
    return kl;
}

std::vector<float> to_floats(const QVector<double>& v) { return std::vector<float>(v.begin(), v.end()); }

}  // namespace

class TestContextCompareLab : public QObject {
    Q_OBJECT
private slots:
    void rowsAndGridsMatchCore_data();
    void rowsAndGridsMatchCore();
    void nextTokenMatchesCore_data();
    void nextTokenMatchesCore();
    void defaultPickIsBank();
    void rerunUpdatesEverything();
    void stopLeavesLabUsable();
    void tooLongPromptIsReported();
    void clicksPickHeadAndToken();
    void languageChangeKeepsState();
    void switchedOffHeadsMatchCore_data();
    void switchedOffHeadsMatchCore();
    void sweepMatchesCore();

private:
    // A lab on `which`, its first run (started by the model change) finished.
    bool start(const QString& which, LabHost& host, std::unique_ptr<ContextCompareLab>& lab);
};

void TestContextCompareLab::switchedOffHeadsMatchCore_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QVector<LayerHead>>("off");
    QTest::newRow("one head") << QStringLiteral("1:2") << QVector<LayerHead>{{1, 2}};
    QTest::newRow("two, unsorted, spaced") << QStringLiteral(" 1:0, 0:3 ") << QVector<LayerHead>{{0, 3}, {1, 0}};
    QTest::newRow("none") << QString() << QVector<LayerHead>{};
}

void TestContextCompareLab::switchedOffHeadsMatchCore() {
    QFETCH(QString, field);
    QFETCH(QVector<LayerHead>, off);
    LMSCOPE_REQUIRE_FILE(model_path(QStringLiteral("fx-gqa")), "the fixture model");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(QStringLiteral("fx-gqa"), host, lab));
    const LabModelPtr model = host.model();
    const std::vector<LayerHead> heads(off.begin(), off.end());
    lab->setSwitchedOff(field);
    QSignalSpy finished(lab.get(), &ContextCompareLab::runFinished);
    lab->run();
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(lab->switchedOff(), heads);
    std::array<std::vector<float>, 2> logits;
    for (int s = 0; s < 2; ++s) {
        const int32_t pos = lab->pickedPosition(s);
        logits[size_t(s)] = prefix_logits(model, lab->result(s)->ids, pos, heads);
        LMSCOPE_VERIFY_CLOSE(testing::compare(std::vector<float>(lab->result(s)->logits_at(pos).begin(), lab->result(s)->logits_at(pos).end()),
                                              logits[size_t(s)], 1e-3, 1e-3));
    }
    for (int s = 0; s < 2; ++s) {
        const double expected = test_kl(logits[size_t(s)], logits[size_t(1 - s)]);
        QVERIFY2(std::fabs(lab->klShown(s) - expected) <= 1e-3 + 1e-2 * expected,
                 qPrintable(QStringLiteral("KL shown %1, computed %2").arg(lab->klShown(s)).arg(expected)));
    }
    if (!heads.empty()) {  // and the heads matter: every head on gives other logits
        const std::vector<float> on = prefix_logits(model, lab->result(0)->ids, lab->pickedPosition(0));
        QVERIFY(on != logits[0]);
        QVERIFY(lab->statusLabel()->text().contains(QStringLiteral("Heads switched off in both runs")));
    }

    // A head the model lacks is refused, in words, and nothing runs.
    lab->setSwitchedOff(QStringLiteral("1:2, 9:0"));
    lab->run();
    QVERIFY(!lab->isRunning());
    QVERIFY2(lab->statusLabel()->text().contains(QStringLiteral("head 9:0 does not exist (layers 0 .. 2, heads 0 .. 7)")),
             qPrintable(lab->statusLabel()->text()));
}

void TestContextCompareLab::sweepMatchesCore() {
    LMSCOPE_REQUIRE_FILE(model_path(QStringLiteral("fx-gqa")), "the fixture model");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(QStringLiteral("fx-gqa"), host, lab));
    const LabModelPtr model = host.model();
    lab->setSwitchedOff(QStringLiteral("0:1"));
    QSignalSpy finished(lab.get(), &ContextCompareLab::runFinished);
    lab->run();
    QVERIFY(finished.wait(kRunTimeoutMs));
    const int32_t layer = 1, n_head = model->model->spec().n_head();
    lab->setLayerHead(layer, 0);
    QSignalSpy swept(lab.get(), &ContextCompareLab::sweepFinished);
    lab->sweepLayer();
    QVERIFY(swept.wait(kRunTimeoutMs));
    QVERIFY(lab->sweep());
    const context_compare::HeadSweep& r = *lab->sweep();
    QCOMPARE(r.layer, layer);
    QCOMPARE(qsizetype(r.kl_head.size()), qsizetype(n_head));
    const std::vector<int32_t>& a = lab->result(0)->ids;
    const std::vector<int32_t>& b = lab->result(1)->ids;
    const int32_t pa = lab->pickedPosition(0), pb = lab->pickedPosition(1);
    auto kl = [&](const std::vector<LayerHead>& off) {
        return test_kl(prefix_logits(model, a, pa, off), prefix_logits(model, b, pb, off));
    };
    auto close = [](double x, double y) { return std::fabs(x - y) <= 1e-4 + 1e-3 * std::fabs(y); };
    QVERIFY2(close(r.kl_on, kl({})), qPrintable(QStringLiteral("%1 vs %2").arg(r.kl_on).arg(kl({}))));
    QVERIFY(close(r.kl_off, kl({{0, 1}})));
    QVERIFY(std::fabs(r.kl_off - lab->klShown(0)) <= 1e-3 + 1e-2 * lab->klShown(0));  // the run shown ran with 0:1 off too
    const widgets::LabelledBars::ViewState bars = lab->sweepBars()->viewState();
    QCOMPARE(bars.values.size(), qsizetype(n_head));
    for (int32_t h = 0; h < n_head; ++h) {
        const double want = kl({{0, 1}, {layer, h}});
        QVERIFY2(close(r.kl_head[size_t(h)], want), qPrintable(QStringLiteral("head %1: %2 vs %3").arg(h).arg(r.kl_head[size_t(h)]).arg(want)));
        QCOMPARE(bars.values[h], r.kl_head[size_t(h)]);
    }
    QVERIFY(lab->sweepLabel()->text().contains(QString::number(r.kl_on, 'f', 4)));
    // Another picked token: the sweep was for the old one and is gone.
    lab->pickToken(0, 1);
    QVERIFY(!lab->sweep());
    QVERIFY(lab->sweepBars()->viewState().values.isEmpty());
}

bool TestContextCompareLab::start(const QString& which, LabHost& host, std::unique_ptr<ContextCompareLab>& lab) {
    lab = std::make_unique<ContextCompareLab>(&host);
    lab->resize(1280, 800);
    QSignalSpy finished(lab.get(), &ContextCompareLab::runFinished);
    host.setModel(load_lab_model(QString::fromStdString(model_path(which))));
    return finished.wait(kRunTimeoutMs) && lab->result(0) && lab->result(1);
}

void TestContextCompareLab::rowsAndGridsMatchCore_data() {
    QTest::addColumn<QString>("which");
    QTest::newRow("fx-gqa") << QStringLiteral("fx-gqa");
    QTest::newRow("fx-mha-untied") << QStringLiteral("fx-mha-untied");
    QTest::newRow("smollm2") << QStringLiteral("smollm2");
}

void TestContextCompareLab::rowsAndGridsMatchCore() {
    QFETCH(QString, which);
    LMSCOPE_REQUIRE_FILE(model_path(which), "the model");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(which, host, lab));
    const LabModelPtr model = host.model();
    const int32_t n_layer = model->model->spec().n_layer(), n_head = model->model->spec().n_head();
    const std::array<CoreRun, 2> core{core_run(model, lab->prompt(0)), core_run(model, lab->prompt(1))};
    for (int s = 0; s < 2; ++s) QCOMPARE(lab->result(s)->ids, core[size_t(s)].ids);

    const QVector<QPair<int32_t, int32_t>> pairs{{0, 0}, {n_layer / 2, n_head - 1}, {n_layer - 1, n_head / 2}};
    for (const auto& [layer, head] : pairs) {
        lab->setLayerHead(layer, head);
        for (int s = 0; s < 2; ++s) {
            const int32_t pos = lab->pickedPosition(s);
            QVERIFY(pos >= 0 && pos < int32_t(core[size_t(s)].ids.size()));
            const std::vector<float> expected = core[size_t(s)].row(layer, head, pos);
            QCOMPARE(qsizetype(expected.size()), qsizetype(pos) + 1);
            const std::vector<float> shown = to_floats(lab->attentionBars(s)->viewState().values);
            LMSCOPE_VERIFY_CLOSE(testing::compare(shown, expected, 2.5e-4, 1e-3));
            QCOMPARE(lab->attentionBars(s)->viewState().labels.size(), qsizetype(pos) + 1);
            QVERIFY(lab->attentionBars(s)->viewState().highlighted.back());  // the picked token itself
        }
    }

    // The grids: each head's entropy (and weight on the previous token) of the picked row, and A - B.
    for (const HeadMeasure m : {HeadMeasure::Entropy, HeadMeasure::PreviousToken}) {
        lab->setMeasure(int(m));
        for (int32_t l = 0; l < n_layer; ++l)
            for (int32_t h = 0; h < n_head; ++h) {
                std::array<double, 2> expected{};
                for (int s = 0; s < 2; ++s) {
                    const int32_t pos = lab->pickedPosition(s);
                    const std::vector<float> row = core[size_t(s)].row(l, h, pos);
                    double v = 0.0;
                    if (m == HeadMeasure::Entropy) {
                        for (float w : row)
                            if (w > 0.0f) v -= double(w) * std::log(double(w));
                        // the engine's own summary of the same row (from float weights)
                        const float summary = core[size_t(s)].attention().summary(l, h, pos).entropy;
                        QVERIFY2(std::fabs(summary - v) < 5e-3, qPrintable(QStringLiteral("summary %1 vs %2").arg(summary).arg(v)));
                    } else {
                        v = pos > 0 ? row[size_t(pos) - 1] : 0.0;
                    }
                    expected[size_t(s)] = v;
                    QVERIFY2(std::fabs(cell(lab->grid(s), l, h) - v) < 2e-3,
                             qPrintable(QStringLiteral("side %1 layer %2 head %3: %4 vs %5").arg(s).arg(l).arg(h).arg(cell(lab->grid(s), l, h)).arg(v)));
                }
                QVERIFY(std::fabs(cell(lab->differenceGrid(), l, h) - (expected[0] - expected[1])) < 4e-3);
            }
    }
}

void TestContextCompareLab::nextTokenMatchesCore_data() { rowsAndGridsMatchCore_data(); }

void TestContextCompareLab::nextTokenMatchesCore() {
    QFETCH(QString, which);
    LMSCOPE_REQUIRE_FILE(model_path(which), "the model");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(which, host, lab));
    const LabModelPtr model = host.model();
    // The default picks, then an inner position on side A (its prediction needs that row's logits).
    for (const bool inner : {false, true}) {
        if (inner) lab->pickToken(0, 1);
        std::array<std::vector<float>, 2> logits;
        for (int s = 0; s < 2; ++s) {
            const int32_t pos = lab->pickedPosition(s);
            logits[size_t(s)] = prefix_logits(model, lab->result(s)->ids, pos);
            std::vector<float> probs = logits[size_t(s)];
            engine::ops::softmax(probs.data(), int64_t(probs.size()));
            const QVector<qint32> ids = lab->nextTokenIds(s);
            const std::vector<float> shown = to_floats(lab->nextTokenBars(s)->viewState().values);
            QCOMPARE(ids.size(), qsizetype(ContextCompareLab::kTopK));
            QCOMPARE(qsizetype(shown.size()), ids.size());
            std::vector<float> expected;
            for (qint32 id : ids) expected.push_back(probs[size_t(id)]);
            LMSCOPE_VERIFY_CLOSE(testing::compare(shown, expected, 1e-4, 1e-3));
            // They are the k most probable: nothing left out beats the last one shown.
            std::vector<float> sorted = probs;
            std::nth_element(sorted.begin(), sorted.begin() + ContextCompareLab::kTopK - 1, sorted.end(), std::greater<>());
            QVERIFY(shown.back() >= sorted[ContextCompareLab::kTopK - 1] - 1e-4f);
            for (size_t i = 1; i < shown.size(); ++i) QVERIFY(shown[i - 1] >= shown[i]);
        }
        // Tokens in both lists are the highlighted ones.
        for (int s = 0; s < 2; ++s) {
            const QVector<qint32> mine = lab->nextTokenIds(s), other = lab->nextTokenIds(1 - s);
            const QVector<bool> marked = lab->nextTokenBars(s)->viewState().highlighted;
            for (qsizetype i = 0; i < mine.size(); ++i) QCOMPARE(marked[i], other.contains(mine[i]));
        }
        for (int s = 0; s < 2; ++s) {
            const double expected = test_kl(logits[size_t(s)], logits[size_t(1 - s)]);
            QVERIFY2(std::fabs(lab->klShown(s) - expected) <= 1e-3 + 1e-2 * expected,
                     qPrintable(QStringLiteral("KL shown %1, computed %2").arg(lab->klShown(s)).arg(expected)));
            QVERIFY(lab->klLabel()->text().contains(QString::number(lab->klShown(s), 'f', 4)));
        }
    }
}

void TestContextCompareLab::defaultPickIsBank() {
    LMSCOPE_REQUIRE_FILE(testing::sample_model(), "the sample model SmolLM2");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(QStringLiteral("smollm2"), host, lab));
    for (int s = 0; s < 2; ++s) {
        QCOMPARE(lab->pickedText(s).trimmed(), QStringLiteral("bank"));
        QCOMPARE(lab->tokens(s)->selectedQuery(), lab->pickedPosition(s));
    }
    QCOMPARE(lab->pickedPosition(0), lab->result(0)->size() - 1);  // "... river bank": the last token
    QVERIFY(lab->pickedPosition(1) < lab->result(1)->size() - 1);   // "... bank account": before the last
}

void TestContextCompareLab::rerunUpdatesEverything() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(QStringLiteral("fx-gqa"), host, lab));
    const LabModelPtr model = host.model();
    const QString a = QStringLiteral("Cats purr softly"), b = QStringLiteral("Dogs bark loudly at night");
    lab->setPrompts(a, b);
    QSignalSpy finished(lab.get(), &ContextCompareLab::runFinished);
    lab->run();
    QVERIFY(finished.wait(kRunTimeoutMs));
    const std::array<QString, 2> texts{a, b};
    for (int s = 0; s < 2; ++s) {
        const CoreRun core = core_run(model, texts[size_t(s)]);
        QCOMPARE(lab->result(s)->ids, core.ids);
        QCOMPARE(lab->tokens(s)->sequenceLength(), qint32(core.ids.size()));
        const int32_t pos = lab->pickedPosition(s);
        LMSCOPE_VERIFY_CLOSE(testing::compare(to_floats(lab->attentionBars(s)->viewState().values), core.row(lab->layer(), lab->head(), pos),
                                              2.5e-4, 1e-3));
        std::vector<float> probs = prefix_logits(model, core.ids, pos);
        engine::ops::softmax(probs.data(), int64_t(probs.size()));
        QVERIFY(std::fabs(lab->nextTokenBars(s)->viewState().values.front() - probs[size_t(lab->nextTokenIds(s).front())]) < 1e-4);
        QVERIFY(lab->grid(s)->viewState().layers == model->model->spec().n_layer());
    }
    QVERIFY(!lab->isRunning());
}

void TestContextCompareLab::stopLeavesLabUsable() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(QStringLiteral("fx-gqa"), host, lab));
    const std::vector<int32_t> before = lab->result(0)->ids;
    QSignalSpy finished(lab.get(), &ContextCompareLab::runFinished);
    QSignalSpy failed(lab.get(), &ContextCompareLab::runFailed);
    lab->setPrompts(QStringLiteral("one two three four five six"), QStringLiteral("seven eight nine ten"));
    lab->run();
    QVERIFY(lab->isRunning());
    lab->stop();
    QVERIFY(!lab->isRunning());
    QCOMPARE(lab->result(0)->ids, before);  // the last finished run stays shown
    // A new run after the stop delivers its own results, never the stopped run's.
    const QString a = QStringLiteral("A small test"), b = QStringLiteral("Another small test");
    lab->setPrompts(a, b);
    lab->run();
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(failed.size(), 0);
    QCOMPARE(lab->result(0)->ids, host.model()->tokenizer->encode_ids(a.toStdString(), true, false));
    QCOMPARE(lab->result(1)->ids, host.model()->tokenizer->encode_ids(b.toStdString(), true, false));
    QCOMPARE(lab->attentionBars(0)->viewState().values.size(), qsizetype(lab->pickedPosition(0)) + 1);
}

void TestContextCompareLab::tooLongPromptIsReported() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(QStringLiteral("fx-gqa"), host, lab));
    QSignalSpy failed(lab.get(), &ContextCompareLab::runFailed);
    lab->setPrompt(1, QString(QStringLiteral("word ")).repeated(200));
    lab->run();
    QVERIFY(failed.wait(kRunTimeoutMs));
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("at most 64")), qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(lab->statusLabel()->text().contains(QStringLiteral("at most 64")));
    QVERIFY(!lab->isRunning());
}

void TestContextCompareLab::clicksPickHeadAndToken() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(QStringLiteral("fx-gqa"), host, lab));
    lab->show();
    QVERIFY(QTest::qWaitForWindowExposed(lab.get()));
    // A cell of the difference grid picks its layer and head for both attention rows.
    widgets::HeadGrid* grid = lab->differenceGrid();
    grid->plot()->replot();
    const int32_t layer = grid->viewState().layers - 1, head = 1;
    lab->setLayerHead(0, 0);
    QTest::mouseClick(grid->plot(), Qt::LeftButton, {}, grid->cellCenter(layer, head));
    QCOMPARE(lab->layer(), layer);
    QCOMPARE(lab->head(), head);
    const CoreRun core = core_run(host.model(), lab->prompt(1));
    // A chip of prompt B picks that token: its row and its prediction follow.
    widgets::TokenStrip* strip = lab->strip(1);
    lab->pickToken(1, qint32(core.ids.size()) - 1);
    QCOMPARE(lab->pickedPosition(1), qint32(core.ids.size()) - 1);
    QTest::mouseClick(strip, Qt::LeftButton, {}, strip->chipRect(1).center());
    QCOMPARE(lab->pickedPosition(1), 1);
    LMSCOPE_VERIFY_CLOSE(testing::compare(to_floats(lab->attentionBars(1)->viewState().values), core.row(layer, head, 1), 2.5e-4, 1e-3));
    std::vector<float> probs = prefix_logits(host.model(), core.ids, 1);
    engine::ops::softmax(probs.data(), int64_t(probs.size()));
    QVERIFY(std::fabs(lab->nextTokenBars(1)->viewState().values.front() - probs[size_t(lab->nextTokenIds(1).front())]) < 1e-4);
}

void TestContextCompareLab::languageChangeKeepsState() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    LabHost host(nullptr);
    std::unique_ptr<ContextCompareLab> lab;
    QVERIFY(start(QStringLiteral("fx-gqa"), host, lab));
    lab->setMeasure(int(HeadMeasure::FirstToken));
    lab->setLayerHead(1, 1);
    const QVector<double> row = lab->attentionBars(0)->viewState().values;
    const double shown = cell(lab->grid(0), 1, 1);
    QEvent change(QEvent::LanguageChange);
    QCoreApplication::sendEvent(lab.get(), &change);
    QCOMPARE(lab->measure(), HeadMeasure::FirstToken);
    QCOMPARE(lab->attentionBars(0)->viewState().values, row);
    QCOMPARE(cell(lab->grid(0), 1, 1), shown);
    QVERIFY(!lab->klLabel()->text().isEmpty());
}

QTEST_MAIN(TestContextCompareLab)
#include "test_context_compare_lab.moc"
