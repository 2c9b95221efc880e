// The cache KL chart: one point per row for each quantized cache as given, named after its
// cache, the KL axis logarithmic around the positive values, the dashed line where the decode
// steps start (only when there are some); the legend below the data, never over it.
#include "plot_checks.h"
#include "widgets/cache_kl_chart.h"

#include <QtTest>

using namespace lmscope::widgets;
using namespace lmscope::test;

class TestCacheKlChart : public QObject {
    Q_OBJECT
private slots:
    void showsKl_data() {
        QTest::addColumn<QVector<double>>("q8");
        QTest::addColumn<QVector<double>>("q4");
        QTest::addColumn<int>("promptRows");
        QTest::addColumn<int>("decodeRows");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::newRow("prompt and decode") << QVector<double>{1e-4, 2e-4, 1e-3} << QVector<double>{1e-3, 4e-3, 2e-2} << 2 << 1
                                           << 1e-4 / 2 << 2e-2 * 2;
        QTest::newRow("prompt only, a zero row") << QVector<double>{0.0, 5e-3} << QVector<double>{0.0, 0.05} << 2 << 0
                                                 << 5e-3 / 2 << 0.05 * 2;
    }
    void showsKl() {
        QFETCH(QVector<double>, q8);
        QFETCH(QVector<double>, q4);
        QFETCH(int, promptRows);
        QFETCH(int, decodeRows);
        QFETCH(double, low);
        QFETCH(double, high);
        CacheKlChart chart;
        CacheKlData data;
        data.series[0] = {QStringLiteral("int8 (q8_0)"), q8};
        data.series[1] = {QStringLiteral("int4 (q4_0)"), q4};
        data.prompt_rows = promptRows;
        data.decode_rows = decodeRows;
        chart.setData(data);
        const CacheKlChart::ViewState v = chart.viewState();
        QCOMPARE(v.kl[0], q8);
        QCOMPARE(v.kl[1], q4);
        QCOMPARE(v.names[0], QStringLiteral("KL, int8 (q8_0) vs fp16"));
        QCOMPARE(v.names[1], QStringLiteral("KL, int4 (q4_0) vs fp16"));
        QCOMPARE(v.row_label, QStringLiteral("position (the prompt, then the decode steps after the dashed line)"));
        QCOMPARE(v.kl_label, QStringLiteral("KL (nats)"));
        QVERIFY(v.kl_log);
        QCOMPARE(v.decode_line, decodeRows > 0);
        if (v.decode_line) QCOMPARE(v.decode_x, promptRows - 0.5);
        QCOMPARE(v.kl_low, low);
        QCOMPARE(v.kl_high, high);

        chart.setData({});  // a new model: no curves, no line
        QVERIFY(chart.viewState().kl[0].isEmpty());
        QVERIFY(!chart.viewState().decode_line);
    }

    void legendClearOfData_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("420x260") << QSize(420, 260);
        QTest::newRow("640x330") << QSize(640, 330);
        QTest::newRow("900x420") << QSize(900, 420);
    }
    void legendClearOfData() {
        QFETCH(QSize, size);
        CacheKlChart chart;
        chart.resize(size);
        CacheKlData data;
        data.series[0] = {QStringLiteral("int8 (q8_0)"), {1e-4, 2e-4, 1e-3, 3e-3}};
        data.series[1] = {QStringLiteral("int4 (q4_0)"), {1e-3, 4e-3, 2e-2, 5e-2}};
        data.prompt_rows = 3;
        data.decode_rows = 1;
        chart.setData(data);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QString problem = legend_problem(chart.plot());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
};

QTEST_MAIN(TestCacheKlChart)
#include "test_cache_kl_chart.moc"
