// Vector strips: every strip's cells drawn with its values, coloured on its group's symmetric
// scale (the largest |value| of the group: -scale blue, 0 white, +scale red), one legend row per
// group, the norm written at the right; hovering names the cell; 512 strips lay out in a scroll
// area and paint quickly; the rows follow the font; no strips draw nothing without crashing.
#include "shouting_translator.h"
#include "widgets/trace_colors.h"
#include "widgets/vector_strips.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolTip>
#include <QTranslator>
#include <QtTest>

#include <algorithm>

using namespace lmscope::widgets;

using Vectors = QVector<QVector<float>>;

namespace {

VectorStripsData make(const QStringList& labels, const Vectors& values, const QVector<qint32>& group) {
    VectorStripsData d;
    d.title = QStringLiteral("q and k");
    for (qsizetype i = 0; i < labels.size(); ++i) {
        double n2 = 0;
        for (float v : values[i]) n2 += double(v) * v;
        d.strips.push_back({labels[i], values[i], std::sqrt(n2)});
    }
    d.group = group;
    return d;
}

}  // namespace

class TestVectorStrips : public QObject {
    Q_OBJECT
private slots:
    void showsStrips_data() {
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<Vectors>("values");
        QTest::addColumn<QVector<qint32>>("group");
        QTest::addColumn<QVector<qint32>>("groups");    // as drawn
        QTest::addColumn<QVector<double>>("scales");    // [strip]
        QTest::addColumn<QVector<double>>("legends");   // [legend row]
        QTest::addColumn<QStringList>("normTexts");
        QTest::newRow("q and k share a scale")
            << QStringList{"q: looking for", "k of “bank” (7)"} << Vectors{{3, -4, 0}, {1, 2, -2}} << QVector<qint32>{0, 0}
            << QVector<qint32>{0, 0} << QVector<double>{4, 4} << QVector<double>{4}
            << QStringList{"|x| = 5.00", "|x| = 3.00"};
        QTest::newRow("two groups, two scales")
            << QStringList{"resid_pre", "q", "k"} << Vectors{{100, -300}, {0.5, -0.25}, {0.125, 0.0}}
            << QVector<qint32>{0, 1, 1} << QVector<qint32>{0, 1, 1} << QVector<double>{300, 0.5, 0.5}
            << QVector<double>{300, 0.5} << QStringList{"|x| = 316", "|x| = 0.559", "|x| = 0.125"};
        QTest::newRow("groups missing: one scale")
            << QStringList{"a", "b"} << Vectors{{1, 2}, {-8, 0}} << QVector<qint32>{} << QVector<qint32>{0, 0}
            << QVector<double>{8, 8} << QVector<double>{8} << QStringList{"|x| = 2.24", "|x| = 8.00"};
        QTest::newRow("all zero: scale 0, white")
            << QStringList{"z"} << Vectors{{0, 0, 0, 0}} << QVector<qint32>{3} << QVector<qint32>{3}
            << QVector<double>{0} << QVector<double>{0} << QStringList{"|x| = 0.00"};
        QTest::newRow("empty") << QStringList{} << Vectors{} << QVector<qint32>{} << QVector<qint32>{}
                               << QVector<double>{} << QVector<double>{} << QStringList{};
    }
    void showsStrips() {
        QFETCH(QStringList, labels);
        QFETCH(Vectors, values);
        QFETCH(QVector<qint32>, group);
        QFETCH(QVector<qint32>, groups);
        QFETCH(QVector<double>, scales);
        QFETCH(QVector<double>, legends);
        QFETCH(QStringList, normTexts);
        VectorStrips strips;
        strips.resize(500, 300);
        strips.setData(make(labels, values, group));
        const VectorStrips::ViewState v = strips.viewState();
        QCOMPARE(v.title, QStringLiteral("q and k"));
        QCOMPARE(v.labels, labels);
        QCOMPARE(v.values, values);
        QCOMPARE(v.groups, groups);
        QCOMPARE(v.scales, scales);
        QCOMPARE(v.legend_scales, legends);
        QCOMPARE(v.norm_texts, normTexts);
        QCOMPARE(v.norms.size(), labels.size());
        // Each cell's colour is its value over its group's scale on the diverging ramp: the
        // group's largest |value| is fully blue or red, 0 white.
        for (qsizetype s = 0; s < values.size(); ++s) {
            QCOMPARE(v.colors[s].size(), values[s].size());
            for (qsizetype c = 0; c < values[s].size(); ++c) {
                const float x = values[s][c];
                const float t = scales[s] > 0 ? float(x / scales[s]) : 0.0f;
                QCOMPARE(v.colors[s][c], colors::diverging_color(t));
                if (x == 0) QCOMPARE(v.colors[s][c], qRgb(255, 255, 255));
                if (std::fabs(x) == scales[s] && x > 0) QCOMPARE(v.colors[s][c], colors::diverging_ramp().back().second.rgb());
                if (std::fabs(x) == scales[s] && x < 0) QCOMPARE(v.colors[s][c], colors::diverging_ramp().front().second.rgb());
            }
        }
        QImage image(strips.size(), QImage::Format_RGB32);
        strips.render(&image);  // draws (an empty widget too) without crashing
    }

