// The KV chart: one point per step of the current path with the engine's bytes, the formula's
// line, the selected layer's bytes, prefill and decode steps marked apart; the export table.
#include "plot_checks.h"
#include "sample_trace.h"
#include "widgets/kv_chart.h"

#include <QtTest>
#include <qcustomplot.h>

using namespace lmscope;
using namespace lmscope::widgets;
using namespace lmscope::test;

class TestKvChart : public QObject {
    Q_OBJECT
private slots:
    void pointsEqualBytes_data() {
        QTest::addColumn<int>("current");
        QTest::addColumn<int>("points");
        QTest::newRow("after prefill") << 0 << 1;
        QTest::newRow("after one decode") << 1 << 2;
        QTest::newRow("after two decodes") << 2 << 3;
    }
    void pointsEqualBytes() {
        QFETCH(int, current);
        QFETCH(int, points);
        TraceModel m;
        m.setModel(sample_model_view());
        QVector<StepView> steps = sample_steps();
        steps[1].kv.bytes_per_layer[1] += 32;  // layers may differ; the chart shows the selected one
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(current);
        m.setSelectedHead(1, 0);
        KvChart chart(&m);
        const KvChart::ViewState v = chart.viewState();
        QCOMPARE(v.tokens.size(), points);
        QCOMPARE(v.measured.size(), points);
        QCOMPARE(v.formula.size(), points);
        QCOMPARE(v.formula_tokens, v.tokens);  // no model line: the formula at the steps' points
        QCOMPARE(v.layer.size(), points);
        for (int i = 0; i < points; ++i) {
            const StepView& s = steps[i];
            QCOMPARE(v.tokens[i], double(s.kv.tokens));
            QCOMPARE(v.measured[i], double(s.kv.bytes_total));
            QCOMPARE(v.formula[i], double(s.kv.formula_bytes));
            QCOMPARE(v.layer[i], double(s.kv.bytes_per_layer[1]));
        }
        QCOMPARE(v.measured[0], double(kv_layer_bytes(4) * kLayers));
        QCOMPARE(v.prefill_tokens, QVector<double>{4.0});
        QCOMPARE(v.decode_tokens.size(), points - 1);
        QVERIFY(v.prefill_shape != v.decode_shape);
        QCOMPARE(v.tokens_label, QStringLiteral("tokens in the cache"));
        QCOMPARE(v.bytes_label, QStringLiteral("bytes held"));
        QVERIFY2(v.title.startsWith(QStringLiteral("KV cache: ")), qPrintable(v.title));
        QVERIFY(v.disagree_tokens.isEmpty());  // measured = formula

        const ChartTable t = chart.table();
        QCOMPARE(t.rows.size(), points);
        QCOMPARE(t.columns.size(), 6 + kLayers);
        QCOMPARE(t.rows.back()[4].toULongLong(), steps[points - 1].kv.bytes_total);
    }

    void disagreementMarked_data() {
        QTest::addColumn<qint64>("extra");     // bytes step 1 holds beyond the formula's
        QTest::addColumn<bool>("formula");     // the formula is known
        QTest::addColumn<QVector<double>>("crosses");
        QTest::newRow("equal") << qint64(0) << true << QVector<double>{};
        QTest::newRow("a row too many") << qint64(kv_layer_bytes(1)) << true << QVector<double>{5.0};
        QTest::newRow("a row too few") << -qint64(kv_layer_bytes(1)) << true << QVector<double>{5.0};
        QTest::newRow("no formula known") << qint64(kv_layer_bytes(1)) << false << QVector<double>{};
    }
    // A step whose measured bytes differ from the formula's gets a red cross, named in the legend.
    void disagreementMarked() {
        QFETCH(qint64, extra);
        QFETCH(bool, formula);
        QFETCH(QVector<double>, crosses);
        TraceModel m;
        m.setModel(sample_model_view());
        QVector<StepView> steps = sample_steps();
        steps[1].kv.bytes_total = quint64(qint64(steps[1].kv.bytes_total) + extra);
        if (!formula)
            for (StepView& s : steps) s.kv.formula_bytes = 0;
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(2);
        KvChart chart(&m);
        QCOMPARE(chart.viewState().disagree_tokens, crosses);
        bool in_legend = false;
        for (int i = 0; i < chart.plot()->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(chart.plot()->legend->item(i)))
                in_legend = in_legend || item->plottable()->name() == QStringLiteral("measured ≠ formula");
        QCOMPARE(in_legend, !crosses.isEmpty());
    }

