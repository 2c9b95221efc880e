// The score stages chart: clicking a stage's button shows that stage (and says so), its values
// drawn per key as the data has them, hidden keys at the mask stage drawn as "−∞" markers by
// reason with a legend, the softmax on [0, 1], the query marked, the key axis labelled with the
// tokens while few; no data draws an empty chart; the fonts follow the widget's.
#include "shouting_translator.h"
#include "widgets/score_stages_chart.h"

#include <QAbstractButton>
#include <QSignalSpy>
#include <QTranslator>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

using namespace lmscope::widgets;

Q_DECLARE_METATYPE(ScoreStage)
Q_DECLARE_METATYPE(KeyMask)

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Query 3 of a local layer with window 3 over "The cat sat on mat": key 0 is outside the window,
// key 4 is in the future.
ScoreStagesData local_row() {
    ScoreStagesData d;
    d.query = 3;
    d.key_labels = {"The", "cat", "sat", "on", "mat"};
    d.dot = {1, 2, -1, 4, 3};
    d.scale = 0.5;
    for (double x : d.dot) d.scaled << x * d.scale;
    d.mask = {KeyMask::OutsideWindow, KeyMask::Visible, KeyMask::Visible, KeyMask::Visible, KeyMask::Future};
    for (qsizetype j = 0; j < d.dot.size(); ++j) d.masked << (d.mask[j] == KeyMask::Visible ? d.scaled[j] : -kInf);
    double sum = 0;
    for (double m : d.masked) sum += std::exp(m - 2.0);
    for (double m : d.masked) d.weights << std::exp(m - 2.0) / sum;
    return d;
}

// A causal row over 40 keys: the query at 30, the later keys in the future.
ScoreStagesData long_row() {
    ScoreStagesData d;
    d.query = 30;
    d.scale = 0.125;
    for (int j = 0; j < 40; ++j) {
        d.key_labels << QStringLiteral("t%1").arg(j);
        d.dot << std::sin(j);
        d.scaled << std::sin(j) * d.scale;
        d.mask << (j > 30 ? KeyMask::Future : KeyMask::Visible);
        d.masked << (j > 30 ? -kInf : d.scaled.back());
        d.weights << (j > 30 ? 0.0 : 1.0 / 31);
    }
    return d;
}

bool same(const QVector<double>& a, const QVector<double>& b) {
    if (a.size() != b.size()) return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
    return true;
}

QString text(const QVector<double>& v) {
    QStringList s;
    for (double x : v) s << QString::number(x);
    return s.join(QStringLiteral(", "));
}

}  // namespace

class TestScoreStagesChart : public QObject {
    Q_OBJECT
private slots:
    void showsStage_data() {
        QTest::addColumn<ScoreStagesData>("data");
        QTest::addColumn<ScoreStage>("stage");
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<QVector<KeyMask>>("hidden");
        QTest::addColumn<QString>("valueLabel");
        QTest::addColumn<QStringList>("legend");
        QTest::addColumn<int>("infinities");
        const ScoreStagesData local = local_row();
        const QVector<KeyMask> none(5, KeyMask::Visible);
        QTest::newRow("q·k: every key, the hidden ones too")
            << local << ScoreStage::Dot << local.dot << none << QStringLiteral("q · k") << QStringList{} << 0;
        QTest::newRow("× scale") << local << ScoreStage::Scaled << local.scaled << none << QStringLiteral("q · k × scale (0.5)")
                                 << QStringList{} << 0;
        QTest::newRow("mask: the future and outside the window")
            << local << ScoreStage::Masked << local.masked << local.mask << QStringLiteral("score after the mask (−∞: hidden)")
            << QStringList{"hidden (−∞): in the future, after the query", "hidden (−∞): outside the local window"} << 2;
        QTest::newRow("softmax") << local << ScoreStage::Softmax << local.weights << none
                                 << QStringLiteral("attention weight") << QStringList{} << 0;
        const ScoreStagesData lng = long_row();
        QTest::newRow("mask, 40 keys: the future only")
            << lng << ScoreStage::Masked << lng.masked << lng.mask << QStringLiteral("score after the mask (−∞: hidden)")
            << QStringList{"hidden (−∞): in the future, after the query"} << 0;  // too many keys for a text each
        QTest::newRow("empty") << ScoreStagesData{} << ScoreStage::Masked << QVector<double>{} << QVector<KeyMask>{}
                               << QStringLiteral("score after the mask (−∞: hidden)") << QStringList{} << 0;
        ScoreStagesData nan = local;
        nan.dot[2] = kNaN;
        QTest::newRow("a NaN is not drawn") << nan << ScoreStage::Dot << nan.dot << none << QStringLiteral("q · k")
                                            << QStringList{} << 0;
    }
    void showsStage() {
        QFETCH(ScoreStagesData, data);
        QFETCH(ScoreStage, stage);
        QFETCH(QVector<double>, values);
        QFETCH(QVector<KeyMask>, hidden);
        QFETCH(QString, valueLabel);
        QFETCH(QStringList, legend);
        QFETCH(int, infinities);
        ScoreStagesChart chart;
        chart.resize(600, 400);
        chart.setData(data);
        QSignalSpy spy(&chart, &ScoreStagesChart::stageChanged);
        const ScoreStage before = chart.stage();
        QTest::mouseClick(chart.stageButton(stage), Qt::LeftButton);
        QCOMPARE(chart.stage(), stage);
        QCOMPARE(spy.size(), stage == before ? 0 : 1);
        QVERIFY(chart.stageButton(stage)->isChecked());
        const ScoreStagesChart::ViewState v = chart.viewState();
        QCOMPARE(v.stage, stage);
        QVERIFY2(same(v.values, values), qPrintable(text(v.values) + QStringLiteral(" vs ") + text(values)));
        QCOMPARE(v.hidden, hidden);
        QCOMPARE(v.value_label, valueLabel);
        QCOMPARE(v.legend.size(), legend.size() + 1);  // the bars, then the reasons keys are hidden
        QVERIFY(!v.legend.front().isEmpty());
        QCOMPARE(v.legend.mid(1), legend);
        QCOMPARE(v.infinity_texts, QStringList(infinities, QStringLiteral("−∞")));
        if (stage == ScoreStage::Softmax) QCOMPARE(std::make_pair(v.value_low, v.value_high), std::make_pair(0.0, 1.0));
        for (double x : values)  // every bar within the value axis
            if (std::isfinite(x)) QVERIFY(x >= v.value_low && x <= v.value_high);
        QCOMPARE(v.query_marked, !values.isEmpty());
        if (v.query_marked) QCOMPARE(v.query_x, double(data.query));
        if (values.size() <= ScoreStagesChart::kMaxKeyLabels) {
            QCOMPARE(v.key_ticks, data.key_labels);
        } else {
            QVERIFY(v.key_ticks.size() <= 16);
            QCOMPARE(v.key_ticks.front(), QStringLiteral("0"));
        }
        QVERIFY(!chart.grab().isNull());  // lays out and draws without crashing
        // The axis rect keeps the plot's width whatever the legend holds.
        QVERIFY2(chart.plot()->axisRect()->outerRect().width() > chart.plot()->width() * 0.9,
                 qPrintable(QString::number(chart.plot()->axisRect()->outerRect().width())));
    }

