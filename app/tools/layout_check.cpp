#include "tools/layout_check.h"

#include "widgets/kv_chart.h"
#include "widgets/timeline.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"
#include "util/error.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QStyleOptionComboBox>
#include <QTableView>
#include <QTreeView>
#include <QTabBar>
#include <QTransform>
#include <QRegularExpression>
#include <QXmlStreamReader>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lmscope::tools {
namespace {

constexpr int kSlack = 1;  // pixels of rounding allowed everywhere
constexpr int kTextSlack = 2;  // a chart's texts: each side, as the font's empty edges

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
        else if (bar->fontMetrics().horizontalAdvance(text) + 8 > t.width() && bar->tabToolTip(i).isEmpty())
            out << QStringLiteral("%1: tab text elided (%2 px in a %3 px tab), no tooltip")
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


// A header section or a cell whose text the view elides must say it in full as a tooltip.
bool has_tip(const QVariant& tip) { return tip.isValid() && !tip.toString().isEmpty(); }

void check_header(const QHeaderView* h, QStringList& out) {
    const QAbstractItemModel* m = h->model();
    if (!h->isVisible() || !m) return;
    const int margin = 2 * h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h) + 2;
    const int n = h->orientation() == Qt::Horizontal ? m->columnCount(h->rootIndex()) : m->rowCount(h->rootIndex());
    for (int i = 0; i < n; ++i) {
        if (h->isSectionHidden(i) || h->sectionViewportPosition(i) >= h->viewport()->width()) continue;
        const QString text = m->headerData(i, h->orientation()).toString();
        if (text.isEmpty() || has_tip(m->headerData(i, h->orientation(), Qt::ToolTipRole))) continue;
        const QFontMetrics fm(h->font());
        const QRect need = fm.boundingRect(QRect(0, 0, 10000, 10000), Qt::AlignLeft, text);
        const int room_w = h->orientation() == Qt::Horizontal ? h->sectionSize(i) : h->width();
        const int room_h = h->orientation() == Qt::Horizontal ? h->height() : h->sectionSize(i);
        if (need.width() + margin > room_w + kSlack || need.height() > room_h + kSlack) {
            out << QStringLiteral("%1: header '%2' needs %3x%4 px, has %5x%6, no tooltip")
                       .arg(describe(h), text.left(40))
                       .arg(need.width() + margin).arg(need.height()).arg(room_w).arg(room_h);
            return;
        }
    }
}

void check_cells(const QAbstractItemView* v, QStringList& out) {
    const QAbstractItemModel* m = v->model();
    if (!m) return;
    if (auto* table = qobject_cast<const QTableView*>(v)) {
        if (table->horizontalHeader()->isVisible()) check_header(table->horizontalHeader(), out);
        if (table->verticalHeader()->isVisible()) check_header(table->verticalHeader(), out);
        if (table->wordWrap() && table->verticalHeader()->sectionResizeMode(0) == QHeaderView::ResizeToContents) return;
    } else if (auto* tree = qobject_cast<const QTreeView*>(v)) {
        if (!tree->isHeaderHidden()) check_header(tree->header(), out);
    }
    const QRect viewport = v->viewport()->rect();
    const int margin = 2 * (v->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, v) + 1);
    const int rows = std::min(m->rowCount(v->rootIndex()), 400);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < m->columnCount(v->rootIndex()); ++c) {
            const QModelIndex i = m->index(r, c, v->rootIndex());
            const QRect cell = v->visualRect(i);
            if (cell.isEmpty() || !viewport.intersects(cell)) continue;
            const QString text = i.data().toString();
            if (text.isEmpty() || has_tip(i.data(Qt::ToolTipRole))) continue;
            QFont font = v->font();
            if (const QVariant f = i.data(Qt::FontRole); f.isValid()) font = f.value<QFont>();
            const int icon = i.data(Qt::DecorationRole).isValid() ? v->iconSize().width() + 4 : 0;
            const int need = QFontMetrics(font).horizontalAdvance(text.section(QLatin1Char('\n'), 0, 0)) + margin + icon;
            if (need > cell.width() + kSlack) {
                out << QStringLiteral("%1: cell %2,%3 '%4' elided (%5 px in %6), no tooltip")
                           .arg(describe(v)).arg(r).arg(c).arg(text.left(40)).arg(need).arg(cell.width());
                return;  // one per view
            }
        }
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


