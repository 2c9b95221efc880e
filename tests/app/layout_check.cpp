#include "layout_check.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QStyleOptionComboBox>
#include <QTabBar>

#include <qcustomplot.h>

#include <cmath>

namespace lmscope::testing {
namespace {

constexpr int kSlack = 1;  // pixels of rounding allowed everywhere

// "logitsDock/logitsView/QLabel#logitsHeading 'Next token…'": the named ancestors, then the widget.
QString describe(const QWidget* w, const QString& text = {}) {
    QStringList names;
    for (const QWidget* a = w->parentWidget(); a && !a->isWindow(); a = a->parentWidget())
        if (!a->objectName().isEmpty() && !a->objectName().startsWith(QLatin1String("qt_"))) names.prepend(a->objectName());
    QString self = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty()) self += QLatin1Char('#') + w->objectName();
    names << self;
    QString d = names.join(QLatin1Char('/'));
    if (!text.isEmpty()) d += QStringLiteral(" '%1'").arg(text.left(60));
    return d;
}

bool inside_item_view(const QWidget* w) {
    for (const QWidget* a = w->parentWidget(); a; a = a->parentWidget())
        if (qobject_cast<const QAbstractItemView*>(a)) return true;
    return false;
}

// The widget's rectangle must lie inside each ancestor's, up to the window or a scroll area's
// viewport (whose content scrolls, checked by check_scroll_area).
void check_bounds(const QWidget* w, QStringList& out) {
    const QWidget* window = w->window();
    const QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
    for (const QWidget* a = w->parentWidget(); a && a != window; a = a->parentWidget()) {
        if (qobject_cast<const QAbstractScrollArea*>(a->parentWidget()) && a->objectName() == QLatin1String("qt_scrollarea_viewport"))
            return;
        const QRect ar(a->mapTo(window, QPoint(0, 0)), a->size());
        if (!ar.adjusted(-kSlack, -kSlack, kSlack, kSlack).contains(r)) {
            out << QStringLiteral("%1: cut off by %2 (%3,%4 %5x%6 outside %7,%8 %9x%10)")
                       .arg(describe(w), describe(a))
                       .arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())
                       .arg(ar.x()).arg(ar.y()).arg(ar.width()).arg(ar.height());
            return;
        }
    }
}

void check_label(const QLabel* l, QStringList& out) {
    if (l->text().isEmpty() || !l->pixmap().isNull()) return;
    const QRect c = l->contentsRect();
    if (l->wordWrap()) {
        const int need = l->heightForWidth(l->width());
        if (need > l->height() + kSlack)
            out << QStringLiteral("%1: wraps to %2 px but has %3").arg(describe(l, l->text())).arg(need).arg(l->height());
        return;
    }
    const QSize need = l->sizeHint();
    if (need.width() > l->width() + kSlack)
        out << QStringLiteral("%1: needs %2 px, has %3").arg(describe(l, l->text())).arg(need.width()).arg(l->width());
    else if (l->fontMetrics().height() > c.height() + kSlack)
        out << QStringLiteral("%1: %2 px tall, line needs %3").arg(describe(l, l->text())).arg(c.height()).arg(l->fontMetrics().height());
}

void check_button(const QAbstractButton* b, QStringList& out) {
    if (b->text().isEmpty()) return;
    const QSize need = b->sizeHint();
    if (need.width() > b->width() + kSlack || need.height() > b->height() + 2 * kSlack)
        out << QStringLiteral("%1: needs %2x%3, has %4x%5")
                   .arg(describe(b, b->text()))
                   .arg(need.width()).arg(need.height()).arg(b->width()).arg(b->height());
}

void check_combo(const QComboBox* c, QStringList& out) {
    if (c->currentText().isEmpty()) return;
    QStyleOptionComboBox opt;
    opt.initFrom(c);
    opt.editable = c->isEditable();
    opt.currentText = c->currentText();
    const QRect field = c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c);
    const int need = c->fontMetrics().horizontalAdvance(c->currentText());
    if (need > field.width() + kSlack)
        out << QStringLiteral("%1: text needs %2 px, field has %3").arg(describe(c, c->currentText())).arg(need).arg(field.width());
}