    // The buttons are exclusive: clicking through them shows each stage in turn and back.
    void buttonsSwitch() {
        ScoreStagesChart chart;
        chart.setData(local_row());
        QSignalSpy spy(&chart, &ScoreStagesChart::stageChanged);
        const ScoreStage order[] = {ScoreStage::Dot, ScoreStage::Scaled, ScoreStage::Masked, ScoreStage::Softmax, ScoreStage::Dot};
        for (ScoreStage s : order) {
            QTest::mouseClick(chart.stageButton(s), Qt::LeftButton);
            QCOMPARE(chart.viewState().stage, s);
            QCOMPARE(spy.last().at(0).value<ScoreStage>(), s);
            for (int b = 0; b < kScoreStageCount; ++b)
                QCOMPARE(chart.stageButton(ScoreStage(b))->isChecked(), ScoreStage(b) == s);
        }
        QCOMPARE(spy.size(), 5);
        chart.setStage(ScoreStage::Masked);  // from the code: the button follows
        QVERIFY(chart.stageButton(ScoreStage::Masked)->isChecked());
        QVERIFY(!chart.stageButton(ScoreStage::Masked)->toolTip().isEmpty());
    }

    void followsFont() {
        ScoreStagesChart chart;
        chart.setData(local_row());
        chart.setStage(ScoreStage::Masked);
        const double ticks = chart.plot()->xAxis->tickLabelFont().pointSizeF();
        const double button = chart.stageButton(ScoreStage::Dot)->font().pointSizeF();
        QFont f = chart.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        chart.setFont(f);  // stage mode's larger font
        QVERIFY(chart.plot()->xAxis->tickLabelFont().pointSizeF() > 1.9 * ticks);
        QVERIFY(chart.plot()->legend->font().pointSizeF() >= f.pointSizeF());
        QVERIFY(chart.stageButton(ScoreStage::Dot)->font().pointSizeF() > 1.9 * button);
    }

    void retranslates() {
        ScoreStagesChart chart;
        chart.setData(local_row());
        chart.setStage(ScoreStage::Masked);
        lmscope::testing::Shouting shouting;
        QCoreApplication::installTranslator(&shouting);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(chart.stageButton(ScoreStage::Dot)->text(), QStringLiteral("Q·K"));
        QCOMPARE(chart.stageButton(ScoreStage::Softmax)->text(), QStringLiteral("SOFTMAX"));
        QCOMPARE(chart.viewState().value_label, QStringLiteral("SCORE AFTER THE MASK (−∞: HIDDEN)"));
        QCOMPARE(chart.viewState().legend.mid(1), (QStringList{"HIDDEN (−∞): IN THE FUTURE, AFTER THE QUERY",
                                                               "HIDDEN (−∞): OUTSIDE THE LOCAL WINDOW"}));
        QCoreApplication::removeTranslator(&shouting);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(chart.stageButton(ScoreStage::Dot)->text(), QStringLiteral("q·k"));
        QCOMPARE(chart.viewState().key_label, QStringLiteral("key"));
    }
};

QTEST_MAIN(TestScoreStagesChart)
#include "test_score_stages_chart.moc"