// The outline of each of an axis's tick labels, placed as QCPAxisPainterPrivate draws them:
// the text's rectangle moved by the painter's offset for the axis side, then turned about it.
struct TickText {
    QPolygonF outline;
    QString text;
};

QVector<TickText> tick_label_outlines(QCPAxis* axis) {
    QVector<TickText> out;
    if (!axis->visible() || !axis->tickLabels()) return out;
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const QFontMetrics fm(axis->tickLabelFont());
    const double degrees = axis->tickLabelRotation();
    const double rad = qDegreesToRadians(degrees);
    const bool turned = !qFuzzyIsNull(degrees);
    const QRect r = axis->axisRect()->rect();
    const double gap = axis->offset() + std::max(0, axis->tickLengthOut()) + axis->tickLabelPadding();
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis->range().contains(ticks[i]) || labels[i].isEmpty()) continue;
        const QRect bounds = fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip, labels[i]);
        const double w = bounds.width(), h = bounds.height();
        const double at = axis->coordToPixel(ticks[i]);
        QPointF anchor, offset;
        const double c = std::cos(std::abs(rad)), sn = std::sin(std::abs(rad));
        switch (axis->axisType()) {
        case QCPAxis::atBottom:
            anchor = {at, r.bottom() + gap};
            offset = !turned ? QPointF(-w / 2, 0) : degrees > 0 ? QPointF(sn * h / 2, 0) : QPointF(-c * w - sn * h / 2, sn * w);
            break;
        case QCPAxis::atTop:
            anchor = {at, r.top() - gap};
            offset = !turned ? QPointF(-w / 2, -h) : degrees > 0 ? QPointF(-c * w + sn * h / 2, -sn * w - c * h) : QPointF(-sn * h / 2, -c * h);
            break;
        case QCPAxis::atLeft:
            anchor = {r.left() - gap, at};
            offset = !turned ? QPointF(-w, -h / 2) : degrees > 0 ? QPointF(-c * w, -sn * w - c * h / 2) : QPointF(-c * w - sn * h, sn * w - c * h / 2);
            break;
        case QCPAxis::atRight:
            anchor = {r.right() + gap, at};
            offset = !turned ? QPointF(0, -h / 2) : degrees > 0 ? QPointF(sn * h, -c * h / 2) : QPointF(0, -c * h / 2);
            break;
        }
        QTransform t;
        t.translate(anchor.x() + offset.x(), anchor.y() + offset.y());
        t.rotate(degrees);
        out.push_back({t.map(QPolygonF(QRectF(0, 0, w, h).adjusted(kTextSlack, kTextSlack, -kTextSlack, -kTextSlack))), labels[i]});
    }
    return out;
}

// Where an axis label lies: beyond the tick labels, centred on the axis (rotated on the sides).
QRectF axis_label_rect(QCPAxis* axis, const QVector<TickText>& ticks) {
    if (!axis->visible() || axis->label().isEmpty()) return {};
    const QFontMetrics fm(axis->labelFont());
    const QRect text = fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, axis->label());
    const QRect r = axis->axisRect()->rect();
    double depth = axis->offset() + std::max(0, axis->tickLengthOut()) + axis->labelPadding();
    for (const TickText& tick : ticks) {
        const QRectF box = tick.outline.boundingRect();
        depth = std::max(depth, axis->orientation() == Qt::Horizontal
                                    ? (axis->axisType() == QCPAxis::atBottom ? box.bottom() - r.bottom() : r.top() - box.top()) + axis->labelPadding()
                                    : (axis->axisType() == QCPAxis::atLeft ? r.left() - box.left() : box.right() - r.right()) + axis->labelPadding());
    }
    const double w = text.width(), h = text.height();
    switch (axis->axisType()) {
    case QCPAxis::atBottom: return QRectF(r.center().x() - w / 2, r.bottom() + depth, w, h);
    case QCPAxis::atTop: return QRectF(r.center().x() - w / 2, r.top() - depth - h, w, h);
    case QCPAxis::atLeft: return QRectF(r.left() - depth - h, r.center().y() - w / 2, h, w);
    case QCPAxis::atRight: return QRectF(r.right() + depth, r.center().y() - w / 2, h, w);
    }
    return {};
}

