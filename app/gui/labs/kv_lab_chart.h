// The KV cache lab's chart: bytes against context length for the chosen shape as MHA, GQA and
// MQA (core kv::attention_variants) at fp16, int8 and int4, a device memory budget and what is
// left of it after the weights (with how many tokens fit, per variant and type), on a log or
// linear scale; and the live step-through run's measured bytes (LabHost::liveTrace()).
#pragma once

#include "gui/labs/kv_lab_common.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QCPGraph;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QTableWidget;

namespace lmscope::widgets {
class TraceModel;
}

namespace lmscope::gui::labs {

class KvCostChart : public QWidget {
    Q_OBJECT
public:
    explicit KvCostChart(QWidget* parent = nullptr);

    void setChoice(const KvChoice& choice);
    // The live run's trace (not owned; may be null). Its steps along the current path become
    // the measured curve, redrawn as steps arrive.
    void setLiveTrace(widgets::TraceModel* trace);

    QCustomPlot* plot() const { return plot_; }
    // The curve of one attention variant at one cache type; null when the shape has no such
    // variant (e.g. no GQA for 4 query heads). x = tokens, y = bytes.
    QCPGraph* curve(kv::AttentionKind kind, KvType type) const;
    QCPGraph* measuredGraph() const { return measured_; }  // x = tokens held, y = bytes held
    QCPGraph* budgetGraph() const { return budget_; }      // y = the device budget
    QCPGraph* kvSpaceGraph() const { return kv_space_; }   // y = budget - weights (when > 0)
    QTableWidget* fitTable() const { return fit_; }        // tokens that fit [variant][type]
    uint64_t budgetBytes() const;
    uint64_t weightsBytes() const { return weights_bytes_; }  // 0 when unknown or invalid
    void retranslate();

public slots:
    void setBudgetGB(double gb);
    void setLogScale(bool on);
    // "f16", "q8_0" or "q4_0": how the weights are stored for the weights line.
    bool setWeightsType(const QString& name);

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    void rebuildMeasured();
    void relegend();
    void rescale();

    QCustomPlot* plot_;
    QDoubleSpinBox* budget_box_;
    QComboBox* weights_type_;
    QCheckBox* log_;
    QLabel* summary_;
    QLabel* budget_label_;
    QLabel* weights_label_;
    QTableWidget* fit_;
    QCPGraph* curves_[3][3] = {};  // [AttentionKind][KvType]
    QCPGraph* measured_;
    QCPGraph* budget_;
    QCPGraph* kv_space_;
    QPointer<widgets::TraceModel> trace_;
    KvChoice choice_;
    uint64_t weights_bytes_ = 0;
    QString measured_dtype_;
};

}  // namespace lmscope::gui::labs
