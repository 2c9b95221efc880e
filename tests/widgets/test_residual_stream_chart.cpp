// The residual stream chart: the three series drawn per layer as the data has them (the line,
// then the two bar series), the selected layer behind the band, the lens' tokens above each
// layer while there is room (across, then upright, then only the selected layer's), long tokens
// elided; no data draws an empty chart; the fonts follow the widget's.
#include "shouting_translator.h"
#include "widgets/residual_stream_chart.h"

#include <QTranslator>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

using namespace lmscope::widgets;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

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

// n layers: the stream grows, attention writes a little, the MLP more; lens tokens "t0", "t1", ...
ResidualStreamData stream(qint32 n, qint32 selected) {
    ResidualStreamData d;
    for (qint32 l = 0; l < n; ++l) {
        d.resid_pre << 1.0 + l;
        d.attn_out << 0.25 + 0.01 * l;
        d.mlp_out << 0.5 + 0.02 * l;
        d.lens_top << QStringLiteral("t%1").arg(l);
    }
    d.layer = selected;
    return d;
}

}  // namespace

class TestResidualStreamChart : public QObject {
    Q_OBJECT
private slots:
    void showsStream_data() {
        QTest::addColumn<ResidualStreamData>("data");
        QTest::addColumn<QVector<double>>("resid");
        QTest::addColumn<QVector<double>>("attn");
        QTest::addColumn<QVector<double>>("mlp");
        QTest::addColumn<int>("selected");
        QTest::addColumn<QStringList>("lens");
        QTest::addColumn<bool>("upright");
        ResidualStreamData three;
        three.resid_pre = {1.5, 4.0, 9.0};
        three.attn_out = {0.5, 1.0, 2.0};
        three.mlp_out = {1.0, 3.0, 6.5};
        three.lens_top = {"the", "", "▁extraordinarily_long_token"};
        three.layer = 1;
        QTest::newRow("three layers, the middle selected")
            << three << three.resid_pre << three.attn_out << three.mlp_out << 1
            << QStringList{"the", "", "▁extraordin…"} << false;
        ResidualStreamData no_lens = three;
        no_lens.lens_top.clear();
        no_lens.layer = -1;
        QTest::newRow("no lens, nothing selected") << no_lens << three.resid_pre << three.attn_out << three.mlp_out << -1
                                                   << QStringList{"", "", ""} << false;
        ResidualStreamData short_mlp = three;
        short_mlp.mlp_out = {1.0};
        short_mlp.layer = 7;  // out of range: no band
        QTest::newRow("a short series: the rest not drawn")
            << short_mlp << three.resid_pre << three.attn_out << QVector<double>{1.0, kNaN, kNaN} << -1
            << QStringList{"the", "", "▁extraordin…"} << false;
        const ResidualStreamData d24 = stream(24, 5);
        QStringList t24;
        for (int l = 0; l < 24; ++l) t24 << QStringLiteral("t%1").arg(l);
        QTest::newRow("24 layers: every token, upright")
            << d24 << d24.resid_pre << d24.attn_out << d24.mlp_out << 5 << t24 << true;
        const ResidualStreamData d60 = stream(60, 42);
        QStringList t60(60, QString());
        t60[42] = QStringLiteral("t42");
        QTest::newRow("60 layers: the selected layer's token only")
            << d60 << d60.resid_pre << d60.attn_out << d60.mlp_out << 42 << t60 << false;
        QTest::newRow("empty") << ResidualStreamData{} << QVector<double>{} << QVector<double>{} << QVector<double>{} << -1
                               << QStringList{} << false;
    }
    void showsStream() {
        QFETCH(ResidualStreamData, data);
        QFETCH(QVector<double>, resid);
        QFETCH(QVector<double>, attn);
        QFETCH(QVector<double>, mlp);
        QFETCH(int, selected);
        QFETCH(QStringList, lens);
        QFETCH(bool, upright);
        ResidualStreamChart chart;
        chart.resize(700, 400);
        chart.setData(data);
        const ResidualStreamChart::ViewState v = chart.viewState();
        QVERIFY2(same(v.resid_pre, resid), qPrintable(text(v.resid_pre)));
        QVERIFY2(same(v.attn_out, attn), qPrintable(text(v.attn_out)));
        QVERIFY2(same(v.mlp_out, mlp), qPrintable(text(v.mlp_out)));
        QCOMPARE(v.selected, selected);
        QCOMPARE(v.lens_labels, lens);
        QCOMPARE(v.lens_upright, upright);
        const bool any_lens = std::any_of(lens.cbegin(), lens.cend(), [](const QString& s) { return !s.isEmpty(); });
        QCOMPARE(v.lens_label, any_lens ? QStringLiteral("logit lens: the top token after the layer") : QString());
        QCOMPARE(v.legend, (QStringList{"|resid_pre|: the stream", "|attn_out|: attention writes", "|mlp_out|: the MLP writes"}));
        QCOMPARE(v.layer_label, QStringLiteral("layer"));
        QCOMPARE(v.norm_label, QStringLiteral("norm (L2)"));
        for (const QVector<double>* series : {&resid, &attn, &mlp})  // every value within the axis
            for (double x : *series)
                if (std::isfinite(x)) QVERIFY(x <= v.norm_high);
        QVERIFY(!chart.grab().isNull());  // lays out and draws without crashing
        QVERIFY(chart.plot()->axisRect()->outerRect().width() > chart.plot()->width() * 0.9);
    }

    void followsFont() {
        ResidualStreamChart chart;
        chart.setData(stream(6, 2));
        const double ticks = chart.plot()->xAxis2->tickLabelFont().pointSizeF();
        const double legend = chart.plot()->legend->font().pointSizeF();
        QFont f = chart.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        chart.setFont(f);  // stage mode's larger font
        QVERIFY(chart.plot()->xAxis2->tickLabelFont().pointSizeF() > 1.9 * ticks);
        QVERIFY(chart.plot()->yAxis->labelFont().pointSizeF() > 1.9 * ticks);
        QVERIFY(chart.plot()->legend->font().pointSizeF() > 1.9 * legend);
    }

    void retranslates() {
        ResidualStreamChart chart;
        chart.setData(stream(3, 0));
        lmscope::testing::Shouting shouting;
        QCoreApplication::installTranslator(&shouting);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(chart.viewState().layer_label, QStringLiteral("LAYER"));
        QCOMPARE(chart.viewState().legend.front(), QStringLiteral("|RESID_PRE|: THE STREAM"));
        QCOMPARE(chart.viewState().lens_label, QStringLiteral("LOGIT LENS: THE TOP TOKEN AFTER THE LAYER"));
        QCoreApplication::removeTranslator(&shouting);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(chart.viewState().norm_label, QStringLiteral("norm (L2)"));
    }
};

QTEST_MAIN(TestResidualStreamChart)
#include "test_residual_stream_chart.moc"
