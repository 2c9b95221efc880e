// Checks on a laid-out chart that several widget tests share (the walk's layout_check makes the
// same ones over the whole window).
#pragma once

#include <QRect>
#include <QSize>
#include <QString>
#include <QStringList>
#include <qcustomplot.h>

namespace lmscope::test {

// Why the chart's legend is not clear of its data at the plot's present size: it lies over an
// axis rect, or it has less room than its entries need; empty when it is clear (or hidden).
inline QString legend_problem(QCustomPlot* plot) {
    plot->replot(QCustomPlot::rpImmediateRefresh);  // lay it out at its present size
    if (!plot->legend || !plot->legend->visible() || plot->legend->itemCount() == 0) return {};
    const QRect legend = plot->legend->outerRect();
    for (QCPAxisRect* r : plot->axisRects())
        if (legend.intersects(r->rect())) return QStringLiteral("the legend lies over the data");
    const QSize need = plot->legend->minimumOuterSizeHint();
    if (need.width() > legend.width() + 2 || need.height() > legend.height() + 2)
        return QStringLiteral("the legend needs %1x%2, has %3x%4").arg(need.width()).arg(need.height()).arg(legend.width()).arg(legend.height());
    return {};
}

// The chart's titles that do not fit their element at the plot's present size, as "'text' needs
// N px, has M" (each line as written, as the walk measures them); empty when every title fits.
inline QStringList title_problems(QCustomPlot* plot) {
    plot->replot(QCustomPlot::rpImmediateRefresh);  // lay it out at its present size
    QStringList out;
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        auto* title = qobject_cast<QCPTextElement*>(e);
        if (!title || !title->visible() || title->text().isEmpty()) continue;
        const int need = QFontMetrics(title->font()).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, title->text()).width();
        if (need > e->outerRect().width() + 1)
            out << QStringLiteral("'%1' needs %2 px, has %3").arg(title->text()).arg(need).arg(e->outerRect().width());
    }
    return out;
}

}  // namespace lmscope::test