void check_spin(const QAbstractSpinBox* s, QStringList& out) {
    const QSize need = s->minimumSizeHint();
    if (need.width() > s->width() + kSlack)
        out << QStringLiteral("%1: needs %2 px, has %3").arg(describe(s, s->text())).arg(need.width()).arg(s->width());
}

void check_tabs(const QTabBar* bar, QStringList& out) {
    for (int i = 0; i < bar->count(); ++i) {
        const QRect t = bar->tabRect(i);
        const QString text = bar->tabText(i);
        if (!bar->rect().adjusted(-kSlack, -kSlack, kSlack, kSlack).contains(t) || t.isEmpty())
            out << QStringLiteral("%1: tab hidden behind the bar's edge").arg(describe(bar, text));
        else if (bar->fontMetrics().horizontalAdvance(text) + 8 > t.width())
            out << QStringLiteral("%1: tab text elided (%2 px in a %3 px tab)")
                       .arg(describe(bar, text))
                       .arg(bar->fontMetrics().horizontalAdvance(text))
                       .arg(t.width());
    }
}

void check_status(const QStatusBar* bar, QStringList& out) {
    const QString message = bar->currentMessage();
    if (message.isEmpty()) return;
    int right = bar->width();
    for (const QWidget* c : bar->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (c->isVisible() && !qobject_cast<const QSizeGrip*>(c)) right = std::min(right, c->x());
    const int need = bar->fontMetrics().horizontalAdvance(message) + 8;  // the message's margins
    if (need > right)
        out << QStringLiteral("%1: message needs %2 px, has %3").arg(describe(bar, message)).arg(need).arg(right);
}

// A dock's own plain scroll area (its panel wrapped so a tiny window still works) must not
// scroll at all; a scroll area that is a panel or lies inside one (a list of figures, the
// token chips) may scroll down, never sideways.
void check_scroll_area(const QScrollArea* s, QStringList& out) {
    const bool fallback = qobject_cast<const QDockWidget*>(s->parentWidget()) &&
                          QString::fromLatin1(s->metaObject()->className()) == QLatin1String("QScrollArea");
    const QWidget* content = s->widget();
    if (!content) return;
    const int over_x = s->horizontalScrollBar()->maximum();
    const int over_y = s->verticalScrollBar()->maximum();
    if (over_x > 0 || (fallback && over_y > 0))
        out << QStringLiteral("%1: its panel needs %2x%3 but the dock shows %4x%5")
                   .arg(describe(s))
                   .arg(content->width()).arg(content->height())
                   .arg(s->viewport()->width()).arg(s->viewport()->height());
}

// --- charts --------------------------------------------------------------------------------

QString chart_name(const QCustomPlot* plot, const QString& what) { return QStringLiteral("%1: %2").arg(describe(plot), what); }

// The rectangle QCPItemText draws its text in (padding excluded), as QCPItemText::draw places it.
QRectF item_text_rect(const QCPItemText* item) {
    const QFontMetrics fm(item->font());
    const QRect text = fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip | item->textAlignment(), item->text());
    const QMargins pad = item->padding();
    const QSizeF box(text.width() + pad.left() + pad.right(), text.height() + pad.top() + pad.bottom());
    const QPointF at = item->position->pixelPosition();
    const Qt::Alignment a = item->positionAlignment();
    double x = at.x(), y = at.y();
    if (a & Qt::AlignHCenter) x -= box.width() / 2;
    else if (a & Qt::AlignRight) x -= box.width();
    if (a & Qt::AlignVCenter) y -= box.height() / 2;
    else if (a & Qt::AlignBottom) y -= box.height();
    return QRectF(x + pad.left(), y + pad.top(), text.width(), text.height());
}

