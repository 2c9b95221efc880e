// What every chart shares (plot_style): a legend entry shows its whole name at any font size,
// the underscores of hook and type names ("q8_0", "resid_pre") included.
#include "widgets/plot_style.h"

#include <QtTest>
#include <qcustomplot.h>

using namespace lmscope::widgets;

namespace {

// The dark pixels of a one-entry legend's entry (its icon and text, the legend's frame left out)
// for a graph named `name`, with the chart's fonts at `point_size`.
int entry_ink(const QString& name, double point_size) {
    QCustomPlot plot;
    plot.resize(480, 320);
    QCPGraph* g = plot.addGraph();
    g->setName(name);
    put_legend_below(&plot, 1);
    QFont f = plot.font();
    f.setPointSizeF(point_size);
    apply_plot_fonts(&plot, f);
    plot.replot();
    const QImage image = plot.grab().toImage();
    const QRect entry = plot.legend->item(0)->outerRect();
    int ink = 0;
    for (int y = entry.top(); y <= entry.bottom(); ++y)
        for (int x = entry.left(); x <= entry.right(); ++x) ink += qGray(image.pixel(x, y)) < 128;
    return ink;
}

}  // namespace

class TestPlotStyle : public QObject {
    Q_OBJECT
private slots:
    // A name ending in '_' has more ink than the name without it: the underscore is drawn.
    void legendKeepsUnderscores_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("point_size");
        for (double pt : {8.0, 9.0, 10.0, 12.0, 14.0, 18.0, 24.0}) {
            QTest::addRow("q8_ at %gpt", pt) << QStringLiteral("q8_") << pt;
            QTest::addRow("resid_ at %gpt", pt) << QStringLiteral("resid_") << pt;
        }
    }
    void legendKeepsUnderscores() {
        QFETCH(QString, name);
        QFETCH(double, point_size);
        const int with = entry_ink(name, point_size), without = entry_ink(name.chopped(1), point_size);
        QVERIFY2(with > without, qPrintable(QStringLiteral("'%1': %2 dark pixels, '%3': %4").arg(name).arg(with).arg(name.chopped(1)).arg(without)));
    }
};

QTEST_MAIN(TestPlotStyle)
#include "test_plot_style.moc"
