// The Layer view: the inside of one layer for the token, layer and head the panels share (the
// TraceModel's selection), at the shown step. Tabs, in the order a teacher explains a layer:
//   Q, K, V       the token's residual vector, after the norm, its q, k and v (k and v of every
//                 earlier token on demand)
//   Scores        q . k_j for every key, x the scale, the mask, softmax (one stage at a time)
//   Mix           z = the weighted sum of the values (the largest terms), each head's share
//   RoPE          pairs of q and k rotated, the layer's frequencies, score against offset
//   FFN           the largest activations, their histogram, the residual add
//   Stream        how much each layer's attention and FFN write into the residual stream
// Every number comes from the model: a LayerProbe (core/engine/layer_probe.h) on a backend of
// its own, on the session's engine, runs the shown path teacher-forced, each position with the heads its step ran
// without, incrementally (a new step costs one more row), on a JobRunner job; the figures are
// made on that job too (layer_figures.h). While a newer selection computes, the tabs are greyed
// and say so: they never show one selection under another's title. While the engine steps or
// plays, the view waits (greyed, saying so) and computes once the engine is idle, so it never
// slows the steps down. A replay has no model: the view says so.
#pragma once

#include "gui/engine_setup.h"
#include "gui/job_runner.h"
#include "gui/layer_figures.h"
#include "util/types.h"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QPushButton;
class QLabel;
class QStackedWidget;
class QTabWidget;

namespace lmscope::widgets {
class FfnChart;
class LabelledBars;
class ResidualStreamChart;
class RopeView;
class ScoreStagesChart;
class TraceModel;
class VectorStrips;
}  // namespace lmscope::widgets

namespace lmscope::gui {

class LayerView : public QWidget {
    Q_OBJECT
public:
    enum class Tab { Vectors, Scores, Mix, Rope, Ffn, Stream };

    explicit LayerView(widgets::TraceModel* trace, QWidget* parent = nullptr);
    ~LayerView() override;

    // The model the session runs and the engine it runs on (null: none, as in a replay).
    void setModel(const LabModelPtr& model, const EngineOptions& engine);

    // The step-through engine is stepping or playing: the view waits, greyed and saying so (its
    // probe would share the cores with the steps and slow them), and computes once it is idle.
    void setEngineBusy(bool busy);

    // The figures on screen, when they are those of the current selection (null otherwise:
    // nothing to show, no model, or a newer selection still computing).
    const LayerFigures* figures() const;
    bool computing() const { return runner_.busy() || pending_.isActive(); }
    QString statusText() const;
    void setTab(Tab tab);
    Tab tab() const;

signals:
    // The Stream tab's link: the text up to and including the selected token, for the logit
    // lens lab (which reads the same stream layer by layer).
    void logitLensRequested(const QString& text);

protected:
    void showEvent(QShowEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    struct ProbeState;  // the probe's backend and rows, guarded for the jobs

    void buildTabs();
    void retranslate();
    void schedule();  // the selection or the steps changed: recompute soon (coalesced)
    void start();
    std::optional<LayerRequest> request() const;
    void present(LayerFigures figures);
    void showMessage(const QString& text);

    widgets::TraceModel* trace_;
    LabModelPtr model_;
    EngineOptions engine_;
    bool engine_busy_ = false;
    std::shared_ptr<ProbeState> state_;
    JobRunner runner_;
    QTimer pending_;  // coalesces changes that come together (a step moves the query and the step)
    std::optional<LayerFigures> shown_;
    QString message_;  // what the status line says when nothing is shown

    QLabel* status_ = nullptr;
    QStackedWidget* stack_ = nullptr;  // the tabs, or a message
    QLabel* message_label_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    widgets::VectorStrips* vectors_ = nullptr;
    QCheckBox* show_keys_ = nullptr;
    widgets::VectorStrips* keys_ = nullptr;
    widgets::ScoreStagesChart* scores_ = nullptr;
    widgets::VectorStrips* mix_ = nullptr;
    widgets::LabelledBars* shares_ = nullptr;
    widgets::RopeView* rope_ = nullptr;
    widgets::FfnChart* ffn_ = nullptr;
    widgets::VectorStrips* ffn_strips_ = nullptr;
    widgets::ResidualStreamChart* stream_ = nullptr;
    QPushButton* lens_ = nullptr;
};

}  // namespace lmscope::gui
