// The lens rank chart: one point per layer with the rank and probability given, the rank axis
// logarithmic with rank 1 on top and room below the worst rank, the axes and legend named.
#include "widgets/lens_rank_chart.h"

#include <QtTest>

using namespace lmscope::widgets;

class TestLensRankChart : public QObject {
    Q_OBJECT
private slots:
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
