// The KV cache lab's offload panel: with a device budget for the cache, the most recent tokens'
// K/V stay on the device (the window) and older ones live in host memory; per decode step one
// token's KV leaves the window and the host part is streamed back to attend over it
// (core kv::plan_offload). Figures plus a strip: host part | device window. Below, the
// experiment on the loaded model (kv_lab_offload_run.h): decode speed and bytes moved per token
// measured within resident budgets, beside the model's prediction for each.
#pragma once

#include "gui/labs/kv_lab_common.h"
#include "gui/labs/kv_lab_offload_run.h"
#include "gui/job_runner.h"

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace lmscope::gui::labs {

// A horizontal strip of the context: the host part (oldest tokens) and the device window.
class KvOffloadStrip : public QWidget {
    Q_OBJECT
public:
    explicit KvOffloadStrip(QWidget* parent = nullptr);
    void setPlan(const kv::OffloadPlan& plan);
    const kv::OffloadPlan& plan() const { return plan_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    kv::OffloadPlan plan_;
};

class KvOffloadPanel : public QWidget {
    Q_OBJECT
public:
    // Columns of the measured table.
    enum Column { Budget, DecodeSpeed, MovedMeasured, MovedPredicted, InMemory, InFile, ColumnCount };
    explicit KvOffloadPanel(QWidget* parent = nullptr);

    void setModel(const LabModelPtr& model);  // cancels a running measurement, clears the table
    bool isMeasuring() const { return runner_->busy(); }
    QTableWidget* measuredTable() const { return measured_; }
    const std::vector<OffloadRunRow>& measuredRows() const { return rows_; }

    // Takes the shape, type, batch and context; the budget resets to a quarter of the cache
    // at that context (so the strip shows both parts) when the shape or context changed.
    void setChoice(const KvChoice& choice);
    // The plan shown; valid() false when the choice or budget gives none.
    const kv::OffloadPlan& plan() const { return plan_; }
    bool valid() const { return valid_; }
    uint64_t deviceBudgetBytes() const;
    uint64_t windowTokens() const { return window_; }
    void retranslate();

public slots:
    void setContext(int tokens);
    void setDeviceBudgetGB(double gb);
    // Runs the experiment at the context asked (at most the model's, less the decode steps).
    void measure();

signals:
    void measured();  // the table shows a measurement
    void failed(const QString& message);

private:
    void recompute();
    void showMeasured();

    QSpinBox* context_;
    QDoubleSpinBox* budget_;
    QLabel* context_label_;
    QLabel* budget_label_;
    QLabel* intro_;
    KvOffloadStrip* strip_;
    QLabel* names_[7];
    QLabel* values_[7];  // window, device bytes, host tokens, host bytes, evicted, streamed, moved
    QLabel* error_;
    QPushButton* measure_;
    QLabel* measure_status_;
    QTableWidget* measured_;
    JobRunner* runner_;
    LabModelPtr model_;
    std::vector<OffloadRunRow> rows_;
    KvChoice choice_;
    kv::OffloadPlan plan_;
    uint64_t window_ = 0;
    bool valid_ = false;
};

}  // namespace lmscope::gui::labs