// Consecutive tick labels of one axis must not overlap, and each must lie inside the plot.
void check_ticks(const QCustomPlot* plot, QCPAxis* axis, QStringList& out) {
    if (!axis->visible() || !axis->tickLabels()) return;
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const QFontMetrics fm(axis->tickLabelFont());
    const double angle = qDegreesToRadians(axis->tickLabelRotation());
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    struct Tick {
        double at, extent;
        QString text;
    };
    QVector<Tick> shown;
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis->range().contains(ticks[i]) || labels[i].isEmpty()) continue;
        const double w = fm.horizontalAdvance(labels[i]), h = fm.height();
        const double along = horizontal ? std::abs(w * std::cos(angle)) + std::abs(h * std::sin(angle))
                                         : std::abs(w * std::sin(angle)) + std::abs(h * std::cos(angle));
        shown.push_back({axis->coordToPixel(ticks[i]), along, labels[i]});
    }
    std::sort(shown.begin(), shown.end(), [](const Tick& a, const Tick& b) { return a.at < b.at; });
    for (int i = 1; i < shown.size(); ++i) {
        const double gap = shown[i].at - shown[i - 1].at;
        // Rotated labels are parallel strips one line tall; level ones must not touch.
        const bool rotated = std::abs(std::sin(angle)) > 0.01;
        const double need = rotated && horizontal ? fm.height() / std::abs(std::sin(angle)) * 0.9
                                                  : (shown[i].extent + shown[i - 1].extent) / 2 * 0.95;
        if (gap + kSlack < need) {
            out << chart_name(plot, QStringLiteral("tick labels '%1' and '%2' overlap (%3 px apart, need %4)")
                                        .arg(shown[i - 1].text, shown[i].text)
                                        .arg(gap, 0, 'f', 0)
                                        .arg(need, 0, 'f', 0));
            break;
        }
    }
    const double limit = horizontal ? plot->width() : plot->height();
    for (const Tick& t : shown)
        if (!std::abs(std::sin(angle)) && (t.at - t.extent / 2 < -kSlack || t.at + t.extent / 2 > limit + kSlack)) {
            out << chart_name(plot, QStringLiteral("tick label '%1' runs out of the plot").arg(t.text));
            break;
        }
    if (!axis->label().isEmpty()) {
        const QFontMetrics lf(axis->labelFont());
        const QRect r = axis->axisRect()->rect();
        const double centre = horizontal ? r.center().x() : r.center().y();
        const double half = lf.horizontalAdvance(axis->label()) / 2.0;
        if (centre - half < -kSlack || centre + half > limit + kSlack)
            out << chart_name(plot, QStringLiteral("axis label '%1' needs %2 px, the plot has %3")
                                        .arg(axis->label())
                                        .arg(2 * half, 0, 'f', 0)
                                        .arg(limit, 0, 'f', 0));
    }
}

