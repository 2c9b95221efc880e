// The KV growth chart: the curves given (each in its place in the legend), the budget line and
// the room the weights leave, the live run's points only when there are some, log-log or linear
// axes, the axes named; the legend below the data at the sizes the KV lab gives the chart.
#include "plot_checks.h"
#include "widgets/kv_growth_chart.h"

#include <QtTest>

using namespace lmscope;
using namespace lmscope::widgets;
using namespace lmscope::test;

class TestKvGrowthChart : public QObject {
    Q_OBJECT
private slots:
    void showsCurves_data() {
        QTest::addColumn<bool>("log");
        QTest::addColumn<bool>("space");
        QTest::addColumn<bool>("live");
        QTest::newRow("log, all lines, live run") << true << true << true;
        QTest::newRow("linear, weights fill the budget") << false << false << true;
        QTest::newRow("log, another shape: no live run") << true << true << false;
    }
    void showsCurves() {
        QFETCH(bool, log);
        QFETCH(bool, space);
        QFETCH(bool, live);
        KvGrowthData data;
        const QVector<double> tokens{1, 10, 100, 1000};
        // Given GQA before MHA: the legend still lists MHA first (variant, then cache type).
        data.curves = {{1, KvType::Q8_0, QStringLiteral("GQA int8"), tokens, {2, 20, 200, 2000}},
                       {0, KvType::F16, QStringLiteral("MHA fp16"), tokens, {8, 80, 800, 8000}},
                       {1, KvType::F16, QStringLiteral("GQA fp16"), tokens, {4, 40, 400, 4000}}};
        data.first_tokens = 1;
        data.last_tokens = 1000;
        data.budget = {QStringLiteral("device budget 10 kB"), 10000};
        if (space) data.kv_space = KvGrowthLine{QStringLiteral("left after the weights (6 kB)"), 6000};
        if (live) data.measured = {0, KvType::F16, QStringLiteral("measured"), {3, 4}, {12, 16}};
        data.log_scale = log;
        KvGrowthChart chart;
        chart.setData(data);
        const KvGrowthChart::ViewState v = chart.viewState();

        QCOMPARE(v.curves.size(), 3);
        const QStringList order{"MHA fp16", "GQA fp16", "GQA int8"};
        for (qsizetype i = 0; i < order.size(); ++i) {
            const KvGrowthCurve& shown = v.curves[i];
            QCOMPARE(shown.name, order[i]);
            const auto given = std::find_if(data.curves.begin(), data.curves.end(), [&](const KvGrowthCurve& c) { return c.name == shown.name; });
            QCOMPARE(shown.family, given->family);
            QCOMPARE(shown.type, given->type);
            QCOMPARE(shown.tokens, given->tokens);
            QCOMPARE(shown.bytes, given->bytes);
        }
        QVERIFY(v.budget);
        QCOMPARE(v.budget->bytes, 10000.0);
        QCOMPARE(v.kv_space.has_value(), space);
        if (space) QCOMPARE(v.kv_space->bytes, 6000.0);
        QCOMPARE(v.measured.has_value(), live);
        if (live) QCOMPARE(v.measured->bytes, (QVector<double>{12, 16}));
        QStringList legend = order;
        legend << QStringLiteral("device budget 10 kB");
        if (space) legend << QStringLiteral("left after the weights (6 kB)");
        if (live) legend << QStringLiteral("measured");
        QCOMPARE(v.legend, legend);
        QCOMPARE(v.log_scale, log);
        QCOMPARE(v.tokens_label, QStringLiteral("context length (tokens)"));
        QCOMPARE(v.bytes_label, QStringLiteral("KV cache bytes"));

        data.curves.clear();  // an invalid shape: no curves left over
        chart.setData(data);
        QVERIFY(chart.viewState().curves.isEmpty());
    }

    // Every curve (three variants in three cache types), both lines and a live run: the legend
    // stays below the data, with the room its entries need, from a projector's pane up.
    void legendClearOfData_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("log");
        QTest::newRow("420x300, log") << QSize(420, 300) << true;
        QTest::newRow("560x330, linear") << QSize(560, 330) << false;
        QTest::newRow("900x420, log") << QSize(900, 420) << true;
    }
    void legendClearOfData() {
        QFETCH(QSize, size);
        QFETCH(bool, log);
        KvGrowthData data;
        const QVector<double> tokens{1, 10, 100, 1000, 32768};
        const char* families[3] = {"MHA", "GQA", "MQA"};  // named as the KV lab names them
        for (qint32 f = 0; f < 3; ++f)
            for (KvType type : kKvTypes)
                data.curves.push_back({f, type, QStringLiteral("%1 %2").arg(QLatin1String(families[f]), QLatin1String(type == KvType::F16 ? "fp16" : type == KvType::Q8_0 ? "int8 (q8_0)" : "int4 (q4_0)")),
                                       tokens, {1e3 * (3 - f), 1e4 * (3 - f), 1e5 * (3 - f), 1e6 * (3 - f), 3e7 * (3 - f)}});
        data.last_tokens = 32768;
        data.budget = {QStringLiteral("device budget 8.0 GB"), 8e9};
        data.kv_space = KvGrowthLine{QStringLiteral("left after the weights (7.7 GB)"), 7.7e9};
        data.measured = {0, KvType::F16, QStringLiteral("measured: SmolLM2-135M-Instruct's live run (f16)"), {4, 40}, {4e3, 4e4}};
        data.log_scale = log;
        KvGrowthChart chart;
        chart.resize(size);
        chart.setData(data);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QString problem = legend_problem(chart.plot());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
};

QTEST_MAIN(TestKvGrowthChart)
#include "test_kv_growth_chart.moc"