    // With offload the title says how much of the cache is in the file and what the step moved.
    void offloadInTitle() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVector<StepView> steps = sample_steps();
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(2);
        KvChart plain(&m);
        QVERIFY2(!plain.viewState().title.contains(QStringLiteral("offload")), qPrintable(plain.viewState().title));
        steps[2].kv.offloaded_bytes = 3 << 20;
        steps[2].kv.moved_bytes = 5 << 20;
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(2);
        KvChart chart(&m);
        QVERIFY2(chart.viewState().title.contains(QStringLiteral("3.0 MiB of it in the offload file (5.0 MiB moved by the step)")),
                 qPrintable(chart.viewState().title));
    }

    // A model with local layers: the tooltip gives the per-layer formula with this model's
    // counts, and a local layer's line is named after its window.
    void slidingWindowFormula_data() {
        QTest::addColumn<QVector<qint32>>("windows");
        QTest::addColumn<qint32>("layer");
        QTest::addColumn<QString>("tip");
        QTest::addColumn<QString>("line");
        QTest::newRow("no windows") << QVector<qint32>{} << 1
                                    << QString("× layers × KV heads × head dim × tokens") << QString("measured, layer 1");
        QTest::newRow("local layer selected") << QVector<qint32>{3, 0} << 0
                                              << QString("(global layers (2) × tokens + local layers (1) × min(tokens, 3))")
                                              << QString("measured, layer 0 (keeps its last 3)");
        QTest::newRow("global layer selected") << QVector<qint32>{3, 0} << 1
                                               << QString("local layers (1) × min(tokens, 3)") << QString("measured, layer 1");
    }
    void slidingWindowFormula() {
        QFETCH(QVector<qint32>, windows);
        QFETCH(qint32, layer);
        QFETCH(QString, tip);
        QFETCH(QString, line);
        TraceModel m;
        ModelView v = sample_model_view();
        v.layer_window = windows;
        m.setModel(v);
        QVERIFY(m.setSteps(sample_steps()));
        m.setSelectedHead(layer, 0);
        KvChart chart(&m);
        const KvChart::ViewState shown = chart.viewState();
        QVERIFY2(shown.tooltip.contains(tip), qPrintable(shown.tooltip));
        QCOMPARE(shown.layer_name, line);
    }

    // The model's formula line runs across the whole context, whatever the steps cover (one
    // long prefill is one point on it); with local layers their part is a line of its own that
    // flattens at the window, marked there when the window falls inside the context.
    void formulaAcrossContext_data() {
        QTest::addColumn<qint32>("window");      // the local layers' window; 0: none
        QTest::addColumn<qint32>("context");
        QTest::addColumn<QVector<double>>("corners");
        QTest::addColumn<double>("mark");         // the window's mark; 0: none
        QTest::newRow("every layer global") << 0 << 64 << QVector<double>{0, 64} << 0.0;
        QTest::newRow("window inside the context") << 16 << 64 << QVector<double>{0, 16, 64} << 16.0;
        QTest::newRow("window beyond the context") << 128 << 64 << QVector<double>{0, 64} << 0.0;
    }
    void formulaAcrossContext() {
        QFETCH(qint32, window);
        QFETCH(qint32, context);
        QFETCH(QVector<double>, corners);
        QFETCH(double, mark);
        const double per_token = double(kv_layer_bytes(1));  // one layer, one position
        const qint32 local = window > 0 ? kLayers - 1 : 0;   // layer 2 global, the others local
        ModelView v = sample_model_view();
        KvFormulaView& line = v.kv_formula;
        line.window = window;
        line.local_layers = local;
        for (double t : corners) {
            const double held = std::min(t, double(window));
            line.tokens << t;
            line.bytes << per_token * ((kLayers - local) * t + local * held);
            if (local > 0) line.local_bytes << per_token * local * held;
        }
        TraceModel m;
        m.setModel(v);
        QVector<StepView> steps = {sample_steps()[0]};  // one prefill: a single measured point
        QVERIFY(m.setSteps(steps));
        KvChart chart(&m);
        chart.resize(720, 420);
        const KvChart::ViewState shown = chart.viewState();
        QCOMPARE(shown.tokens, QVector<double>{4.0});
        QCOMPARE(shown.formula_tokens, corners);
        QCOMPARE(shown.formula, line.bytes);
        QVERIFY(shown.tokens_end >= context);
        QCOMPARE(shown.window_tokens, mark);
        QCOMPARE(shown.local_bytes, line.local_bytes);
        if (local > 0) {
            QCOMPARE(shown.local_tokens, corners);
            QCOMPARE(shown.local_bytes.back(), per_token * local * std::min(context, window));
        }
        if (mark > 0) {  // flat past the window: the whole line grows slower there
            QCOMPARE(shown.local_bytes[2], shown.local_bytes[1]);
            QVERIFY((shown.formula[2] - shown.formula[1]) / (corners[2] - corners[1]) < shown.formula[1] / corners[1]);
        }
        bool named = false;  // the local layers' line says its window in the legend
        for (int i = 0; i < chart.plot()->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(chart.plot()->legend->item(i)))
                named = named || item->plottable()->name() == QStringLiteral("formula, the 2 local layer(s) (window %1)").arg(window);
        QCOMPARE(named, local > 0);
    }

    // With the local layers' line and a local layer selected (the longest legend), the legend
    // stays below the data with the room its entries need, narrow or wide.
    void legendClearOfData_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("340x300") << QSize(340, 300);
        QTest::newRow("560x330") << QSize(560, 330);
        QTest::newRow("900x420") << QSize(900, 420);
    }
    void legendClearOfData() {
        QFETCH(QSize, size);
        ModelView v = sample_model_view();
        v.layer_window = {512, 512, 0};
        v.kv_formula.window = 512;
        v.kv_formula.local_layers = 2;
        v.kv_formula.tokens = {0, 512, 4096};
        v.kv_formula.bytes = {0, 3 * 512 * 64, (3 * 512 + 3584) * 64};
        v.kv_formula.local_bytes = {0, 2 * 512 * 64, 2 * 512 * 64};
        TraceModel m;
        m.setModel(v);
        QVERIFY(m.setSteps(sample_steps()));
        m.setSelectedHead(0, 0);
        KvChart chart(&m);
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QString problem = legend_problem(chart.plot());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void unknownFormulaHidden() {
        QVector<StepView> steps = sample_steps();
        for (StepView& s : steps) s.kv.formula_bytes = 0;
        TraceModel m;
        QVERIFY(m.setSteps(steps));
        KvChart chart(&m);
        QVERIFY(chart.viewState().formula.isEmpty());
        QCOMPARE(chart.viewState().measured.size(), 3);
    }

    void followsFontChanges() {
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        KvChart chart(&m);
        const double before = chart.plot()->xAxis->tickLabelFont().pointSizeF();
        QFont f = chart.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        chart.setFont(f);  // stage mode's larger font
        QVERIFY(chart.plot()->xAxis->tickLabelFont().pointSizeF() > 1.9 * before);
        QVERIFY(chart.plot()->legend->font().pointSizeF() >= f.pointSizeF());
    }

    void snapshot() {
        // Two local layers with a window of 16 and a global one, a context of 128: a prefill
        // of 4, then 40 decodes past the window; the formula's line to 128, bending at 16.
        constexpr qint32 kWindow = 16, kContext = 128;
        const double per_token = double(kv_layer_bytes(1));
        ModelView v = sample_model_view();
        v.layer_window = {kWindow, kWindow, 0};
        v.kv_formula.window = kWindow;
        v.kv_formula.local_layers = 2;
        for (double t : {0.0, double(kWindow), double(kContext)}) {
            v.kv_formula.tokens << t;
            v.kv_formula.bytes << per_token * (t + 2 * std::min(t, double(kWindow)));
            v.kv_formula.local_bytes << per_token * 2 * std::min(t, double(kWindow));
        }
        TraceModel m;
        m.setModel(v);
        QVector<StepView> steps = sample_steps();
        for (int i = 3; i < 43; ++i)
            steps.push_back(make_step(i, i - 1, Phase::Decode, i + 3, {token(9, QStringLiteral(" x"), Choice::Sampled)}, 3.0));
        for (StepView& s : steps) {
            const qint32 t = s.kv.tokens;
            s.kv.bytes_per_layer = {kv_layer_bytes(std::min(t, kWindow)), kv_layer_bytes(std::min(t, kWindow)), kv_layer_bytes(t)};
            s.kv.bytes_total = s.kv.formula_bytes = s.kv.bytes_per_layer[0] * 2 + s.kv.bytes_per_layer[2];
        }
        QVERIFY(m.setSteps(steps));
        m.setSelectedHead(0, 0);
        KvChart chart(&m);
        for (QSize size : {QSize(720, 420), QSize(560, 330)}) {
            chart.resize(size);
            chart.plot()->replot();
            QVERIFY(chart.grab().toImage().save(snapshot_path(QStringLiteral("kv_chart_%1").arg(size.width()))));
        }
    }
};

QTEST_MAIN(TestKvChart)
#include "test_kv_chart.moc"