// Every text the chart draws, each with the group it belongs to: texts of different groups must
// not overlap (tick labels of one axis are checked against each other by check_ticks).
void check_chart_overlaps(QCustomPlot* plot, QStringList& out) {
    struct Text {
        QPolygonF outline;
        QString text;
        int group;
    };
    QVector<Text> texts;
    int group = 0;
    // Level texts shrunk by the slack, so touching is not overlapping.
    auto box = [](const QRectF& r) { return QPolygonF(r.adjusted(kTextSlack, kTextSlack, -kTextSlack, -kTextSlack)); };
    auto add_axis = [&](QCPAxis* axis) {
        const QVector<TickText> ticks = tick_label_outlines(axis);
        for (const TickText& t : ticks) texts.push_back({t.outline, t.text, group});
        ++group;
        if (const QRectF label = axis_label_rect(axis, ticks); !label.isEmpty()) texts.push_back({box(label), axis->label(), group++});
    };
    for (QCPAxisRect* r : plot->axisRects())
        for (QCPAxis* axis : r->axes()) add_axis(axis);
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (!e || !e->visible()) continue;
        if (auto* title = qobject_cast<QCPTextElement*>(e)) {
            const QFontMetrics fm(title->font());
            const QRect text = fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, title->text());
            const QRect o = e->rect();
            texts.push_back({box(QRectF(o.center().x() - text.width() / 2.0, o.center().y() - text.height() / 2.0, text.width(), text.height())),
                             title->text(), group++});
        } else if (auto* scale = qobject_cast<QCPColorScale*>(e)) {
            add_axis(scale->axis());
        }
    }
    if (plot->legend && plot->legend->visible() && plot->legend->itemCount() > 0)
        texts.push_back({box(QRectF(plot->legend->outerRect())), QStringLiteral("(the legend)"), group++});
    const qsizetype first_item = texts.size();
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPItemText*>(plot->item(i)); item && item->visible() && !item->text().isEmpty())
            texts.push_back({box(item_text_rect(item)), item->text(), group++});
    for (qsizetype i = 0; i < texts.size(); ++i)
        for (qsizetype j = i + 1; j < texts.size(); ++j) {
            if (texts[i].group == texts[j].group) continue;
            if (i >= first_item) continue;  // value labels against each other: check_plot
            if (texts[i].outline.intersects(texts[j].outline)) {
                auto where = [](const QPolygonF& p) {
                    const QRectF r = p.boundingRect();
                    return QStringLiteral("%1,%2 %3x%4").arg(r.x(), 0, 'f', 0).arg(r.y(), 0, 'f', 0).arg(r.width(), 0, 'f', 0).arg(r.height(), 0, 'f', 0);
                };
                out << chart_name(plot, QStringLiteral("texts '%1' (%2) and '%3' (%4) overlap")
                                            .arg(texts[i].text.left(40), where(texts[i].outline), texts[j].text.left(40), where(texts[j].outline)));
                return;  // one per chart
            }
        }
}

// The smallest data area a class can read: every axis rect at least this large.
constexpr QSize kMinDataArea(160, 100);
constexpr QSize kMinStripArea(160, 40);

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
    // The largest axis rect is the chart; the others are strips beside it (a row's bars under a
    // heatmap), which may be lower.
    const QCPAxisRect* main = nullptr;
    for (QCPAxisRect* r : data)
        if (r->visible() && (!main || r->width() * r->height() > main->width() * main->height())) main = r;
    for (QCPAxisRect* r : data) {
        for (QCPAxis* axis : r->axes()) check_ticks(plot, axis, out);
        const QSize least = r == main ? kMinDataArea : kMinStripArea;
        if (r->visible() && (r->width() < least.width() || r->height() < least.height()))
            out << chart_name(plot, QStringLiteral("data area %1x%2 px, smaller than %3x%4")
                                        .arg(r->width()).arg(r->height()).arg(least.width()).arg(least.height()));
    }
    check_chart_overlaps(plot, out);
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
    if (auto* v = qobject_cast<QAbstractItemView*>(w)) {  // its cells and headers; no child texts
        if (!inside_item_view(w)) check_cells(v, out), check_bounds(w, out);
        return;
    }
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


