#include "widgets/plot_style.h"

#include "widgets/trace_colors.h"

#include <QEvent>
#include <QTextBoundaryFinder>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace lmscope::widgets {

void set_color_ramp(QCPColorMap* map, ColorRamp ramp) {
    QCPColorGradient g;
    g.clearColorStops();
    switch (ramp) {
    case ColorRamp::Weight:
        for (const auto& [at, color] : colors::weight_ramp()) g.setColorStopAt(at, color);
        break;
    case ColorRamp::Diverging:
        for (const auto& [at, color] : colors::diverging_ramp()) g.setColorStopAt(at, color);
        break;
    }
    g.setNanHandling(QCPColorGradient::nhTransparent);
    map->setGradient(g);
}
namespace {

constexpr int kLegendIconHeight = 18;  // QCustomPlot's own
constexpr char kWholeTitle[] = "wholeTitle";  // the property set_fitted_title keeps the text in
constexpr int kTitleSlack = 4;  // pixels a fitted title's line leaves free, as the font's empty edges

// `text` in lines no wider than `width` where it can break (greedy: as much on each line as fits);
// a word wider than `width` keeps its own line.
QString wrapped(const QString& text, const QFontMetrics& fm, int width) {
    if (fm.horizontalAdvance(text) <= width) return text;
    QStringList lines;
    QTextBoundaryFinder breaks(QTextBoundaryFinder::Line, text);
    qsizetype start = 0, fits = 0;  // the line's first character; the last break it may end at
    for (qsizetype at = breaks.toNextBoundary(); at != -1; at = breaks.toNextBoundary()) {
        if (fits > start && fm.horizontalAdvance(text.mid(start, at - start).trimmed()) > width) {
            lines << text.mid(start, fits - start).trimmed();
            start = fits;
        }
        fits = at;
    }
    lines << text.mid(start).trimmed();
    return lines.join(QLatin1Char('\n'));
}

QFont scaled(const QFont& base, double factor, bool bold = false) {
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * factor);
    f.setBold(bold);
    return f;
}

void style_axis(QCPAxis* axis, const QFont& base) {
    axis->setTickLabelFont(scaled(base, 1.15));
    axis->setLabelFont(scaled(base, 1.2));
}

}  // namespace

void apply_plot_fonts(QCustomPlot* plot, const QFont& base) {
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) style_axis(axis, base);
    QCPLayoutGrid* layout = plot->plotLayout();
    for (int i = 0; i < layout->elementCount(); ++i) {
        QCPLayoutElement* e = layout->elementAt(i);
        if (auto* title = qobject_cast<QCPTextElement*>(e)) title->setFont(scaled(base, 1.3, true));
        if (auto* scale = qobject_cast<QCPColorScale*>(e)) style_axis(scale->axis(), base);
    }
    if (plot->legend) {
        plot->legend->setFont(base);
        // A legend entry is as tall as its icon or its font's line, and clipped there; some fonts
        // (DejaVu Sans) draw '_' below the line, so "q8_0" read "q8 0": the icon makes room for it.
        const QFontMetrics fm(base);
        const int line = std::max(fm.height(), fm.ascent() + fm.tightBoundingRect(QStringLiteral("_")).bottom() + 1);
        plot->legend->setIconSize(plot->legend->iconSize().width(), std::max(kLegendIconHeight, line));
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i))) text->setFont(base);
}

QCPTextElement* add_plot_title(QCustomPlot* plot) {
    plot->plotLayout()->insertRow(0);
    auto* title = new QCPTextElement(plot);
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

void set_fitted_title(QCPTextElement* title, const QString& text) {
    title->setProperty(kWholeTitle, text);
    title->setText(text);
}

QString fitted_title(const QCPTextElement* title) { return title->property(kWholeTitle).toString(); }

void fit_titles(QCustomPlot* plot) {
    QCPLayoutGrid* grid = plot->plotLayout();
    double stretch = 0.0;
    for (int c = 0; c < grid->columnCount(); ++c) stretch += grid->columnStretchFactors().value(c);
    for (int r = 0; r < grid->rowCount(); ++r)
        for (int c = 0; c < grid->columnCount(); ++c) {
            auto* title = grid->hasElement(r, c) ? qobject_cast<QCPTextElement*>(grid->element(r, c)) : nullptr;
            if (!title || !title->property(kWholeTitle).isValid()) continue;
            // The column's width as the grid lays the columns out: its stretch factor's share of
            // the plot's, and no more than the other columns' least widths leave (their titles aside:
            // they break into lines too).
            const double share = stretch > 0.0 ? grid->columnStretchFactors().value(c) / stretch : 1.0;
            int others = 0;
            for (int oc = 0; oc < grid->columnCount(); ++oc) {
                int least = 0;
                for (int orow = 0; oc != c && orow < grid->rowCount(); ++orow)
                    if (QCPLayoutElement* e = grid->hasElement(orow, oc) ? grid->element(orow, oc) : nullptr; e && e->visible() && !qobject_cast<QCPTextElement*>(e))
                        least = std::max({least, e->minimumOuterSizeHint().width(), e->minimumSize().width()});
                others += least;
            }
            const int column = std::min(int(plot->viewport().width() * share), plot->viewport().width() - others);
            const QMargins m = title->margins();
            const int width = column - m.left() - m.right() - kTitleSlack;
            title->setText(wrapped(fitted_title(title), QFontMetrics(title->font()), width));
        }
}

void use_whole_ticks(QCPAxis* axis) {
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // 1, 2, 3, ... as the room asks
    axis->setTicker(ticker);
}

void put_legend_below(QCustomPlot* plot, int row) {
    plot->legend->setVisible(true);
    plot->plotLayout()->addElement(row, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
}

void fit_legend_columns(QCustomPlot* plot, int most) {
    QCPLegend* legend = plot->legend;
    for (int columns = std::max(1, most);; --columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // rearranges the entries
        if (columns == 1 || legend->minimumOuterSizeHint().width() <= plot->width()) break;
    }
}

PlotPanel::PlotPanel(QWidget* parent, int margin) : QWidget(parent), plot_(new QCustomPlot(this)) {
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] { fit_titles(plot_); });  // the width or the fonts changed
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(margin, margin, margin, margin);
    layout->addWidget(plot_);
}

void PlotPanel::applyFonts() { apply_plot_fonts(plot_, font()); }

void PlotPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        applyFonts();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    } else if (e->type() == QEvent::LanguageChange) {
        retranslate();
    }
}

}  // namespace lmscope::widgets
