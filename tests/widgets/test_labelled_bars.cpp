// Labelled bars: every bar drawn with its label and value, the highlighted ones apart, the value
// axis up to the largest bar (or the floor asked for), in both orientations; a title longer than
// the chart is wide breaks into lines that fit, keeping every word.
#include "widgets/labelled_bars.h"

#include "plot_checks.h"

#include <QtTest>

using namespace lmscope::widgets;

class TestLabelledBars : public QObject {
    Q_OBJECT
private slots:
    void showsBars_data() {
        QTest::addColumn<int>("orientation");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<QVector<bool>>("highlight");
        QTest::addColumn<double>("minTop");
        QTest::addColumn<QVector<double>>("shown");
        QTest::addColumn<QVector<bool>>("highlighted");
        QTest::addColumn<double>("top");
        QTest::newRow("attention row") << int(LabelledBars::Orientation::Columns) << QStringList{"The", "cat", "sat"}
                                       << QVector<double>{0.5, 0.3, 0.2} << QVector<bool>{false, false, true} << 0.05
                                       << QVector<double>{0.5, 0.3, 0.2} << QVector<bool>{false, false, true} << 0.5 * 1.3;
        QTest::newRow("top-k, values short") << int(LabelledBars::Orientation::Rows) << QStringList{"'a'", "'b'"}
                                             << QVector<double>{0.9} << QVector<bool>{true} << 0.0
                                             << QVector<double>{0.9, 0.0} << QVector<bool>{true, false} << 0.9 * 1.3;
        QTest::newRow("small values: the floor") << int(LabelledBars::Orientation::Columns) << QStringList{"x", "y"}
                                                 << QVector<double>{0.01, 0.02} << QVector<bool>{} << 0.05
                                                 << QVector<double>{0.01, 0.02} << QVector<bool>{false, false} << 0.05 * 1.3;
        QStringList many;
        QVector<double> ramp;
        for (int i = 0; i < 20; ++i) many << QString::number(i), ramp << 0.01 * i;
        QTest::newRow("many bars: no value texts") << int(LabelledBars::Orientation::Columns) << many << ramp
                                                   << QVector<bool>{} << 0.0 << ramp << QVector<bool>(20, false) << 0.19 * 1.05;
        QTest::newRow("empty") << int(LabelledBars::Orientation::Rows) << QStringList{} << QVector<double>{}
                               << QVector<bool>{} << 0.0 << QVector<double>{} << QVector<bool>{} << 1.0;
    }
    void showsBars() {
        QFETCH(int, orientation);
        QFETCH(QStringList, labels);
        QFETCH(QVector<double>, values);
        QFETCH(QVector<bool>, highlight);
        QFETCH(double, minTop);
        QFETCH(QVector<double>, shown);
        QFETCH(QVector<bool>, highlighted);
        QFETCH(double, top);
        LabelledBars bars{LabelledBars::Orientation(orientation)};
        bars.setData({.title = QStringLiteral("A: what it reads"), .labels = labels, .values = values,
                      .highlight = highlight, .value_label = QStringLiteral("weight"), .min_top = minTop});
        const LabelledBars::ViewState v = bars.viewState();
        QCOMPARE(v.title, QStringLiteral("A: what it reads"));
        QCOMPARE(v.labels, labels);
        QCOMPARE(v.values, shown);
        QCOMPARE(v.highlighted, highlighted);
        QCOMPARE(v.value_label, QStringLiteral("weight"));
        QVERIFY2(std::fabs(v.value_top - top) < 1e-12, qPrintable(QString::number(v.value_top)));
    }

    // The Layer view's Mix chart at 1280x720 had 606 px for its 608 px title, and cut it.
    void titleFitsItsWidth_data() {
        QTest::addColumn<QString>("title");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("broken");  // the title drawn on more than one line
        const QString mix = QStringLiteral("What each head writes: |Wo · z_h| (before the post-attention norm)");
        QTest::newRow("the Mix title, 606 px") << mix << 606 << true;
        QTest::newRow("the Mix title, narrow") << mix << 260 << true;
        QTest::newRow("the Mix title, wide") << mix << 1200 << false;
        QTest::newRow("Chinese, no spaces") << QStringLiteral("每个头写入的内容：|Wo · z_h|（在注意力后的归一化之前）") << 260 << true;
        QTest::newRow("short") << QStringLiteral("Which head") << 300 << false;
    }
    void titleFitsItsWidth() {
        QFETCH(QString, title);
        QFETCH(int, width);
        QFETCH(bool, broken);
        LabelledBars bars{LabelledBars::Orientation::Columns};
        bars.setData({.title = title, .labels = {"H0", "H1"}, .values = {1.0, 2.0}, .value_label = QStringLiteral("norm")});
        bars.resize(width, 400);
        bars.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bars));
        const QStringList problems = lmscope::test::title_problems(bars.plot());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        const LabelledBars::ViewState v = bars.viewState();
        QCOMPARE(v.title, title);
        QCOMPARE(v.title_shown.contains(QLatin1Char('\n')), broken);
        // Every character kept: the lines are the title broken where it may break.
        const auto letters = [](QString t) { return t.remove(QRegularExpression(QStringLiteral("\\s"))); };
        QCOMPARE(letters(v.title_shown), letters(title));
    }
};

QTEST_MAIN(TestLabelledBars)
#include "test_labelled_bars.moc"
