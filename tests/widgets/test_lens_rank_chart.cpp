// The lens rank chart: one point per layer with the rank and probability given, the rank axis
// logarithmic with rank 1 on top and room below the worst rank, the axes and legend named.
#include "widgets/lens_rank_chart.h"

#include <QtTest>
#include <qcustomplot.h>

#include <cmath>

using namespace lmscope::widgets;

class TestLensRankChart : public QObject {
    Q_OBJECT
private slots:
    // The layer axis has a tick only at whole layers, however wide the chart (issue 35: at
    // 1280x720 it read "2.5, 7.5, 12.5").
    void layerTicksAreWhole_data() {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("width");
        QTest::newRow("Gemma's 18 in 500 px") << 18 << 500;
        QTest::newRow("18 in 1200 px") << 18 << 1200;
        QTest::newRow("SmolLM2's 30 in 400 px") << 30 << 400;
        QTest::newRow("6 in 900 px") << 6 << 900;
    }
    void layerTicksAreWhole() {
        QFETCH(int, layers);
        QFETCH(int, width);
        LensRankChart chart;
        chart.resize(width, 400);
        chart.setData({.rank = QVector<double>(layers, 5.0), .prob = QVector<double>(layers, 0.1)});
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QVector<double> ticks = chart.plot()->xAxis->tickVector();
        QVERIFY(ticks.size() >= 2);
        for (double t : ticks) QVERIFY2(t == std::round(t), qPrintable(QString::number(t)));
    }

    void showsRanks_data() {
        QTest::addColumn<QVector<double>>("rank");
        QTest::addColumn<QVector<double>>("prob");
        QTest::addColumn<double>("bottom");
        QTest::newRow("forms late") << QVector<double>{812, 40, 3, 1} << QVector<double>{0.0001, 0.01, 0.2, 0.6} << 812 * 1.5;
        QTest::newRow("top from the start: at least rank 10 shown")
            << QVector<double>{1, 1} << QVector<double>{0.4, 0.9} << 10 * 1.5;
        QTest::newRow("one layer") << QVector<double>{2} << QVector<double>{0.3} << 10 * 1.5;
    }
    void showsRanks() {
        QFETCH(QVector<double>, rank);
        QFETCH(QVector<double>, prob);
        QFETCH(double, bottom);
        LensRankChart chart;
        chart.setData({.rank = rank, .prob = prob});
        const LensRankChart::ViewState v = chart.viewState();
        QVector<double> layers;
        for (qsizetype l = 0; l < rank.size(); ++l) layers << double(l);
        QCOMPARE(v.layers, layers);
        QCOMPARE(v.rank, rank);
        QCOMPARE(v.prob, prob);
        QVERIFY(v.rank_log);
        QVERIFY(v.rank_reversed);
        QCOMPARE(v.rank_bottom, bottom);
        QCOMPARE(v.layer_label, QStringLiteral("layer"));
        QCOMPARE(v.rank_label, QStringLiteral("rank (1 = top)"));
        QCOMPARE(v.prob_label, QStringLiteral("probability"));
        QCOMPARE(v.rank_name, QStringLiteral("rank of the final prediction"));
        QCOMPARE(v.prob_name, QStringLiteral("its probability"));

        chart.setData({});  // no result: nothing drawn
        QVERIFY(chart.viewState().rank.isEmpty());
        QVERIFY(chart.viewState().prob.isEmpty());
    }
};

QTEST_MAIN(TestLensRankChart)
#include "test_lens_rank_chart.moc"
