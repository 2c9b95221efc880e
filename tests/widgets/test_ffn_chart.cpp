// The FFN chart: the top neurons drawn with their ids and signed values, coloured by sign, on a
// value axis centred on 0; the histogram's bins and counts as given; the caption with the norms;
// empty data; the fonts following the widget's; at its minimum size (normal and stage fonts) the
// titles fit and both data areas are as large as a class can read.
#include "widgets/ffn_chart.h"
#include "widgets/format.h"

#include "plot_checks.h"

#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

using namespace lmscope::widgets;

class TestFfnChart : public QObject {
    Q_OBJECT
private slots:
    void drawsNeuronsAndHistogram_data() {
        QTest::addColumn<QVector<qint32>>("neurons");
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<QVector<double>>("edges");
        QTest::addColumn<QVector<qint32>>("counts");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QVector<bool>>("negative");
        QTest::addColumn<double>("reach");  // the value axis spans -reach .. reach
        QTest::newRow("mixed signs")
            << QVector<qint32>{812, 17, 4031} << QVector<double>{-3.5, 2.25, -1.0} << QVector<double>{-4, -2, 0, 2, 4}
            << QVector<qint32>{3, 40, 950, 7} << QStringList{"#812", "#17", "#4031"} << QVector<bool>{true, false, true}
            << 3.5 * 1.1;
        QTest::newRow("all positive, uneven bins")
            << QVector<qint32>{5, 6} << QVector<double>{0.5, 0.25} << QVector<double>{-1, 0, 0.1, 3}
            << QVector<qint32>{10, 200, 1} << QStringList{"#5", "#6"} << QVector<bool>{false, false} << 0.5 * 1.1;
        QTest::newRow("values shorter than neurons: the common part")
            << QVector<qint32>{1, 2, 3} << QVector<double>{-0.1} << QVector<double>{0, 1} << QVector<qint32>{11}
            << QStringList{"#1"} << QVector<bool>{true} << 0.1 * 1.1;
        QTest::newRow("no bars, histogram only") << QVector<qint32>{} << QVector<double>{} << QVector<double>{-1, 1}
                                                 << QVector<qint32>{64} << QStringList{} << QVector<bool>{} << 1.0;
    }
    void drawsNeuronsAndHistogram() {
        QFETCH(QVector<qint32>, neurons);
        QFETCH(QVector<double>, values);
        QFETCH(QVector<double>, edges);
        QFETCH(QVector<qint32>, counts);
        QFETCH(QStringList, labels);
        QFETCH(QVector<bool>, negative);
        QFETCH(double, reach);
        FfnChart chart;
        chart.setData({.n_ff = 4096, .top_neurons = neurons, .top_values = values, .hist_edges = edges,
                       .hist_counts = counts, .act_norm = 12.5, .in_norm = 3.25, .out_norm = 1.5, .post_norm = 3.75});
        const FfnChart::ViewState v = chart.viewState();
        const qsizetype n = labels.size();
        QCOMPARE(v.neurons, neurons.mid(0, n));
        QCOMPARE(v.values, values.mid(0, n));
        QCOMPARE(v.labels, labels);
        QCOMPARE(v.negative, negative);
        QCOMPARE(v.value_lower, -reach);
        QCOMPARE(v.value_upper, reach);
        QCOMPARE(v.edges, edges);
        QVector<double> shown;
        for (qint32 c : counts) shown << c;
        QCOMPARE(v.counts, shown);
        QCOMPARE(v.bars_title, QStringLiteral("Top %1 neurons by |activation|").arg(n));
        QCOMPARE(v.hist_title, QStringLiteral("Activation of all %1 neurons").arg(format_count(4096)));
        QCOMPARE(v.caption, QStringLiteral("|resid_mid| = 3.25 → FFN writes |mlp_out| = 1.5 → |resid_post| = 3.75\n"
                                           "%1 neurons, |act| = 12.5")
                                .arg(format_count(4096)));
        QCOMPARE(chart.caption()->text(), v.caption);
        QCOMPARE(v.value_label, QStringLiteral("activation (mlp_act)"));
        QCOMPARE(v.count_label, QStringLiteral("neurons"));
    }

