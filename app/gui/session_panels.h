// The step-through session's panels, each in a dock of the window: the Tokens panel (the loop's
// controls above the token strip, whose chips scroll to the newest), the attention heatmap and
// grid, the Layer view, the logits, the KV cache, the Timeline and the Sampling settings; and
// the chart the user last worked with (what File > Export writes).
#pragma once

#include "gui/panel_help.h"
#include "widgets/export.h"

#include <QList>
#include <QMap>
#include <QObject>
#include <QStringList>

class QCustomPlot;
class QDockWidget;
class QMainWindow;

namespace lmscope::widgets {
class AttentionGrid;
class AttentionHeatmap;
class KvChart;
class LogitsView;
class Timeline;
class TokenStrip;
class TraceModel;
}  // namespace lmscope::widgets

namespace lmscope::gui {

class LayerView;
class SamplingPanel;
class StepControls;

class SessionPanels : public QObject {
    Q_OBJECT
public:
    // The charts that keep a table of numbers (File > Export's CSV and JSON).
    enum class Chart { Heatmap, KvCache, Logits };
    static constexpr Chart kCharts[] = {Chart::Heatmap, Chart::KvCache, Chart::Logits};

    // The panels on `model`, docked in `window` (DockLayout arranges them); `controls` go above
    // the token strip; `backends` are the Sampling panel's choices.
    SessionPanels(QMainWindow* window, widgets::TraceModel* model, StepControls* controls, const QStringList& backends);

    // The dock of `panel`; null for a panel that is not one of the session's docks.
    QDockWidget* dock(Panel panel) const { return docks_.value(panel); }
    // The panels docked, in the order of their docks.
    QList<Panel> panels() const { return docks_.keys(); }
    // The panel itself, inside its dock (what stage mode lends); null as dock() is.
    QWidget* panelWidget(Panel panel) const { return panel_widgets_.value(panel); }

    widgets::AttentionHeatmap* heatmap() const { return heatmap_; }
    widgets::AttentionGrid* grid() const { return grid_; }
    LayerView* layer() const { return layer_; }
    widgets::LogitsView* logits() const { return logits_; }
    widgets::Timeline* timeline() const { return timeline_; }
    SamplingPanel* sampling() const { return sampling_; }

    // Switching heads off and recomputing a step: a live session's, not a replay's (a replay
    // shows what its steps ran with).
    void setLive(bool live);
    // The token strip takes the keyboard focus, so Space steps.
    void focusTokens();

    // A chart's plot and its numbers.
    QCustomPlot* chartPlot(Chart chart) const;
    widgets::ChartTable chartTable(Chart chart) const;

    void retranslate();

private:
    widgets::TraceModel* model_;
    widgets::TokenStrip* strip_;
    widgets::AttentionHeatmap* heatmap_;
    widgets::AttentionGrid* grid_;
    LayerView* layer_;
    widgets::KvChart* kv_;
    widgets::LogitsView* logits_;
    widgets::Timeline* timeline_;
    SamplingPanel* sampling_;
    QMap<Panel, QDockWidget*> docks_;
    QMap<Panel, QWidget*> panel_widgets_;  // the widget each dock scrolls
};

}  // namespace lmscope::gui
