// The prefill chart: per turn the two bars as given, the running totals with the generated
// tokens added, the turns labelled, the axes and legend named; the legend in one column where two
// do not fit (stage mode's Chat lab).
#include "widgets/prefill_chart.h"

#include "plot_checks.h"

#include <QtTest>

using namespace lmscope::widgets;

Q_DECLARE_METATYPE(QVector<PrefillTurn>)

class TestPrefillChart : public QObject {
    Q_OBJECT
private slots:
    void showsTurns_data() {
        QTest::addColumn<QVector<PrefillTurn>>("turns");
        QTest::addColumn<QVector<double>>("withTotal");
        QTest::addColumn<QVector<double>>("withoutTotal");
        QTest::newRow("no turns") << QVector<PrefillTurn>{} << QVector<double>{} << QVector<double>{};
        QTest::newRow("one turn") << QVector<PrefillTurn>{{20, 20, 5}} << QVector<double>{25} << QVector<double>{25};
        QTest::newRow("reuse saves") << QVector<PrefillTurn>{{20, 20, 5}, {12, 37, 8}, {15, 60, 0}}
                                     << QVector<double>{25, 45, 60} << QVector<double>{25, 70, 130};
    }
    void showsTurns() {
        QFETCH(QVector<PrefillTurn>, turns);
        QFETCH(QVector<double>, withTotal);
        QFETCH(QVector<double>, withoutTotal);
        PrefillChart chart;
        chart.setData(turns);
        const PrefillChart::ViewState v = chart.viewState();
        QStringList labels;
        QVector<double> with, without;
        for (qsizetype i = 0; i < turns.size(); ++i) {
            labels << QStringLiteral("turn %1").arg(i + 1);
            with << turns[i].with_reuse;
            without << turns[i].without_reuse;
        }
        QCOMPARE(v.turns, labels);
        QCOMPARE(v.with_reuse, with);
        QCOMPARE(v.without_reuse, without);
        QCOMPARE(v.with_total, withTotal);
        QCOMPARE(v.without_total, withoutTotal);
        QCOMPARE(v.names, (QStringList{"prefilled with prefix reuse", "prefilled without (whole history)",
                                       "running total with reuse (incl. generated)", "running total without reuse"}));
        QCOMPARE(v.turn_label, QStringLiteral("turn"));
        QCOMPARE(v.prefill_label, QStringLiteral("tokens per turn"));
        QCOMPARE(v.total_label, QStringLiteral("tokens so far"));
    }

    void legendFits_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("fontScale");
        QTest::newRow("wide") << QSize(900, 400) << 1.0;
        QTest::newRow("narrow") << QSize(300, 400) << 1.0;
        QTest::newRow("stage fonts, 600 px") << QSize(600, 500) << 2.0;
    }
    void legendFits() {
        QFETCH(QSize, size);
        QFETCH(double, fontScale);
        QWidget lab;  // the lab's pane: the chart gets this size, whatever it would like
        lab.resize(size);
        auto* chart = new PrefillChart(&lab);
        QFont f = chart->font();
        f.setPointSizeF(f.pointSizeF() * fontScale);
        chart->setFont(f);
        chart->setData({{20, 20, 5}, {12, 37, 8}});
        chart->setGeometry(QRect(QPoint(0, 0), size));
        lab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&lab));
        QCOMPARE(chart->plot()->width(), size.width());
        const QString problem = lmscope::test::legend_problem(chart->plot());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Its least size keeps the data area readable above the legend as laid out now.
        chart->setGeometry(QRect(QPoint(0, 0), QSize(size.width(), chart->minimumSizeHint().height())));
        chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QRect data = chart->plot()->axisRect()->rect();
        QVERIFY2(data.width() >= 160 && data.height() >= 100, qPrintable(QStringLiteral("data area %1x%2").arg(data.width()).arg(data.height())));
    }
};

QTEST_MAIN(TestPrefillChart)
#include "test_prefill_chart.moc"
