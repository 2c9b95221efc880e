// Logit lens lab: how a prediction forms layer by layer. For the selected position of a prompt,
// the residual stream after each layer is read through the final norm and the output head: a
// table of the top-5 tokens per layer (shaded by probability) and a chart of where the model's
// final prediction ranks at each layer (and its probability). A new model is read through the
// lens when the lab is shown (not while it sits behind another tab, sharing the cores with the
// session's first steps); a prompt or position the user gives runs at once.
#pragma once

#include "gui/labs/lab.h"
#include "gui/job_runner.h"
#include "gui/labs/logit_lens_run.h"

#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QTimer;

namespace lmscope::widgets {
class LensRankChart;
}

namespace lmscope::gui::labs {

class TokenListView;

class LogitLensLab : public Lab {
    Q_OBJECT
public:
    explicit LogitLensLab(LabHost* host, QWidget* parent = nullptr);

    bool isBusy() const { return runner_->busy(); }
    const std::vector<int32_t>& promptIds() const { return ids_; }
    int selectedPosition() const { return position_; }
    const std::optional<LensResult>& result() const { return result_; }
    widgets::LensRankChart* rankChart() const { return chart_; }

    static constexpr int kTopK = 5;

public slots:
    // Tokenizes `text`, selects its last token and runs the lens.
    void setPrompt(const QString& text);
    // Runs the lens for token `position` of the prompt.
    void selectPosition(int position);
    void runLens();

signals:
    void lensFinished();

protected:
    void modelChanged(const LabModelPtr& model) override;
    void retranslate() override;
    void showEvent(QShowEvent* event) override;

private:
    void tokenize();
    void showTokens();
    void finished(LensResult result);
    void showResult();
    QString pieceText(int32_t id) const;

    QLabel* explanation_;
    QLabel* prompt_label_;
    QLineEdit* prompt_;
    QPushButton* run_;
    TokenListView* tokens_;
    QLabel* summary_;
    QTableWidget* table_;
    widgets::LensRankChart* chart_;
    QLabel* status_;
    QTimer* edit_timer_;

    std::vector<int32_t> ids_;  // the prompt's tokens
    int position_ = -1;         // the selected position
    std::optional<LensResult> result_;
    bool stale_ = false;        // a model came while hidden: the lens runs when the lab shows
    JobRunner* runner_;         // the running lens; every run and model change abandons it
};

}  // namespace lmscope::gui::labs
