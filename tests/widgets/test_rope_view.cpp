// The RoPE view: every pair drawn with its four arrows where the data puts them, on axes centred
// on the origin with the same scale both ways; the spectrum as given, the drawn pairs marked; the
// offset series as given with the caption saying flat or the largest spread; a NoPE layer's
// message instead of the pairs; empty data; the fonts following the widget's.
#include "widgets/rope_view.h"

#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>

using namespace lmscope::widgets;

Q_DECLARE_METATYPE(QVector<RopePairView>)
Q_DECLARE_METATYPE(QVector<RopeOffsetPoint>)

namespace {

RopePairView pair(qint32 i, const QString& dims, double theta, double angle, QPointF qb, QPointF qa, QPointF kb, QPointF ka) {
    return {.pair = i, .dims = dims, .theta = theta, .angle = angle, .q_before = qb, .q_after = qa, .k_before = kb, .k_after = ka};
}

QPointF rotate(QPointF p, double a) {
    return {p.x() * std::cos(a) - p.y() * std::sin(a), p.x() * std::sin(a) + p.y() * std::cos(a)};
}

QVector<RopeOffsetPoint> flat_offsets() {
    QVector<RopeOffsetPoint> out;
    for (qint32 m = 0; m < 6; ++m) out.push_back({.offset = m, .min = 1.0 - 0.1 * m, .max = 1.0 - 0.1 * m + 5e-5, .samples = 8});
    return out;
}

}  // namespace

class TestRopeView : public QObject {
    Q_OBJECT
private slots:
    void drawsPairs_data() {
        QTest::addColumn<QVector<RopePairView>>("pairs");
        QTest::addColumn<QVector<double>>("theta");
        QTest::addColumn<QStringList>("titles");
        const QPointF q(0.8, -0.3), k(-0.2, 0.6);
        QTest::newRow("fastest and a slow pair")
            << QVector<RopePairView>{pair(0, QStringLiteral("0, 1"), 1.0, 7.0, q, rotate(q, 7.0), k, rotate(k, 5.0)),
                                     pair(5, QStringLiteral("10, 11"), 0.01, 0.07, q * 3, rotate(q * 3, 0.07), k, rotate(k, 0.05))}
            << QVector<double>{1.0, 0.3, 0.1, 0.03, 0.02, 0.01}
            << QStringList{QStringLiteral("pair 0 (dims 0, 1)\nθ = 1\nangle = 401.1°"),
                           QStringLiteral("pair 5 (dims 10, 11)\nθ = 0.01\nangle = 4.0°")};
        QTest::newRow("NeoX dims, long vectors")
            << QVector<RopePairView>{pair(2, QStringLiteral("2, 34"), 0.5, 1.5, {12, 0}, rotate({12, 0}, 1.5), {0, -20}, rotate({0, -20}, 1.0))}
            << QVector<double>{1.0, 0.75, 0.5}
            << QStringList{QStringLiteral("pair 2 (dims 2, 34)\nθ = 0.5\nangle = 85.9°")};
        QTest::newRow("zero vectors") << QVector<RopePairView>{pair(0, QStringLiteral("0, 1"), 1.0, 0.0, {}, {}, {}, {})}
                                      << QVector<double>{1.0}
                                      << QStringList{QStringLiteral("pair 0 (dims 0, 1)\nθ = 1\nangle = 0.0°")};
    }
    void drawsPairs() {
        QFETCH(QVector<RopePairView>, pairs);
        QFETCH(QVector<double>, theta);
        QFETCH(QStringList, titles);
        RopeView view;
        view.setData({.rope = true, .base = 10000.0, .query_pos = 7, .key_pos = 5, .pairs = pairs, .theta = theta,
                      .offsets = flat_offsets()});
        const RopeView::ViewState v = view.viewState();
        QVERIFY(v.rope);
        QVERIFY(v.pairs_shown);
        QVERIFY(v.message.isEmpty());
        QCOMPARE(v.pairs.size(), pairs.size());
        QVector<double> marked;
        for (qsizetype i = 0; i < pairs.size(); ++i) {
            const RopeView::PairState& p = v.pairs[i];
            QCOMPARE(p.title, titles[i]);
            QCOMPARE(p.q_before, pairs[i].q_before);
            QCOMPARE(p.q_after, pairs[i].q_after);
            QCOMPARE(p.k_before, pairs[i].k_before);
            QCOMPARE(p.k_after, pairs[i].k_after);
            QCOMPARE(p.angle, pairs[i].angle);
            // Origin in the middle, every arrow inside, the same extent both ways.
            QCOMPARE(p.x_lower, -p.x_upper);
            QCOMPARE(p.y_lower, -p.y_upper);
            QCOMPARE(p.x_upper, p.y_upper);
            for (QPointF tip : {p.q_before, p.q_after, p.k_before, p.k_after})
                QVERIFY(std::abs(tip.x()) < p.x_upper && std::abs(tip.y()) < p.y_upper);
            marked << pairs[i].pair;
        }
        QCOMPARE(v.spectrum, theta);
        QCOMPARE(v.spectrum_x.size(), theta.size());
        for (qsizetype i = 0; i < theta.size(); ++i) QCOMPARE(v.spectrum_x[i], double(i));
        QCOMPARE(v.marked, marked);
        QVERIFY(v.spectrum_log);
        QCOMPARE(v.spectrum_title, QStringLiteral("Frequency of each pair: base 10000"));
    }

