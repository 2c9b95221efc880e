// Which chart File > Export writes: the one the user works with, as the window shows it now.
//   1. the chart last clicked or focused, when it is still shown;
//   2. else the largest chart shown in the dock last clicked (a tab picked in the Layer view:
//      that tab's chart);
//   3. else the largest chart the window shows.
// "Shown" means on screen: a dock behind another's tab and a Layer view tab not picked show
// nothing. The chart is named as the window shows it: the dock's title, the tab's and the chart's
// own title ("Layer › RoPE › RoPE frequencies, base 10000"), for the dialog and the status bar.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QCustomPlot;
class QWidget;

namespace lmscope::gui {

struct ShownChart {
    QCustomPlot* plot = nullptr;  // null: no chart is shown
    QString name;                 // "Layer › RoPE › RoPE frequencies, base 10000"
    QString file_stem;            // the name as a file name: "layer-rope-rope-frequencies-base-10000"
};

class ChartFocus : public QObject {
    Q_OBJECT
public:
    // Watches the application's mouse presses and focus changes in `window` (owned by it).
    explicit ChartFocus(QWidget* window);

    ShownChart shown() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* window_;
    QPointer<QWidget> last_;  // the widget of the window clicked or focused last
};

}  // namespace lmscope::gui