// --- the newest token ---------------------------------------------------------------------

QStringList hidden_newest_token(QWidget* root) {
    QStringList out;
    for (const widgets::TokenStrip* strip : root->findChildren<widgets::TokenStrip*>()) {
        // Hidden, or its dock behind another's tab: nothing of it is shown to be out of view.
        if (!strip->isVisible() || strip->chipCount() == 0 || strip->visibleRegion().isEmpty()) continue;
        const QRect last = strip->chipRect(strip->chipCount() - 1);
        if (!strip->visibleRegion().contains(last))
            out << QStringLiteral("%1: the newest token's chip (position %2 of %3, at y %4) is out of view (shown: y %5..%6)")
                       .arg(describe(strip))
                       .arg(strip->chipCount() - 1).arg(strip->chipCount())
                       .arg(last.y())
                       .arg(strip->visibleRegion().boundingRect().top())
                       .arg(strip->visibleRegion().boundingRect().bottom());
    }
    return out;
}

// --- the session's step -------------------------------------------------------------------

QStringList stale_steps(QWidget* root, const widgets::TraceModel& session) {
    QStringList out;
    const qint32 tokens = session.sequenceLength();
    const qint32 points = qint32(session.path().size());
    for (const widgets::TokenStrip* strip : root->findChildren<widgets::TokenStrip*>())
        if (strip->isVisible() && strip->chipCount() != tokens)
            out << QStringLiteral("%1: shows %2 tokens, the session has %3").arg(describe(strip)).arg(strip->chipCount()).arg(tokens);
    for (const widgets::KvChart* kv : root->findChildren<widgets::KvChart*>()) {
        const widgets::KvChart::ViewState v = kv->viewState();
        if (kv->isVisible() && v.tokens.size() != points)
            out << QStringLiteral("%1: draws %2 steps, the session is at step %3 of its path").arg(describe(kv)).arg(v.tokens.size()).arg(points);
    }
    for (const widgets::Timeline* timeline : root->findChildren<widgets::Timeline*>())
        if (timeline->isVisible() && session.currentStep() >= 0 && timeline->stepRect(session.currentStep()).isEmpty())
            out << QStringLiteral("%1: does not show the current step %2").arg(describe(timeline)).arg(session.currentStep());
    return out;
}

// --- the interface's language -------------------------------------------------------------

TranslationCatalogue TranslationCatalogue::read(const QString& ts_path) {
    QFile file(ts_path);
    if (!file.open(QIODevice::ReadOnly)) throw IoError(ts_path.toStdString() + ": cannot read the translations");
    TranslationCatalogue c;
    QXmlStreamReader xml(&file);
    QString source, translation;
    bool numerus = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("message")) {
            source.clear(), translation.clear();
            numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        } else if (xml.isStartElement() && xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.isStartElement() && xml.name() == QLatin1String("translation") && !numerus) {
            translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            if (numerus || translation.isEmpty() || translation == source) continue;
            // A text with arguments matches whatever they were filled with; it needs some words of
            // its own (four letters) not to match everything.
            static const QRegularExpression arg(QStringLiteral("%L?\\d"));
            QString letters = source;
            letters.remove(arg);
            if (letters.count(QRegularExpression(QStringLiteral("[A-Za-z]"))) < 4) continue;
            if (!source.contains(arg)) {
                c.exact_.insert(source);
                continue;
            }
            QString pattern;
            const QStringList parts = source.split(arg);
            for (qsizetype i = 0; i < parts.size(); ++i)
                pattern += (i ? QStringLiteral(".*") : QString()) + QRegularExpression::escape(parts[i]);
            c.patterns_.push_back(QRegularExpression(QStringLiteral("\\A(?:%1)\\z").arg(pattern), QRegularExpression::DotMatchesEverythingOption));
        }
    }
    if (xml.hasError())
        throw FormatError(ts_path.toStdString(), "line " + std::to_string(xml.lineNumber()), xml.errorString().toStdString());
    return c;
}

