// The KV cache lab's experiment panel: a prompt, a number of decode steps, Run / Stop with a
// progress bar, and a table per cache type (f16, q8_0, q4_0): measured bytes, the formula's,
// and the KL of the next-token distributions against the f16 cache (kv_lab_experiment.h).
#pragma once

#include "gui/labs/kv_lab_experiment.h"
#include "gui/job_runner.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace lmscope::widgets {
class CacheKlChart;
}

namespace lmscope::gui::labs {

class LabHost;

class KvExperimentPanel : public QWidget {
    Q_OBJECT
public:
    // Table columns.
    enum Column { Type, Measured, Formula, MeanKl, KlAfterPrompt, MeanKlDecode, Top1, ColumnCount };

    // `host` (not owned) says which engine the experiment runs on.
    explicit KvExperimentPanel(const LabHost* host, QWidget* parent = nullptr);

    void setModel(const LabModelPtr& model);  // cancels a running experiment, clears the table
    bool isRunning() const { return runner_->busy(); }
    QTableWidget* table() const { return table_; }
    // KL per row (prompt positions, then decode steps) of q8_0 and q4_0.
    widgets::CacheKlChart* klChart() const { return kl_chart_; }
    const KvExperimentResult* result() const { return has_result_ ? &result_ : nullptr; }
    QString prompt() const;
    void retranslate();

public slots:
    void setPrompt(const QString& text);
    void setDecodeSteps(int steps);
    void runExperiment();
    void stopExperiment();

signals:
    void finished();          // results shown
    void failed(const QString& message);

private:
    void showResult(const KvExperimentResult& result);
    void showRunning();  // Run, Stop and the progress bar as the runner says
    void showChart();    // the KL chart of the result shown (empty without one)

    QLineEdit* prompt_;
    QSpinBox* steps_;
    QPushButton* run_;
    QPushButton* stop_;
    QProgressBar* progress_;
    QTableWidget* table_;
    widgets::CacheKlChart* kl_chart_;
    QLabel* prompt_label_;
    QLabel* steps_label_;
    QLabel* status_;
    QLabel* explain_;
    const LabHost* host_;
    LabModelPtr model_;
    JobRunner* runner_;                      // the running experiment; Stop and a new model abandon it
    KvExperimentResult result_;
    bool has_result_ = false;
};

}  // namespace lmscope::gui::labs