    void emptyDrawsEmpty() {
        FfnChart chart;
        chart.setData(FfnData{});
        chart.resize(600, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        QVERIFY(!chart.grab().isNull());
        const FfnChart::ViewState v = chart.viewState();
        QVERIFY(v.neurons.isEmpty());
        QVERIFY(v.values.isEmpty());
        QVERIFY(v.edges.isEmpty());
        QVERIFY(v.counts.isEmpty());
        QVERIFY(v.caption.isEmpty());
        // Edges without counts (or one edge) draw no histogram.
        chart.setData({.n_ff = 8, .hist_edges = {0.0}, .hist_counts = {}});
        QVERIFY(chart.viewState().edges.isEmpty());
        chart.setData({.n_ff = 8, .hist_edges = {0.0, 1.0, 2.0}, .hist_counts = {}});
        QVERIFY(chart.viewState().counts.isEmpty());
        chart.plot()->replot();
    }

    void followsFontChanges() {
        FfnChart chart;
        chart.setData({.n_ff = 16, .top_neurons = {3}, .top_values = {1.0}, .hist_edges = {0, 1}, .hist_counts = {16}});
        const double ticks = chart.plot()->yAxis->tickLabelFont().pointSizeF();
        QCPAxisRect* hist = chart.plot()->axisRects().value(1);
        QVERIFY(hist);
        const double histTicks = hist->axis(QCPAxis::atBottom)->tickLabelFont().pointSizeF();
        QFont f = chart.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        chart.setFont(f);  // stage mode's larger font
        QVERIFY(chart.plot()->yAxis->tickLabelFont().pointSizeF() > 1.9 * ticks);
        QVERIFY(hist->axis(QCPAxis::atBottom)->tickLabelFont().pointSizeF() > 1.9 * histTicks);
        QVERIFY(chart.caption()->font().pointSizeF() >= f.pointSizeF());
    }

    void readableAtItsMinimum_data() {
        QTest::addColumn<double>("fontScale");  // 1: normal mode; 2: stage mode's enlarged fonts
        QTest::addColumn<qint32>("neuron");     // the widest bar label's id
        QTest::newRow("normal") << 1.0 << qint32(1702);
        QTest::newRow("wide labels") << 1.0 << qint32(123456);
        QTest::newRow("stage fonts") << 2.0 << qint32(1702);
    }
    void readableAtItsMinimum() {
        QFETCH(double, fontScale);
        QFETCH(qint32, neuron);
        FfnChart chart;
        QFont f = chart.font();
        f.setPointSizeF(f.pointSizeF() * fontScale);
        chart.setFont(f);
        chart.setData({.n_ff = 2048, .top_neurons = {neuron, 5, 17}, .top_values = {-10.5, 4.0, 2.0},
                       .hist_edges = {-10, -7.5, -5, -2.5, 0, 2.5}, .hist_counts = {1, 2, 600, 1300, 40}});
        chart.resize(chart.minimumSizeHint());
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QStringList titles = lmscope::test::title_problems(chart.plot());
        QVERIFY2(titles.isEmpty(), qPrintable(titles.join(QLatin1Char('\n'))));
        for (QCPAxisRect* r : chart.plot()->axisRects())
            QVERIFY2(r->width() >= 160 && r->height() >= 100,
                     qPrintable(QStringLiteral("data area %1x%2 at %3x%4").arg(r->width()).arg(r->height()).arg(chart.width()).arg(chart.height())));
    }

    void languageChangeKeepsTexts() {
        FfnChart chart;
        chart.setData({.n_ff = 16, .top_neurons = {3}, .top_values = {1.0}, .hist_edges = {0, 1}, .hist_counts = {16}});
        const FfnChart::ViewState before = chart.viewState();
        QEvent change(QEvent::LanguageChange);
        QApplication::sendEvent(&chart, &change);
        QCOMPARE(chart.viewState().caption, before.caption);
        QCOMPARE(chart.viewState().hist_title, before.hist_title);
    }
};

QTEST_MAIN(TestFfnChart)
#include "test_ffn_chart.moc"
