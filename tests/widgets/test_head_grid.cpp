// The head grid: one cell per (layer, head) as given (missing and NaN values blank), the colour
// range and scale as asked, the selected head outlined only when it exists, a click on a cell
// picking that layer and head.
#include "widgets/head_grid.h"

#include <QSignalSpy>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>

using namespace lmscope::widgets;

class TestHeadGrid : public QObject {
    Q_OBJECT
private slots:
    void showsCells_data() {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<bool>("diverging");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<QPoint>("select");
        QTest::addColumn<QPoint>("selected");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("entropy, 2 x 3") << 2 << 3 << QVector<double>{0.1, 0.2, 0.3, 1.0, 1.1, 1.2} << false << 0.0 << 1.2
                                        << QPoint(1, 2) << QPoint(1, 2);
        QTest::newRow("difference, one blank") << 3 << 2 << QVector<double>{-0.5, 0.5, nan, 0.0, 0.25, -0.25} << true
                                               << -0.5 << 0.5 << QPoint(0, 0) << QPoint(0, 0);
        QTest::newRow("values short, selection outside") << 2 << 2 << QVector<double>{0.7} << false << 0.0 << 1.0
                                                         << QPoint(2, 0) << QPoint(-1, -1);
        QTest::newRow("no run") << 0 << 0 << QVector<double>{} << false << 0.0 << 1.0 << QPoint(0, 0) << QPoint(-1, -1);
    }
    void showsCells() {
        QFETCH(int, layers);
        QFETCH(int, heads);
        QFETCH(QVector<double>, values);
        QFETCH(bool, diverging);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(QPoint, select);
        QFETCH(QPoint, selected);
        HeadGrid grid;
        grid.setData({.title = QStringLiteral("A − B"), .n_layer = layers, .n_head = heads, .values = values,
                      .low = low, .high = high, .diverging = diverging, .scale_label = QStringLiteral("nats")});
        grid.setSelected(select.x(), select.y());
        const HeadGrid::ViewState v = grid.viewState();
        QCOMPARE(v.title, QStringLiteral("A − B"));
        QCOMPARE(v.layers, layers);
        QCOMPARE(v.heads, heads);
        QCOMPARE(v.cells.size(), qsizetype(layers) * heads);
        for (qsizetype i = 0; i < v.cells.size(); ++i) {
            if (i < values.size() && !std::isnan(values[i])) QCOMPARE(v.cells[i], values[i]);
            else QVERIFY(std::isnan(v.cells[i]));  // blank
        }
        QCOMPARE(v.low, low);
        QCOMPARE(v.high, high);
        QCOMPARE(v.diverging, diverging);
        QCOMPARE(v.layer_label, QStringLiteral("layer"));
        QCOMPARE(v.head_label, QStringLiteral("head"));
        QCOMPARE(v.scale_label, QStringLiteral("nats"));
        QCOMPARE(QPoint(v.selected_layer, v.selected_head), selected);
    }

    void clickPicksCell_data() {
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("head");
        QTest::newRow("first") << 0 << 0;
        QTest::newRow("last layer, head 1") << 3 << 1;
    }
    void clickPicksCell() {
        QFETCH(int, layer);
        QFETCH(int, head);
        HeadGrid grid;
        grid.resize(400, 300);
        grid.setData({.title = QStringLiteral("grid"), .n_layer = 4, .n_head = 2, .values = QVector<double>(8, 0.5)});
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        grid.plot()->replot();
        QSignalSpy clicked(&grid, &HeadGrid::cellClicked);
        QTest::mouseClick(grid.plot(), Qt::LeftButton, {}, grid.cellCenter(layer, head));
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), layer);
        QCOMPARE(clicked.at(0).at(1).toInt(), head);
    }
};

QTEST_MAIN(TestHeadGrid)
#include "test_head_grid.moc"
