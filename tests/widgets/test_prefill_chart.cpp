// The prefill chart: per turn the two bars as given, the running totals with the generated
// tokens added, the turns labelled, the axes and legend named.
#include "widgets/prefill_chart.h"

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
};

QTEST_MAIN(TestPrefillChart)
#include "test_prefill_chart.moc"