    // On screen, a pair plot keeps one scale on both axes: a unit is as many pixels across as up.
    void pairPlotsAreSquareOnScreen() {
        RopeView view;
        const QPointF q(0.8, -0.3);
        view.setData({.rope = true, .base = 1e6, .pairs = {pair(0, QStringLiteral("0, 1"), 1.0, 2.0, q, rotate(q, 2.0), q, q),
                                                           pair(1, QStringLiteral("2, 3"), 0.1, 0.2, q, rotate(q, 0.2), q, q)},
                      .theta = {1.0, 0.1}});
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (int i = 0; i < 4; ++i) view.pairsPlot()->replot();  // the layout, then the ranges that fit it
        const QList<QCPAxisRect*> rects = view.pairsPlot()->axisRects();
        QCOMPARE(rects.size(), 2);
        for (QCPAxisRect* r : rects) {
            const QCPRange x = r->axis(QCPAxis::atBottom)->range(), y = r->axis(QCPAxis::atLeft)->range();
            QCOMPARE(x.center(), 0.0);
            QCOMPARE(y.center(), 0.0);
            const double xs = r->width() / x.size(), ys = r->height() / y.size();
            QVERIFY2(std::abs(xs - ys) < 0.02 * xs, qPrintable(QStringLiteral("%1 vs %2 px per unit").arg(xs).arg(ys)));
        }
        QCOMPARE(view.viewState().spectrum_title, QStringLiteral("Frequency of each pair: base 1000000"));
    }

    void offsetCaption_data() {
        QTest::addColumn<QVector<RopeOffsetPoint>>("offsets");
        QTest::addColumn<QString>("caption");
        const QString flat = QStringLiteral("The same for every pair of positions with this offset: flat within 1e-4");
        QTest::newRow("RoPE: flat") << flat_offsets() << flat;
        QTest::newRow("spread of exactly 1e-4: flat")
            << QVector<RopeOffsetPoint>{{.offset = -2, .min = 0.5, .max = 0.5 + 1e-4, .samples = 4}, {.offset = 0, .min = 2.0, .max = 2.0, .samples = 4}}
            << flat;
        QTest::newRow("absolute positions matter: the largest spread")
            << QVector<RopeOffsetPoint>{{.offset = 0, .min = 1.0, .max = 1.01, .samples = 5},
                                        {.offset = 1, .min = 0.2, .max = 0.45, .samples = 5},
                                        {.offset = 2, .min = -0.1, .max = 0.0, .samples = 5}}
            << QStringLiteral("Not the same for every pair of positions with this offset: the largest spread (highest − lowest "
                              "score) is 0.25, at offset 1");
        QTest::newRow("no offsets") << QVector<RopeOffsetPoint>{} << QString();
    }
    void offsetCaption() {
        QFETCH(QVector<RopeOffsetPoint>, offsets);
        QFETCH(QString, caption);
        RopeView view;
        view.setData({.rope = true, .base = 10000.0, .theta = {1.0, 0.1}, .offsets = offsets});
        const RopeView::ViewState v = view.viewState();
        QCOMPARE(v.caption, caption);
        QCOMPARE(view.caption()->text(), caption);
        QCOMPARE(v.offsets.size(), offsets.size());
        for (qsizetype i = 0; i < offsets.size(); ++i) {
            QCOMPARE(v.offsets[i], double(offsets[i].offset));
            QCOMPARE(v.min[i], offsets[i].min);
            QCOMPARE(v.max[i], offsets[i].max);
            QCOMPARE(v.middle[i], (offsets[i].min + offsets[i].max) / 2.0);
        }
        QCOMPARE(v.offset_label, QStringLiteral("offset m − n (positions)"));
        QCOMPARE(v.score_label, QStringLiteral("score (scaled q·k)"));
    }

