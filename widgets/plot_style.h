// Fonts of a QCustomPlot chart derived from one base font (the panel's), so a chart follows the
// app's font changes (presenter mode enlarges everything): titles 1.3x bold, axis labels 1.2x,
// tick labels 1.15x, legend and item texts 1x.
#pragma once

class QCustomPlot;
class QFont;

namespace lmscope::widgets {

void apply_plot_fonts(QCustomPlot* plot, const QFont& base);

}  // namespace lmscope::widgets
