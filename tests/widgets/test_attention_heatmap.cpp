// The attention heatmap: cells hold the trace's weights, future cells (and keys outside a local
// layer's window) are masked (NaN over a hatched background), the selected query row appears as bars, controls drive the selection,
// clicking a cell selects its query, and the hover text names both tokens and the weight.
#include "plot_checks.h"
#include "sample_trace.h"
#include "widgets/attention_heatmap.h"

#include <QCheckBox>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <qcustomplot.h>

using namespace lmscope;
using namespace lmscope::widgets;
using namespace lmscope::test;

namespace {

// A previous-token head everywhere: row q puts all its weight on key q − 1 (row 0 on itself), the
// one-cell-wide diagonal that a plain downscale of a long sequence drops between pixels.
double previous_token(qint32, qint32, qint32 q, qint32 k) { return k == std::max(q - 1, 0) ? 1.0 : 0.0; }

// One prefill of `n` prompt tokens with previous-token attention.
QVector<StepView> long_prefill(qint32 n) {
    QVector<TokenView> tokens;
    for (qint32 i = 0; i < n; ++i) tokens.push_back(token(1000 + i, QStringLiteral(" w%1").arg(i), Choice::Prompt));
    StepView s = make_step(0, -1, Phase::Prefill, 0, tokens, 100.0, previous_token);
    set_logits(s, 436, Choice::Greedy, {candidate(436, QStringLiteral(" was"), 14.0f, 1.0f)},
               {candidate(436, QStringLiteral(" was"), 14.0f, 1.0f)});
    return {s};
}

}  // namespace

class TestAttentionHeatmap : public QObject {
    Q_OBJECT
private slots:
    void cellsEqualWeights_data() {
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("head");
        for (int l = 0; l < kLayers; ++l)
            for (int h = 0; h < kHeads; ++h) QTest::addRow("L%d H%d", l, h) << l << h;
    }
    void cellsEqualWeights() {
        QFETCH(int, layer);
        QFETCH(int, head);
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        AttentionHeatmap view(&m);
        m.setSelectedHead(layer, head);
        QCOMPARE(view.layerBox()->value(), layer);
        QCOMPARE(view.headBox()->value(), head);
        const AttentionHeatmap::ViewState shown = view.viewState();
        QCOMPARE(shown.side, kTokens);
        QCOMPARE(shown.cells.size(), kTokens * kTokens);
        QVERIFY(!shown.interpolated);
        for (int q = 0; q < kTokens; ++q)
            for (int k = 0; k < kTokens; ++k) {
                const double cell = shown.cell(q, k);
                if (k > q) QVERIFY2(std::isnan(cell), "masked cell must be masked");
                else QCOMPARE(float(cell), stored_weight(layer, head, q, k));
            }
        // Masked cells are transparent over a hatched background.
        QVERIFY(shown.masked_hatched);
        QCOMPARE(shown.key_label, QStringLiteral("key (attended-to token)"));
        QCOMPARE(shown.query_label, QStringLiteral("query (attending token)"));
        QCOMPARE(shown.scale_label, QStringLiteral("weight"));
        // The selected query (the last token) as bars.
        QCOMPARE(shown.row.size(), kTokens);
        for (int k = 0; k < kTokens; ++k) QCOMPARE(float(shown.row[k]), stored_weight(layer, head, kTokens - 1, k));
    }

    // A local layer (sliding window 2): keys two or more positions back are masked too, and the
    // hover text says why; a global layer shows them.
    void slidingWindowMasksOldKeys() {
        TraceModel m;
        ModelView mv = sample_model_view();
        mv.layer_window = QVector<qint32>(kLayers, 0);
        mv.layer_window[0] = 2;
        m.setModel(mv);
        QVERIFY(m.setSteps(sample_steps()));
        AttentionHeatmap view(&m);
        m.setSelectedHead(0, 1);
        const qint32 q = kTokens - 1;
        QVERIFY(std::isnan(view.viewState().cell(q, 0)));
        QCOMPARE(float(view.viewState().cell(q, q - 1)), stored_weight(0, 1, q, q - 1));
        QVERIFY2(view.cellDescription(q, 0).contains(QStringLiteral("outside this local layer's window of 2 tokens")),
                 qPrintable(view.cellDescription(q, 0)));
        QVERIFY(view.cellDescription(0, q).contains(QStringLiteral("the future is hidden")));
        m.setSelectedHead(1, 1);
        QCOMPARE(float(view.viewState().cell(q, 0)), stored_weight(1, 1, q, 0));
        QVERIFY(!view.cellDescription(q, 0).contains(QStringLiteral("masked")));
    }

