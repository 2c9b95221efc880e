// What every chart of the app shares: fonts derived from one base font (the panel's), so a chart
// follows the app's font changes (stage mode enlarges everything): titles 1.3x bold, axis
// labels 1.2x, tick labels 1.15x, legend and item texts 1x; the title row above the axes and the
// legend in its own row below them; and PlotPanel, a widget around one QCustomPlot that keeps
// those fonts and its texts current.
#pragma once

#include <QWidget>

class QCPAxis;
class QCPColorMap;
class QCPTextElement;
class QCustomPlot;
class QFont;

namespace lmscope::widgets {

void apply_plot_fonts(QCustomPlot* plot, const QFont& base);

// A title in a new first row of the plot's layout (row 0 above the axes).
QCPTextElement* add_plot_title(QCustomPlot* plot);

// A chart title that never runs past its column: set_fitted_title keeps the whole text, and
// fit_titles (PlotPanel runs it before every replot) breaks each title so kept into as many lines
// as its column's width needs, between words (anywhere a line may break, in Chinese), so a long
// title in a narrow chart loses nothing. fitted_title reads the whole text back.
void set_fitted_title(QCPTextElement* title, const QString& text);
QString fitted_title(const QCPTextElement* title);
void fit_titles(QCustomPlot* plot);

// The legend in row `row` of the plot's layout (under the axes): never over the data, no taller
// than its entries.
void put_legend_below(QCustomPlot* plot, int row);

// The legend's entries in rows of as many columns as the plot's width holds, `most` at most
// (entries fill a row left to right, then the next): a narrow chart stacks them rather than
// cutting them. Call it when the entries, the fonts or the width change.
void fit_legend_columns(QCustomPlot* plot, int most);

// Ticks at whole numbers only (layers, positions, steps): a step of 1 or a whole multiple of it.
void use_whole_ticks(QCPAxis* axis);

// The colours of a heatmap's cells, NaN cells transparent (the background shows through):
// Weight, white to dark blue over [0, 1] (attention weights, colors::weight_ramp()); Diverging,
// blue through white to red (differences around 0).
enum class ColorRamp { Weight, Diverging };
void set_color_ramp(QCPColorMap* map, ColorRamp ramp);

// A widget that is one chart: the plot fills it, its fonts follow the widget's font, and
// retranslate() runs when the language changes.
class PlotPanel : public QWidget {
    Q_OBJECT
public:
    // The chart itself: tests click on it, the app exports it.
    QCustomPlot* plot() const { return plot_; }

protected:
    // `margin`: the space around the plot, in pixels.
    PlotPanel(QWidget* parent, int margin);
    void changeEvent(QEvent* e) override;
    // The plot's fonts from the widget's; a chart with its own font rules adds them here.
    virtual void applyFonts();
    virtual void retranslate() {}

private:
    QCustomPlot* plot_;
};

}  // namespace lmscope::widgets