    void nope_data() {
        QTest::addColumn<int>("layer");
        QTest::addColumn<QString>("message");
        const QString rest = QStringLiteral("q and k are not rotated; position reaches this layer only through the causal mask "
                                            "and the residual stream");
        QTest::newRow("layer 3") << 3 << QStringLiteral("Layer 3 uses no RoPE (NoPE): ") + rest;
        QTest::newRow("layer not said") << -1 << QStringLiteral("This layer uses no RoPE (NoPE): ") + rest;
    }
    void nope() {
        QFETCH(int, layer);
        QFETCH(QString, message);
        RopeView view;
        view.setLayer(layer);
        // Pairs and a spectrum handed in by mistake are not drawn: nothing rotates.
        view.setData({.rope = false, .base = 10000.0, .pairs = {pair(0, QStringLiteral("0, 1"), 1.0, 1.0, {1, 0}, {0, 1}, {1, 0}, {0, 1})},
                      .theta = {1.0}, .offsets = flat_offsets()});
        view.resize(800, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const RopeView::ViewState v = view.viewState();
        QVERIFY(!v.rope);
        QCOMPARE(v.message, message);
        QVERIFY(view.message()->isVisible());
        QVERIFY(!v.pairs_shown);
        QVERIFY(!view.pairsPlot()->isVisible());
        QVERIFY(v.pairs.isEmpty());
        QVERIFY(v.spectrum.isEmpty());
        QVERIFY(v.marked.isEmpty());
        QCOMPARE(v.offsets.size(), flat_offsets().size());  // still drawn: flat, nothing rotates
        QVERIFY(view.offsetPlot()->isVisible());
        QCOMPARE(v.caption, QStringLiteral("The same for every pair of positions with this offset: flat within 1e-4"));
        // Back to a RoPE layer: the message goes.
        view.setData({.rope = true, .theta = {1.0}});
        QVERIFY(view.viewState().message.isEmpty());
        QVERIFY(view.viewState().pairs_shown);
    }

    void emptyDrawsEmpty() {
        RopeView view;
        view.setData(RopeData{});
        view.resize(600, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (QCustomPlot* p : {view.pairsPlot(), view.spectrumPlot(), view.offsetPlot()}) p->replot();
        QVERIFY(!view.grab().isNull());
        const RopeView::ViewState v = view.viewState();
        QVERIFY(v.pairs.isEmpty());
        QVERIFY(v.spectrum.isEmpty());
        QVERIFY(v.offsets.isEmpty());
        QVERIFY(v.caption.isEmpty());
        QVERIFY(v.message.isEmpty());
        QCOMPARE(view.pairsPlot()->axisRectCount(), 0);
        QVERIFY(view.pairsPlot()->isVisible());  // empty, not hidden: a RoPE layer without data yet
    }

    void followsFontChanges() {
        RopeView view;
        view.setLayer(2);
        view.setData({.rope = true, .pairs = {pair(0, QStringLiteral("0, 1"), 1.0, 1.0, {1, 0}, {0, 1}, {1, 0}, {0, 1})},
                      .theta = {1.0}, .offsets = flat_offsets()});
        const double pairTicks = view.pairsPlot()->axisRect()->axis(QCPAxis::atBottom)->tickLabelFont().pointSizeF();
        const double spectrumTicks = view.spectrumPlot()->xAxis->tickLabelFont().pointSizeF();
        const double offsetLegend = view.offsetPlot()->legend->font().pointSizeF();
        const double message = view.message()->font().pointSizeF();
        QFont f = view.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        view.setFont(f);  // stage mode's larger font
        QVERIFY(view.pairsPlot()->axisRect()->axis(QCPAxis::atBottom)->tickLabelFont().pointSizeF() > 1.9 * pairTicks);
        QVERIFY(view.spectrumPlot()->xAxis->tickLabelFont().pointSizeF() > 1.9 * spectrumTicks);
        QVERIFY(view.offsetPlot()->legend->font().pointSizeF() > 1.9 * offsetLegend);
        QVERIFY(view.message()->font().pointSizeF() > 1.9 * message);
        QVERIFY(view.caption()->font().pointSizeF() >= f.pointSizeF());
        // New data keeps the large fonts.
        view.setData({.rope = true, .pairs = {pair(1, QStringLiteral("2, 3"), 0.5, 0.5, {1, 0}, {0, 1}, {1, 0}, {0, 1})}, .theta = {1.0, 0.5}});
        QVERIFY(view.pairsPlot()->axisRect()->axis(QCPAxis::atBottom)->tickLabelFont().pointSizeF() > 1.9 * pairTicks);
    }

    // A log axis has no place for θ <= 0 (or NaN): those pairs are left out, the others keep their index.
    void spectrumSkipsWhatALogAxisCannotShow() {
        RopeView view;
        view.setData({.rope = true, .base = 10000.0, .theta = {1.0, 0.0, 0.1, qQNaN(), 0.01}});
        const RopeView::ViewState v = view.viewState();
        QCOMPARE(v.spectrum, (QVector<double>{1.0, 0.1, 0.01}));
        QCOMPARE(v.spectrum_x, (QVector<double>{0.0, 2.0, 4.0}));
    }

    void languageChangeKeepsTexts() {
        RopeView view;
        view.setData({.rope = true, .base = 500000.0, .theta = {1.0}, .offsets = flat_offsets()});
        const RopeView::ViewState before = view.viewState();
        QEvent change(QEvent::LanguageChange);
        QApplication::sendEvent(&view, &change);
        const RopeView::ViewState after = view.viewState();
        QCOMPARE(after.caption, before.caption);
        QCOMPARE(after.spectrum_title, QStringLiteral("Frequency of each pair: base 500000"));
        QCOMPARE(after.spectrum, before.spectrum);
    }
};

QTEST_MAIN(TestRopeView)
#include "test_rope_view.moc"