void check_plot(QCustomPlot* plot, QStringList& out) {
    plot->replot(QCustomPlot::rpImmediateRefresh);  // lay it out at its present size
    const QRect view = plot->viewport().adjusted(-kSlack, -kSlack, kSlack, kSlack);
    const QList<QCPLayoutElement*> elements = plot->plotLayout()->elements(true);
    QList<QCPAxisRect*> data = plot->axisRects();
    for (QCPLayoutElement* e : elements) {
        if (!e || !e->visible()) continue;
        if (!view.contains(e->outerRect()))
            out << chart_name(plot, QStringLiteral("%1 runs out of the plot").arg(QString::fromLatin1(e->metaObject()->className())));
        if (auto* text = qobject_cast<QCPTextElement*>(e)) {
            const QFontMetrics fm(text->font());
            const int need = fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, text->text()).width();  // lines as written
            if (need > e->outerRect().width() + kSlack)
                out << chart_name(plot, QStringLiteral("title '%1' needs %2 px, has %3").arg(text->text()).arg(need).arg(e->outerRect().width()));
        }
        if (auto* scale = qobject_cast<QCPColorScale*>(e)) check_ticks(plot, scale->axis(), out);
    }
    if (plot->legend && plot->legend->visible() && plot->legend->itemCount() > 0) {
        const QRect legend = plot->legend->outerRect();
        for (QCPAxisRect* r : data)
            if (legend.intersects(r->rect()))
                out << chart_name(plot, QStringLiteral("the legend lies over the data"));
        const QSize need = plot->legend->minimumOuterSizeHint();
        if (need.width() > legend.width() + kSlack || need.height() > legend.height() + kSlack)
            out << chart_name(plot, QStringLiteral("the legend needs %1x%2, has %3x%4")
                                        .arg(need.width()).arg(need.height()).arg(legend.width()).arg(legend.height()));
    }
    for (QCPAxisRect* r : data)
        for (QCPAxis* axis : r->axes()) check_ticks(plot, axis, out);
    QVector<QPair<QRectF, QString>> texts;
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* item = qobject_cast<QCPItemText*>(plot->item(i));
        if (!item || !item->visible() || item->text().isEmpty()) continue;
        const QRectF r = item_text_rect(item);
        const QRectF clip = item->clipToAxisRect() && item->clipAxisRect() ? QRectF(item->clipAxisRect()->rect()) : QRectF(plot->viewport());
        if (!clip.adjusted(-kSlack, -kSlack, kSlack, kSlack).contains(r))
            out << chart_name(plot, QStringLiteral("value label '%1' is cut off").arg(item->text()));
        for (const auto& [other, text] : texts)
            if (other.adjusted(kSlack, kSlack, -kSlack, -kSlack).intersects(r)) {
                out << chart_name(plot, QStringLiteral("value labels '%1' and '%2' overlap").arg(text, item->text()));
                break;
            }
        texts.push_back({r, item->text()});
    }
}

void walk(QWidget* w, QStringList& out) {
    if (!w->isVisible() || w->width() <= 0 || w->height() <= 0) return;
    if (qobject_cast<QAbstractItemView*>(w)) return;  // cells elide by themselves; no child texts
    if (qobject_cast<QDockWidget*>(w) && w->visibleRegion().isEmpty()) return;  // a tab behind another
    if (!w->isWindow() && !inside_item_view(w)) {
        if (auto* l = qobject_cast<QLabel*>(w)) check_label(l, out), check_bounds(w, out);
        else if (auto* b = qobject_cast<QAbstractButton*>(w)) {
            if (!qobject_cast<QTabBar*>(w->parentWidget())) check_button(b, out), check_bounds(w, out);  // tab scrollers
        } else if (auto* c = qobject_cast<QComboBox*>(w)) check_combo(c, out), check_bounds(w, out);
        else if (auto* s = qobject_cast<QAbstractSpinBox*>(w)) check_spin(s, out), check_bounds(w, out);
        else if (auto* t = qobject_cast<QTabBar*>(w)) check_tabs(t, out);
        else if (auto* g = qobject_cast<QGroupBox*>(w)) {
            if (g->fontMetrics().horizontalAdvance(g->title()) > g->width())
                out << QStringLiteral("%1: title cut off").arg(describe(g, g->title()));
        } else if (auto* bar = qobject_cast<QStatusBar*>(w)) check_status(bar, out);
        else if (auto* p = qobject_cast<QCustomPlot*>(w)) check_plot(p, out), check_bounds(w, out);
        if (auto* s = qobject_cast<QScrollArea*>(w)) check_scroll_area(s, out);
    }
    for (QObject* o : w->children())
        if (auto* c = qobject_cast<QWidget*>(o)) walk(c, out);
}

}  // namespace

QStringList clipped_texts(QWidget* root) {
    QStringList out;
    walk(root, out);
    out.removeDuplicates();
    return out;
}

}  // namespace lmscope::testing