    void hoverNamesCell_data() {
        QTest::addColumn<int>("strip");
        QTest::addColumn<int>("component");
        QTest::addColumn<QString>("text");
        QTest::newRow("first cell") << 0 << 0 << QStringLiteral("q: looking for · component 0: 3");
        QTest::newRow("a negative value") << 0 << 1 << QStringLiteral("q: looking for · component 1: -4.5");
        QTest::newRow("second strip, last cell") << 1 << 2 << QStringLiteral("k of “bank” (7) · component 2: 0.125");
    }
    void hoverNamesCell() {
        QFETCH(int, strip);
        QFETCH(int, component);
        QFETCH(QString, text);
        VectorStrips strips;
        strips.resize(500, 200);
        strips.setData(make({"q: looking for", "k of “bank” (7)"}, {{3, -4.5f, 0}, {1, 2, 0.125f}}, {}));
        strips.show();
        QVERIFY(QTest::qWaitForWindowExposed(&strips));
        const QRect cell = strips.cellRect(strip, component);
        QVERIFY(cell.isValid());
        QCOMPARE(strips.cellAt(cell.center()), std::make_pair(strip, component));
        QCOMPARE(strips.cellDescription(strip, component), text);
        QHelpEvent help(QEvent::ToolTip, cell.center(), strips.mapToGlobal(cell.center()));
        QApplication::sendEvent(&strips, &help);
        QCOMPARE(QToolTip::text(), text);
        QCOMPARE(strips.cellAt(QPoint(1, 1)), std::make_pair(-1, -1));  // the margin: no cell
    }

    // k of 512 earlier tokens: the widget grows with the strips, sits in a scroll area, and one
    // screen of it paints in well under 20 ms.
    void manyStripsScroll() {
        VectorStripsData d;
        d.title = QStringLiteral("k of every earlier token");
        for (int s = 0; s < 512; ++s) {
            VectorStrip strip{QStringLiteral("k of “tok%1” (%1)").arg(s), QVector<float>(64), 0.0};
            for (int c = 0; c < 64; ++c) strip.values[c] = float(std::sin(0.1 * s + 0.3 * c) * (1 + s % 7));
            d.strips.push_back(strip);
        }
        double largest = 0;  // the one group's scale
        for (const VectorStrip& strip : d.strips)
            for (float v : strip.values) largest = std::max(largest, double(std::fabs(v)));
        auto* strips = new VectorStrips;
        strips->setData(d);
        const int row = QFontMetrics(strips->font()).height();
        QVERIFY(strips->sizeHint().height() >= 512 * row);
        QCOMPARE(strips->viewState().legend_scales, QVector<double>{largest});
        QScrollArea area;
        area.setWidgetResizable(true);
        area.setWidget(strips);
        area.resize(600, 400);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QVERIFY(area.verticalScrollBar()->maximum() > 0);
        area.verticalScrollBar()->setValue(area.verticalScrollBar()->maximum() / 2);
        QApplication::processEvents();
        QImage image(area.viewport()->size(), QImage::Format_RGB32);
        const QRect visible = strips->visibleRegion().boundingRect();
        QVERIFY(!visible.isEmpty());
        qint64 best = std::numeric_limits<qint64>::max();
        for (int i = 0; i < 5; ++i) {
            QElapsedTimer timer;
            timer.start();
            strips->render(&image, QPoint(), QRegion(visible));
            best = std::min(best, timer.nsecsElapsed());
        }
        QVERIFY2(best < 20'000'000, qPrintable(QStringLiteral("%1 ms").arg(best / 1e6)));
        // All 512 strips at once (a tall window, or an export) stay well within a frame or two.
        QImage all(strips->size(), QImage::Format_RGB32);
        QElapsedTimer timer;
        timer.start();
        strips->render(&all);
        QVERIFY2(timer.elapsed() < 200, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
        qInfo("one screen: %.2f ms, all 512 strips: %lld ms", best / 1e6, qint64(timer.elapsed()));
        // The strip under the middle of the view is one from the middle of the data.
        const auto [s, c] = strips->cellAt(QPoint(strips->cellRect(0, 10).center().x(), visible.center().y()));
        QVERIFY2(s > 100 && s < 400, qPrintable(QString::number(s)));
        QCOMPARE(c, 10);
    }

    void followsFont() {
        VectorStrips strips;
        strips.setData(make({"a", "b", "c"}, {{1, 2}, {3, 4}, {5, 6}}, {0, 1, 2}));
        const QSize before = strips.sizeHint();
        const int row = strips.cellRect(0, 0).height();
        QFont f = strips.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        strips.setFont(f);  // stage mode's larger font
        QVERIFY2(strips.sizeHint().height() > 1.5 * before.height(),  // all but the fixed margins scale
                 qPrintable(QStringLiteral("%1 -> %2").arg(before.height()).arg(strips.sizeHint().height())));
        QVERIFY(strips.cellRect(0, 0).height() > 1.7 * row);
    }

    void retranslates() {
        VectorStrips strips;
        strips.setData(make({"q"}, {{3, 4}}, {}));
        lmscope::testing::Shouting shouting;
        QCoreApplication::installTranslator(&shouting);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(strips.viewState().norm_texts, QStringList{"|X| = 5.00"});
        QCOMPARE(strips.cellDescription(0, 1), QStringLiteral("q · COMPONENT 1: 4"));
        QCoreApplication::removeTranslator(&shouting);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(strips.viewState().norm_texts, QStringList{"|x| = 5.00"});
    }
};

QTEST_MAIN(TestVectorStrips)
#include "test_vector_strips.moc"
