#include "gui/shown_chart.h"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QStringList>
#include <QTabWidget>

#include <qcustomplot.h>

namespace lmscope::gui {
namespace {

bool is_shown(const QWidget* w) { return w->isVisible() && !w->visibleRegion().isEmpty(); }

qint64 shown_area(const QWidget* w) {
    const QRect r = w->visibleRegion().boundingRect();
    return qint64(r.width()) * r.height();
}

QCustomPlot* largest_shown(const QWidget* root) {
    QCustomPlot* best = nullptr;
    for (QCustomPlot* p : root->findChildren<QCustomPlot*>())
        if (is_shown(p) && (!best || shown_area(p) > shown_area(best))) best = p;
    return best;
}

template <class T> T* ancestor(QWidget* w) {
    for (; w; w = w->parentWidget())
        if (auto* t = qobject_cast<T*>(w)) return t;
    return nullptr;
}

// The chart's own title (the first line of its first), or "".
QString chart_title(const QCustomPlot* plot) {
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
        if (auto* title = qobject_cast<QCPTextElement*>(e); title && title->visible() && !title->text().isEmpty())
            return title->text().section(QLatin1Char('\n'), 0, 0);
    return {};
}

// Letters and digits of any script, lower case, every other run a '-'.
QString file_stem(const QString& name) {
    QString stem;
    for (const QChar c : name.toLower()) {
        if (c.isLetterOrNumber()) stem += c;
        else if (!stem.isEmpty() && !stem.endsWith(QLatin1Char('-'))) stem += QLatin1Char('-');
    }
    while (stem.endsWith(QLatin1Char('-'))) stem.chop(1);
    return stem.left(80);
}

ShownChart describe(QCustomPlot* plot) {
    QStringList parts;  // from the chart out: its title, the tabs it is on, its dock
    if (const QString title = chart_title(plot); !title.isEmpty()) parts.prepend(title);
    QWidget* dock = ancestor<QDockWidget>(plot);
    for (QWidget* w = plot->parentWidget(); w && w != dock; w = w->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(w)) parts.prepend(tabs->tabText(tabs->currentIndex()));
    if (dock) parts.prepend(dock->windowTitle());
    const QString name = parts.join(QStringLiteral(" › "));
    return {plot, name, file_stem(name).isEmpty() ? QStringLiteral("chart") : file_stem(name)};
}

}  // namespace

ChartFocus::ChartFocus(QWidget* window) : QObject(window), window_(window) { qApp->installEventFilter(this); }

bool ChartFocus::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::FocusIn)
        if (auto* w = qobject_cast<QWidget*>(watched); w && w->window() == window_) last_ = w;
    return QObject::eventFilter(watched, event);
}

ShownChart ChartFocus::shown() const {
    QWidget* last = last_.data();
    if (auto* plot = ancestor<QCustomPlot>(last); plot && is_shown(plot)) return describe(plot);
    if (auto* dock = ancestor<QDockWidget>(last); dock && is_shown(dock))
        if (QCustomPlot* plot = largest_shown(dock)) return describe(plot);
    if (QCustomPlot* plot = largest_shown(window_)) return describe(plot);
    return {};
}

}  // namespace lmscope::gui
