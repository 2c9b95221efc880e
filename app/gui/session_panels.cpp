#include "gui/session_panels.h"

#include "gui/layer_view.h"
#include "gui/sampling_panel.h"
#include "gui/step_controls.h"
#include "widgets/attention_grid.h"
#include "widgets/attention_heatmap.h"
#include "widgets/kv_chart.h"
#include "widgets/logits_view.h"
#include "widgets/timeline.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace lmscope::gui {

SessionPanels::SessionPanels(QMainWindow* window, widgets::TraceModel* model, StepControls* controls,
                             const QStringList& backends)
    : QObject(window),
      model_(model),
      strip_(new widgets::TokenStrip(model)),
      heatmap_(new widgets::AttentionHeatmap(model)),
      grid_(new widgets::AttentionGrid(model)),
      layer_(new LayerView(model)),
      kv_(new widgets::KvChart(model)),
      logits_(new widgets::LogitsView(model)),
      timeline_(new widgets::Timeline(model)),
      sampling_(new SamplingPanel(backends)) {
    // The strip takes the keyboard focus when clicked (and at start, see MainWindow::showEvent),
    // so Space steps instead of typing into the prompt box.
    strip_->setFocusPolicy(Qt::StrongFocus);

    auto* top = new QWidget;  // the prompt and the buttons above the token strip
    auto* layout = new QVBoxLayout(top);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(controls);
    // The chips scroll on their own (a long prompt has thousands), the prompt and the buttons
    // stay; the newest token is kept in view.
    auto* chips = new QScrollArea;
    chips->setObjectName(QStringLiteral("chipScroll"));
    chips->setWidget(strip_);
    chips->setWidgetResizable(true);
    chips->setFrameShape(QFrame::NoFrame);
    chips->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    chips->setMinimumHeight(strip_->minimumSizeHint().height());
    layout->addWidget(chips, 1);
    auto follow = [this, chips] {
        QTimer::singleShot(0, chips, [this, chips] {
            const QRect last = strip_->chipRect(strip_->chipCount() - 1);
            if (!last.isEmpty()) chips->ensureVisible(last.center().x(), last.center().y(), 0, last.height());
        });
    };
    connect(model_, &widgets::TraceModel::currentStepChanged, chips, follow);
    // A resize lays the lines out again: the newest chip stays in view.
    connect(chips->verticalScrollBar(), &QScrollBar::rangeChanged, chips, follow);

    // Each panel scrolls when its dock is smaller than the panel's minimum, so the window
    // itself can be small (a laptop beside a projector).
    auto add = [&](QWidget* w, Panel panel, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(window);
        d->setObjectName(panel_object_name(panel));  // the name saveState() keys on
        auto* scroll = new QScrollArea;
        scroll->setWidget(w);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        d->setWidget(scroll);
        window->addDockWidget(area, d);
        docks_.insert(panel, d);
        panel_widgets_.insert(panel, w);
    };
    // Where each dock sits and how large it is: DockLayout (the window arranges them).
    add(top, Panel::Tokens, Qt::TopDockWidgetArea);
    add(heatmap_, Panel::Attention, Qt::RightDockWidgetArea);
    add(grid_, Panel::AttentionGrid, Qt::RightDockWidgetArea);
    add(layer_, Panel::Layer, Qt::RightDockWidgetArea);
    add(logits_, Panel::Logits, Qt::BottomDockWidgetArea);
    add(kv_, Panel::KvCache, Qt::BottomDockWidgetArea);
    add(timeline_, Panel::Timeline, Qt::TopDockWidgetArea);
    add(sampling_, Panel::Sampling, Qt::LeftDockWidgetArea);
    connect(grid_, &widgets::AttentionGrid::headActivated, dock(Panel::Attention), &QDockWidget::raise);
}

void SessionPanels::setLive(bool live) {
    grid_->setSwitchingEnabled(live);
    heatmap_->setSwitchingEnabled(live);
    logits_->setRecomputeEnabled(live);
}

void SessionPanels::focusTokens() { strip_->setFocus(); }

QCustomPlot* SessionPanels::chartPlot(Chart chart) const {
    switch (chart) {
    case Chart::Heatmap: return heatmap_->plot();
    case Chart::KvCache: return kv_->plot();
    case Chart::Logits: return logits_->plot();
    }
    return nullptr;
}

widgets::ChartTable SessionPanels::chartTable(Chart chart) const {
    switch (chart) {
    case Chart::Heatmap: return heatmap_->table();
    case Chart::KvCache: return kv_->table();
    case Chart::Logits: return logits_->table();
    }
    return {};
}

void SessionPanels::retranslate() {
    for (auto it = docks_.cbegin(); it != docks_.cend(); ++it) it.value()->setWindowTitle(panel_help(it.key()).title);
    sampling_->retranslate();
}

}  // namespace lmscope::gui