    // The line above the map says how the shown head shares its keys and values: its own (MHA),
    // with its group (GQA), or one KV head for every query head (MQA, as Gemma 3 270M).
    void kvSharingIsNamed_data() {
        QTest::addColumn<int>("n_head_kv");
        QTest::addColumn<QString>("expected");
        QTest::newRow("MHA") << 4 << QStringLiteral("each head has its own keys and values (MHA)");
        QTest::newRow("GQA") << 2 << QStringLiteral("KV head 1, shared by query heads 2, 3 (GQA)");
        QTest::newRow("MQA") << 1 << QStringLiteral("one KV head, shared by every query head: 0, 1, 2, 3 (MQA)");
    }
    void kvSharingIsNamed() {
        QFETCH(int, n_head_kv);
        QFETCH(QString, expected);
        TraceModel m;
        ModelView mv = sample_model_view();
        mv.n_head = 4;
        mv.n_head_kv = n_head_kv;
        m.setModel(mv);
        AttentionHeatmap view(&m);
        m.setSelectedHead(0, 3);
        QCOMPARE(view.groupLabel()->text(), expected);
    }

    // The map's context menu is the grid's: it edits the TraceModel's set for the head shown,
    // offers "Recompute this step" (recomputeStep with the current step), and is empty when
    // switching is off (a replay).
    void headMenuEditsTheAblation_data() {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QVector<LayerHead>>("before");
        QTest::addColumn<QVector<LayerHead>>("after");
        QTest::newRow("off") << QStringLiteral("Turn off head 2:1") << QVector<LayerHead>{} << QVector<LayerHead>{{2, 1}};
        QTest::newRow("back on") << QStringLiteral("Turn head 2:1 back on") << QVector<LayerHead>{{0, 0}, {2, 1}}
                                 << QVector<LayerHead>{{0, 0}};
        QVector<LayerHead> layer;
        for (qint32 h = 0; h < kHeads; ++h) layer.push_back({2, h});
        QTest::newRow("the layer") << QStringLiteral("Turn off every head of layer 2") << QVector<LayerHead>{} << layer;
        QTest::newRow("all on") << QStringLiteral("Turn every head back on") << QVector<LayerHead>{{1, 0}} << QVector<LayerHead>{};
    }
    void headMenuEditsTheAblation() {
        QFETCH(QString, action);
        QFETCH(QVector<LayerHead>, before);
        QFETCH(QVector<LayerHead>, after);
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        m.setAblation(before);
        AttentionHeatmap view(&m);
        m.setSelectedHead(2, 1);
        QMenu menu;
        view.fillHeadMenu(&menu);
        QAction* chosen = nullptr;
        for (QAction* a : menu.actions())
            if (a->text() == action) chosen = a;
        QVERIFY2(chosen && chosen->isEnabled(), qPrintable(action));
        chosen->trigger();
        QCOMPARE(m.ablation(), after);

        QSignalSpy recompute(&view, &AttentionHeatmap::recomputeStep);
        QMenu again;
        view.fillHeadMenu(&again);
        for (QAction* a : again.actions())
            if (a->text().startsWith(QStringLiteral("Recompute this step"))) a->trigger();
        QCOMPARE(recompute.size(), 1);
        QCOMPARE(recompute.front().front().toInt(), m.currentStep());

        view.setSwitchingEnabled(false);
        QMenu none;
        view.fillHeadMenu(&none);
        QVERIFY(none.isEmpty());
    }

    void controlsDriveSelection() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        AttentionHeatmap view(&m);
        view.layerBox()->setValue(2);
        view.headBox()->setValue(1);
        QCOMPARE(m.selectedLayer(), 2);
        QCOMPARE(m.selectedHead(), 1);
        QCOMPARE(view.headBox()->maximum(), kHeads - 1);
        QCOMPARE(view.layerBox()->maximum(), kLayers - 1);

