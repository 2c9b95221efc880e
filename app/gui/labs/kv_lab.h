// The KV cache lab: what the cache costs and what shrinking it does. The formula panel (left)
// picks a shape (a preset, the loaded model by default, or any numbers); the pages on the right
// show it as a chart against the context with a memory budget and the live run's measured
// curve, run the f16 / q8_0 / q4_0 experiment on the loaded model, and plan an offload.
#pragma once

#include "gui/labs/lab.h"

class QTabWidget;

namespace lmscope::gui::labs {

class KvCostChart;
class KvExperimentPanel;
class KvFormulaPanel;
class KvOffloadPanel;

class KvLab : public Lab {
    Q_OBJECT
public:
    enum Page { ChartPage, ExperimentPage, OffloadPage };

    explicit KvLab(LabHost* host, QWidget* parent = nullptr);

    KvFormulaPanel* formula() const { return formula_; }
    KvCostChart* chart() const { return chart_; }
    KvExperimentPanel* experiment() const { return experiment_; }
    KvOffloadPanel* offload() const { return offload_; }

public slots:
    void showPage(int page);  // a Page
    // Shows the experiment page and runs it on the loaded model.
    void runExperiment();

protected:
    void modelChanged(const LabModelPtr& model) override;
    void retranslate() override;

private:
    KvFormulaPanel* formula_;
    KvCostChart* chart_;
    KvExperimentPanel* experiment_;
    KvOffloadPanel* offload_;
    QTabWidget* pages_;
};

}  // namespace lmscope::gui::labs
