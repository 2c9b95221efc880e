// The logit lens lab against the core: the prompt's chips are the tokenizer's ids, the table
// shows the core's lens entries (top-5 per layer) for the selected position, the last layer's
// top-1 is the model's greedy next token, and the rank chart agrees with the table and ends at
// rank 1. Fixture model and SmolLM2 (skipped when absent). A lab behind another tab waits to be
// shown before it reads a new model through the lens.
#include "common/testing.h"
#include "engine/model.h"
#include "engine/session.h"
#include "gui/labs/lab_host.h"
#include "gui/engine_setup.h"
#include "gui/labs/logit_lens_lab.h"
#include "gui/labs/token_list_view.h"
#include "tokenizer/tokenizer.h"
#include "widgets/lens_rank_chart.h"

#include <QLineEdit>
#include <QTableWidget>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace lmscope;
using namespace lmscope::gui;
using namespace lmscope::gui::labs;

class TestLogitLensLab : public QObject {
    Q_OBJECT
private slots:
    void tableMatchesCoreLens_data();
    void tableMatchesCoreLens();
    void hiddenLabWaitsToBeShown();
};

void TestLogitLensLab::tableMatchesCoreLens_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("position");  // -1: the default (last token)
    QTest::newRow("fixture, last") << QStringLiteral("fixture") << -1;
    QTest::newRow("fixture, second") << QStringLiteral("fixture") << 1;
    QTest::newRow("smollm2, last") << QStringLiteral("smollm2") << -1;
    QTest::newRow("smollm2, second") << QStringLiteral("smollm2") << 1;
}

void TestLogitLensLab::tableMatchesCoreLens() {
    QFETCH(QString, model);
    QFETCH(int, position);
    const std::string path =
        model == QStringLiteral("smollm2") ? testing::sample_model() : testing::testdata_file("models/fx-gqa.gguf");
    LMSCOPE_REQUIRE_FILE(path, "the logit lens lab's model");
    const LabModelPtr m = load_lab_model(QString::fromStdString(path));
    LabHost host(nullptr);
    host.setModel(m);
    LogitLensLab lab(&host);
    lab.show();
    QTRY_VERIFY_WITH_TIMEOUT(lab.result() && !lab.isBusy(), 120000);  // runs by itself on the default prompt

    auto* chips = lab.findChild<TokenListView*>(QStringLiteral("lensTokens"));
    auto* prompt = lab.findChild<QLineEdit*>(QStringLiteral("lensPrompt"));
    QVERIFY(chips && prompt);
    const std::vector<int32_t> ids = m->tokenizer->encode_ids(prompt->text().toStdString(), true, false);
    QVERIFY(ids.size() >= 3);
    const QVector<qint32> shown = chips->ids();
    QCOMPARE(std::vector<int32_t>(shown.begin(), shown.end()), ids);
    QCOMPARE(lab.selectedPosition(), int(ids.size()) - 1);
    if (position >= 0) {
        lab.selectPosition(position);
        QVERIFY(lab.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!lab.isBusy() && lab.result() && lab.result()->position == position, 120000);
    } else {
        position = int(ids.size()) - 1;
    }

    // The core's lens for the same prefix, top 5.
    engine::SessionOptions options = lab_session_options();
    options.capture.mode = trace::CaptureMode::None;
    options.capture.logit_lens = true;
    options.capture.lens_top_k = LogitLensLab::kTopK;
    EngineSession core = make_engine_session(m, {}, options);
    const trace::StepTrace& step = core.session->prefill(std::span<const int32_t>(ids.data(), size_t(position) + 1));
    const int n_layer = m->model->spec().n_layer();
    QCOMPARE(step.lens_k, LogitLensLab::kTopK);
    QCOMPARE(int(step.lens.size()), n_layer * LogitLensLab::kTopK);

    auto* table = lab.findChild<QTableWidget*>(QStringLiteral("lensTable"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), n_layer);
    QCOMPARE(table->columnCount(), LogitLensLab::kTopK);
    for (int l = 0; l < n_layer; ++l)
        for (int k = 0; k < LogitLensLab::kTopK; ++k) {
            const trace::LensEntry& e = step.lens[size_t(l * LogitLensLab::kTopK + k)];
            const QTableWidgetItem* item = table->item(l, k);
            QVERIFY(item);
            QCOMPARE(item->data(Qt::UserRole).toInt(), e.token);
            QVERIFY2(std::abs(item->data(Qt::UserRole + 1).toDouble() - double(e.prob)) < 1e-6,
                     qPrintable(QStringLiteral("layer %1 column %2").arg(l).arg(k)));
        }

    // The last layer's top-1 is the greedy next token, the raw logits' argmax.
    const int32_t argmax = step.logits.top_before().front().id;
    QCOMPARE(step.logits.chosen, argmax);
    QCOMPARE(table->item(n_layer - 1, 0)->data(Qt::UserRole).toInt(), argmax);
    QCOMPARE(lab.result()->final_token, argmax);

    // The rank chart: one point per layer, 1-based ranks; where the final token is in a layer's
    // top 5 the rank is its column, elsewhere it ranks below the table.
    const widgets::LensRankChart::ViewState chart = lab.rankChart()->viewState();
    QCOMPARE(chart.rank.size(), n_layer);
    for (int l = 0; l < n_layer; ++l) {
        QCOMPARE(chart.layers[l], double(l));
        const double r = chart.rank[l];
        const auto* row = step.lens.data() + size_t(l * LogitLensLab::kTopK);
        const auto* hit = std::find_if(row, row + LogitLensLab::kTopK,
                                       [&](const trace::LensEntry& e) { return e.token == argmax; });
        if (hit != row + LogitLensLab::kTopK) QCOMPARE(r, double(hit - row) + 1.0);
        else QVERIFY2(r > LogitLensLab::kTopK, qPrintable(QStringLiteral("layer %1 rank %2").arg(l).arg(r)));
    }
    QCOMPARE(chart.rank.back(), 1.0);  // rank 1 (0-based 0) at the last layer
    QCOMPARE(lab.result()->final_rank.back(), 0);
}

// The model arrives while the lab is hidden: its prompt's chips show, the lens waits; shown, it
// runs on its own; a prompt typed while hidden runs at once.
void TestLogitLensLab::hiddenLabWaitsToBeShown() {
    const std::string path = testing::testdata_file("models/fx-gqa.gguf");
    LMSCOPE_REQUIRE_FILE(path, "the logit lens lab's model");
    LabHost host(nullptr);
    host.setModel(load_lab_model(QString::fromStdString(path)));
    LogitLensLab lab(&host);
    QTRY_VERIFY(!lab.promptIds().empty());  // the model reached the lab
    QTest::qWait(300);
    QVERIFY(!lab.isBusy());
    QVERIFY(!lab.result());
    lab.show();
    QVERIFY(lab.isBusy() || lab.result());
    QTRY_VERIFY_WITH_TIMEOUT(lab.result() && !lab.isBusy(), 120000);
    lab.hide();
    lab.setPrompt(QStringLiteral("Hello"));
    QTRY_VERIFY_WITH_TIMEOUT(lab.result() && !lab.isBusy() && lab.result()->position == lab.selectedPosition(), 120000);
}

QTEST_MAIN(TestLogitLensLab)
#include "test_logit_lens_lab.moc"