bool TranslationCatalogue::isSource(const QString& text) const {
    if (exact_.contains(text)) return true;
    return std::any_of(patterns_.begin(), patterns_.end(), [&](const QRegularExpression& p) { return p.match(text).hasMatch(); });
}

namespace {

bool has_chinese(const QString& text) {
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        const char16_t u = c.unicode();
        return (u >= 0x4E00 && u <= 0x9FFF) || (u >= 0x3000 && u <= 0x303F) || (u >= 0xFF00 && u <= 0xFFEF);
    });
}

// The interface texts a widget shows: its own, its tab titles, header titles, chart texts.
QStringList interface_texts(QWidget* w) {
    QStringList t;
    if (auto* l = qobject_cast<QLabel*>(w)) t << l->text();
    else if (auto* b = qobject_cast<QAbstractButton*>(w)) t << b->text();
    else if (auto* g = qobject_cast<QGroupBox*>(w)) t << g->title();
    else if (auto* bar = qobject_cast<QTabBar*>(w)) {
        for (int i = 0; i < bar->count(); ++i) t << bar->tabText(i);
    } else if (auto* d = qobject_cast<QDockWidget*>(w)) t << d->windowTitle();
    else if (auto* s = qobject_cast<QStatusBar*>(w)) t << s->currentMessage();
    else if (auto* h = qobject_cast<QHeaderView*>(w); h && h->model()) {
        const int n = h->orientation() == Qt::Horizontal ? h->model()->columnCount() : std::min(h->model()->rowCount(), 50);
        for (int i = 0; i < n; ++i) t << h->model()->headerData(i, h->orientation()).toString();
    } else if (auto* p = qobject_cast<QCustomPlot*>(w)) {
        for (QCPLayoutElement* e : p->plotLayout()->elements(true))
            if (auto* title = qobject_cast<QCPTextElement*>(e); title && title->visible()) t << title->text();
        for (QCPAxisRect* r : p->axisRects())
            for (QCPAxis* axis : r->axes())
                if (axis->visible()) t << axis->label();
        if (p->legend && p->legend->visible())
            for (int i = 0; i < p->legend->itemCount(); ++i)
                if (auto* item = qobject_cast<QCPPlottableLegendItem*>(p->legend->item(i))) t << item->plottable()->name();
    }
    if (w->isWindow()) t << w->windowTitle();
    t.removeAll(QString());
    return t;
}

void walk_language(QWidget* w, const TranslationCatalogue& english, bool chinese, QStringList& out) {
    if (!w->isVisible()) return;
    if (qobject_cast<QDockWidget*>(w) && w->visibleRegion().isEmpty()) return;
    for (const QString& text : interface_texts(w)) {
        const bool stale = chinese ? english.isSource(text) : has_chinese(text);
        if (stale)
            out << QStringLiteral("%1: still in %2").arg(describe(w, text), chinese ? QStringLiteral("English") : QStringLiteral("Chinese"));
    }
    if (qobject_cast<QAbstractItemView*>(w)) {  // its headers only: cells are model data
        for (QHeaderView* h : w->findChildren<QHeaderView*>(Qt::FindDirectChildrenOnly)) walk_language(h, english, chinese, out);
        return;
    }
    for (QObject* o : w->children())
        if (auto* c = qobject_cast<QWidget*>(o)) walk_language(c, english, chinese, out);
}

}  // namespace

QStringList stale_language(QWidget* root, const TranslationCatalogue& english, bool chinese) {
    QStringList out;
    walk_language(root, english, chinese, out);
    out.removeDuplicates();
    return out;
}

}  // namespace lmscope::tools