        view.meanBox()->setChecked(true);
        QVERIFY(view.meanOverHeads());
        QVERIFY(!view.headBox()->isEnabled());
        double sum = 0;
        for (int h = 0; h < kHeads; ++h) sum += stored_weight(2, h, 3, 1);
        QVERIFY(std::abs(view.viewState().cell(3, 1) - sum / kHeads) < 1e-6);
        QVERIFY(std::isnan(view.viewState().cell(3, 4)));
    }

    void logColours() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        AttentionHeatmap view(&m);
        view.logBox()->setChecked(true);
        const AttentionHeatmap::ViewState log = view.viewState();
        QVERIFY(log.log_colors);
        QVERIFY(log.color_low > 0);
        QCOMPARE(log.color_high, double(stored_weight(0, 0, 0, 0)));  // row 0 puts 1.0 on key 0
        QVERIFY(std::abs(log.color_low - log.color_high * 1e-4) < 1e-12);
        // Cells at or above the floor keep their weights; masked cells stay masked.
        QCOMPARE(float(log.cell(5, 2)), stored_weight(0, 0, 5, 2));
        QVERIFY(std::isnan(log.cell(2, 5)));
        view.logBox()->setChecked(false);
        QVERIFY(!view.viewState().log_colors);
        QCOMPARE(view.viewState().color_low, 0.0);
    }

    void followsFontChanges() {
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        AttentionHeatmap view(&m);
        const double before = view.plot()->axisRect(0)->axis(QCPAxis::atBottom)->tickLabelFont().pointSizeF();
        QFont f = view.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        view.setFont(f);
        QVERIFY(view.plot()->axisRect(0)->axis(QCPAxis::atBottom)->tickLabelFont().pointSizeF() > 1.9 * before);
        QVERIFY(view.plot()->axisRect(1)->axis(QCPAxis::atLeft)->labelFont().pointSizeF() > 1.9 * before);
    }

    void clickAndHover() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        AttentionHeatmap view(&m);
        view.resize(700, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        QSignalSpy spy(&view, &AttentionHeatmap::cellClicked);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, view.cellCenter(2, 1).toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 2);
        QCOMPARE(spy.at(0).at(1).toInt(), 1);
        QCOMPARE(m.selectedQuery(), 2);
        QCOMPARE(view.viewState().row.size(), 3);
        QVERIFY(view.viewState().row_label.contains(QStringLiteral("(position 2)")));

        QCOMPARE(view.cellDescription(2, 1),
                 QStringLiteral("query '␣bank' (2) → key '␣river' (1): %1").arg(stored_weight(0, 0, 2, 1), 0, 'g', 4));
        QVERIFY(view.cellDescription(1, 2).contains(QStringLiteral("masked")));
        QVERIFY(view.cellDescription(9, 0).isEmpty());
    }

    // Grey rows say why: a long prefill kept the rows of some heads only (and not of the one
    // shown), or the trace's budget released them; nothing to say when every row is there.
    void missingRowsAreExplained_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("note");  // "" : hidden
        QTest::newRow("every row") << "full" << QString();
        QTest::newRow("heads kept by the budget") << "some heads"
                                                  << QStringLiteral("the trace's memory budget keeps this step's rows for 2 of 12 heads, and not for this one");
        QTest::newRow("released by the budget") << "dropped" << QStringLiteral("the trace's memory budget released them");
        QTest::newRow("the shown head was kept") << "kept" << QString();
    }
    void missingRowsAreExplained() {
        QFETCH(QString, kind);
        QFETCH(QString, note);
        QVector<StepView> steps = sample_steps();
        StepView& prefill = steps[0];
        if (kind == QLatin1String("some heads") || kind == QLatin1String("kept")) {
            QVector<AttentionPlaneView> two;
            for (const AttentionPlaneView& p : prefill.planes)
                if (p.layer == 1 && (p.head == 0 || p.head == 1)) two.push_back(p);
            prefill.planes = two;
        } else if (kind == QLatin1String("dropped")) {
            prefill.planes.clear();
            prefill.planes_dropped = true;
        }
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(0);
        m.setSelectedHead(1, kind == QLatin1String("kept") ? 1 : 2);
        AttentionHeatmap view(&m);
        QCOMPARE(view.noteLabel()->isHidden(), note.isEmpty());
        QVERIFY2(view.noteLabel()->text().contains(note), qPrintable(view.noteLabel()->text()));
    }

    // A switched-off head's map says so: for the step shown (it ran without the head's output),
    // or from the next step on (switched off since); the mean over heads and a head that is on
    // say nothing.
    void switchedOffHeadIsSaid_data() {
        QTest::addColumn<QVector<LayerHead>>("step_ablated");
        QTest::addColumn<QVector<LayerHead>>("ablation");
        QTest::addColumn<bool>("mean");
        QTest::addColumn<QString>("note");  // "" : hidden
        const QVector<LayerHead> shown{{2, 1}}, other{{2, 0}};
        QTest::newRow("on") << QVector<LayerHead>{} << QVector<LayerHead>{} << false << QString();
        QTest::newRow("another head off") << other << other << false << QString();
        QTest::newRow("off in this step") << shown << shown << false << QStringLiteral("Head 1 of layer 2 was switched off in this step");
        QTest::newRow("off from the next step") << QVector<LayerHead>{} << shown << false
                                                << QStringLiteral("switched off from the next step on");
        QTest::newRow("mean over heads") << shown << shown << true << QString();
    }
    void switchedOffHeadIsSaid() {
        QFETCH(QVector<LayerHead>, step_ablated);
        QFETCH(QVector<LayerHead>, ablation);
        QFETCH(bool, mean);
        QFETCH(QString, note);
        QVector<StepView> steps = sample_steps();
        for (StepView& s : steps) s.ablated = step_ablated;
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(steps));
        m.setSelectedHead(2, 1);
        AttentionHeatmap view(&m);
        view.meanBox()->setChecked(mean);
        m.setAblation(ablation);  // after the view exists: the note follows the change
        QCOMPARE(view.noteLabel()->isHidden(), note.isEmpty());
        QVERIFY2(view.noteLabel()->text().contains(note), qPrintable(view.noteLabel()->text()));
    }

    // Past 512 positions the map is an overview of b × b blocks, each its largest weight: every
    // block row of a previous-token head keeps its 1 (never blank). Zoom to row shows 48 tokens
    // around the selected row at one cell each, follows the row, and a wheel-like range change
    // or unchecking it returns to the overview's rules.
    void longSequenceOverviewAndZoom_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("block");
        QTest::newRow("512: one cell a token") << 512 << 1;
        QTest::newRow("600: 2 x 2 blocks") << 600 << 2;
        QTest::newRow("2000: 4 x 4 blocks") << 2000 << 4;
    }
    void longSequenceOverviewAndZoom() {
        QFETCH(int, n);
        QFETCH(int, block);
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(long_prefill(n)));
        AttentionHeatmap view(&m);
        view.resize(700, 800);
        QCOMPARE(view.cellBlock(), block);
        QCOMPARE(view.shownPositions(), std::make_pair(0, n - 1));
        QCOMPARE(view.title().contains(QStringLiteral("tokens a cell")), block > 1);
        const AttentionHeatmap::ViewState overview = view.viewState();
        const int cells = (n + block - 1) / block;
        QCOMPARE(overview.side, cells);
        for (int qb = 0; qb < cells; ++qb) {
            double top = 0.0;
            for (int kb = 0; kb < cells; ++kb)
                if (!std::isnan(overview.cell(qb, kb))) top = std::max(top, overview.cell(qb, kb));
            QVERIFY2(top == 1.0, qPrintable(QStringLiteral("block row %1 lost its diagonal").arg(qb)));
        }
        // The overview's cell for a block holds the block's largest weight at the block's centre.
        QCOMPARE(overview.centres.back(), (cells - 1) * block + (block - 1) / 2.0);

        m.setSelectedQuery(n - 100);
        view.zoomButton()->setChecked(true);
        const auto [first, last] = view.shownPositions();
        QCOMPARE(last - first + 1, AttentionHeatmap::kDetail);
        QVERIFY(first <= n - 100 && n - 100 <= last);
        QCOMPARE(view.cellBlock(), 1);
        QCOMPARE(float(view.viewState().cell(n - 100, n - 101)), 1.0f);
        m.setSelectedQuery(10);  // the detail follows the row
        QCOMPARE(view.shownPositions(), std::make_pair(0, AttentionHeatmap::kDetail - 1));

        // The wheel and dragging move the axes themselves: the view stops following the row.
        view.plot()->axisRect(0)->axis(QCPAxis::atBottom)->setRange(QCPRange(99.5, 199.5));
        QVERIFY(!view.zoomButton()->isChecked());
        QCOMPARE(view.shownPositions().first, 100);
        view.plot()->axisRect(0)->axis(QCPAxis::atBottom)->setRange(QCPRange(-1000, 5000));  // clamped
        QCOMPARE(view.shownPositions(), std::make_pair(0, n - 1));

        view.zoomButton()->setChecked(true);
        view.zoomButton()->setChecked(false);
        QCOMPARE(view.shownPositions(), std::make_pair(0, n - 1));
        QCOMPARE(view.cellBlock(), block);
    }

    // The overview's title ("· 4 × 4 tokens a cell (zoom for each)") breaks into lines in a narrow
    // dock rather than running past the plot, and reads whole.
    void titleFitsTheDock_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("width");
        QTest::newRow("2000 tokens, narrow") << 2000 << 380;
        QTest::newRow("2000 tokens, wide") << 2000 << 900;
        QTest::newRow("6 tokens, narrow") << 6 << 380;
    }
    void titleFitsTheDock() {
        QFETCH(int, n);
        QFETCH(int, width);
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(long_prefill(n)));
        AttentionHeatmap view(&m);
        view.resize(width, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QStringList problems = title_problems(view.plot());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(view.title().contains(QStringLiteral("tokens a cell (zoom for each)")), n > 512);
        QVERIFY(!view.title().contains(QLatin1Char('\n')));
    }

    // A sequence past the trace's budget (TraceModel::kMatrixBytes): the matrix pools 2 × 2
    // blocks, the overview blocks are whole numbers of them, zooming in stops at them (the title
    // says so), and the hover text and the row's bars still give each key's own weight.
    void sequencePastTheBudget() {
        const qint32 n = 11586;
        StepView prefill;  // no rows captured
        prefill.tokens = QVector<TokenView>(n - 1, token(1000, QStringLiteral(" w"), Choice::Prompt));
        const auto none = [](qint32, qint32, qint32, qint32) { return 0.0; };
        StepView last = make_step(1, 0, Phase::Decode, n - 1, {token(1001, QStringLiteral(" x"), Choice::Greedy)}, 1.0, none);
        QVector<float> row(n, 0.0f);  // [key]: previous-token attention
        row[n - 2] = 1.0f;
        last.planes = {AttentionPlaneView::from_matrix(0, 0, n - 1, 1, row)};
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps({prefill, last}));
        AttentionHeatmap view(&m);
        view.resize(700, 800);
        QCOMPARE(view.matrix().block, 2);
        QCOMPARE(view.cellBlock(), 24);  // 23 positions a cell keep to 512 cells: 12 of the matrix's
        QVERIFY2(view.title().contains(QStringLiteral("(zoom for each)")), qPrintable(view.title()));
        view.zoomButton()->setChecked(true);
        QCOMPARE(view.cellBlock(), 2);
        QVERIFY2(view.title().contains(QStringLiteral("2 × 2 tokens a cell (the finest the memory budget allows")),
                 qPrintable(view.title()));
        const AttentionHeatmap::ViewState shown = view.viewState();
        QCOMPARE(shown.row.size(), n);
        QCOMPARE(shown.row[n - 2], 1.0);
        QVERIFY2(view.cellDescription(n - 1, n - 2).endsWith(QStringLiteral(": 1")), qPrintable(view.cellDescription(n - 1, n - 2)));
        QVERIFY2(view.cellDescription(n - 1, n - 3).endsWith(QStringLiteral(": 0")), qPrintable(view.cellDescription(n - 1, n - 3)));
        QCOMPARE(view.table().rows.size(), (n - 1) / 2 + 1);  // the last query's cells
    }

    void uncapturedRowsAndSnapshot() {
        QVector<StepView> steps = sample_steps();
        steps[1].planes.clear();
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(steps));
        AttentionHeatmap view(&m);
        QVERIFY(std::isnan(view.viewState().cell(4, 0)));
        QVERIFY(view.cellDescription(4, 0).contains(QStringLiteral("not recorded")));
        QCOMPARE(view.table().rows.size(), 4 * 5 / 2 + 6);  // prefill triangle + row 5

        QVERIFY(m.setSteps(sample_steps()));
        m.setSelectedHead(1, 2);
        m.setSelectedQuery(3);
        view.resize(760, 860);
        view.plot()->replot();
        QVERIFY(view.grab().toImage().save(snapshot_path(QStringLiteral("attention_heatmap"))));
    }
};

QTEST_MAIN(TestAttentionHeatmap)
#include "test_attention_heatmap.moc"
