// The KV cache lab's chart page: bytes against context length for the chosen shape as MHA, GQA and
// MQA (core kv::attention_variants) at fp16, int8 and int4, a device memory budget and what is
// left of it after the weights (with how many tokens fit, per variant and type), on a log or
// linear scale; and the live step-through run's measured bytes (LabHost::liveTrace()). The
// numbers come from core/kv; widgets::KvGrowthChart draws them.
#pragma once

#include "gui/labs/kv_lab_common.h"
#include "kv/kv_math.h"
#include "widgets/kv_growth_chart.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
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

    widgets::KvGrowthChart* growthChart() const { return chart_; }
    QTableWidget* fitTable() const { return fit_; }        // tokens that fit [variant][type]
    uint64_t budgetBytes() const;
    uint64_t weightsBytes() const { return weights_bytes_; }  // 0 when unknown or invalid
    void retranslate();

public slots:
    void setBudgetGB(double gb);
    void setLogScale(bool on);
    // A KV type's name (kv_type_name): how the weights are stored for the weights line.
    bool setWeightsType(const QString& name);

private:
    void rebuild();
    // The curves of every variant and cache type, and the fit table's cells.
    void rebuildCurves(const std::vector<kv::Variant>& variants, const QVector<double>& xs, uint64_t budget);
    QString summaryText(uint64_t budget, KvType weights_type) const;
    void rebuildMeasured();
    void showChart();

    widgets::KvGrowthChart* chart_;
    QDoubleSpinBox* budget_box_;
    QComboBox* weights_type_;
    QCheckBox* log_;
    QLabel* summary_;
    QLabel* budget_label_;
    QLabel* weights_label_;
    QTableWidget* fit_;
    widgets::KvGrowthData view_;  // what chart_ shows
    QPointer<widgets::TraceModel> trace_;
    KvChoice choice_;
    uint64_t weights_bytes_ = 0;
};

}  // namespace lmscope::gui::labs
