// The Context compare lab: two prompts side by side ("I sat on the river bank" / "I opened a
// bank account"), each run through its own lab session with every attention plane captured.
// A token is picked in each (by default the word both share, "bank"); the lab shows
//   - the picked token's attention row in a chosen (layer, head) for each side, as bars over
//     that side's own keys (the two rows cannot be compared key by key: the contexts differ);
//   - a layers x heads grid of one measure of those rows (entropy, weight on the previous token,
//     on the first token, on itself, the largest weight) for each side, and their difference;
//     clicking a cell picks that layer and head;
//   - the next-token distribution after the picked token on each side (top-k bars, tokens in
//     both lists highlighted) and the KL divergence between the two full distributions;
// each of these (grids, rows, next tokens, and the sweep below) a tab of its own, so each has
// the room a projector needs.
// Heads can be switched off ("Switch off heads: 3:5, 7:0"): both prompts then run without them,
// and "Which head of layer L?" switches each head of the chosen layer off in turn (one layer:
// n_head runs, not the whole grid) and shows how the KL divergence at the picked tokens changes.
#pragma once

#include "gui/labs/context_compare_lab_run.h"
#include "gui/labs/lab.h"
#include "gui/job_runner.h"

#include <QVector>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace lmscope::widgets {
class HeadGrid;
class LabelledBars;
class TokenStrip;
class TraceModel;
}  // namespace lmscope::widgets

namespace lmscope::gui::labs {

class ContextCompareLab : public Lab {
    Q_OBJECT
public:
    static constexpr int kSides = 2;  // 0: the left prompt (A), 1: the right one (B)
    static constexpr int kTopK = 10;
    // The views, one tab each under the layer and head pickers.
    enum View { GridsView, RowsView, NextView, SweepView, ViewCount };

    explicit ContextCompareLab(LabHost* host, QWidget* parent = nullptr);


    QString prompt(int side) const;
    bool isRunning() const { return runner_->busy(); }
    // The last finished run of a side (null before the first).
    std::shared_ptr<const context_compare::SideRun> result(int side) const;
    qint32 pickedPosition(int side) const;  // -1: nothing run yet
    QString pickedText(int side) const;     // the picked token as shown on its chip
    qint32 layer() const;
    qint32 head() const;
    context_compare::HeadMeasure measure() const;

    // What is shown, for tests and tools.
    QTabWidget* views() const { return views_; }  // a View per tab; "Which head" shows SweepView
    widgets::TraceModel* tokens(int side) const;
    widgets::TokenStrip* strip(int side) const;
    widgets::LabelledBars* attentionBars(int side) const;
    widgets::LabelledBars* nextTokenBars(int side) const;
    QVector<qint32> nextTokenIds(int side) const;  // the ids of nextTokenBars' rows
    widgets::HeadGrid* grid(int side) const;
    widgets::HeadGrid* differenceGrid() const { return diff_grid_; }
    double klShown(int from_side) const;  // KL(from || other) as written in the KL line
    QLabel* klLabel() const { return kl_; }
    QLabel* statusLabel() const { return status_.label(); }
    // The heads the next run switches off ("layer:head, ..."); those the shown results ran without.
    QLineEdit* offEdit() const { return off_; }
    std::vector<LayerHead> switchedOff() const;
    bool isSweeping() const { return sweep_runner_->busy(); }
    // The last finished sweep of the layer, for the shown results and picks (nullopt: none).
    const std::optional<context_compare::HeadSweep>& sweep() const { return sweep_; }
    widgets::LabelledBars* sweepBars() const { return sweep_bars_; }
    QLabel* sweepLabel() const { return sweep_label_; }

public slots:
    void setPrompt(int side, const QString& text);
    void setPrompts(const QString& a, const QString& b);
    void run();   // both prompts through the engine (cancels a run in progress)
    void stop();  // cancels the run in progress; the last results stay
    void pickToken(int side, qint32 pos);
    void setLayerHead(qint32 layer, qint32 head);
    void setMeasure(int measure);  // a context_compare::HeadMeasure
    void setSwitchedOff(const QString& heads);  // the "Switch off heads" field ("3:5, 7:0")
    // Each head of the chosen layer switched off in turn (with the heads the results ran
    // without), both picked tokens run again: the KL divergence between them for each.
    void sweepLayer();

signals:
    void runFinished();
    void sweepFinished();
    void runFailed(const QString& message);

protected:
    void modelChanged(const LabModelPtr& model) override;
    void retranslate() override;

private:
    struct Side {
        QLabel* caption = nullptr;
        QLineEdit* prompt = nullptr;
        widgets::TraceModel* tokens = nullptr;
        widgets::TokenStrip* strip = nullptr;
        widgets::LabelledBars* row = nullptr;
        widgets::LabelledBars* next = nullptr;
        widgets::HeadGrid* grid = nullptr;
        std::shared_ptr<const context_compare::SideRun> result;
        QVector<qint32> next_ids;
    };
    using Runs = std::array<context_compare::SideRun, kSides>;

    QWidget* buildPromptRow(int side);
    QWidget* buildCharts();
    void showRunning();  // Run and Stop enabled as the runner and the model say
    void failed(const QString& message);
    void finished(Runs runs);
    void showAll();
    void showRows();
    void showGrids();
    void showNextTokens();
    void chooseStrongestHead();
    void showSweep();
    void clearSweep();
    QString sideName(int side) const;

    std::array<Side, kSides> sides_;
    QTabWidget* views_ = nullptr;  // a tab per View
    widgets::HeadGrid* diff_grid_ = nullptr;
    QLabel* explain_ = nullptr;
    StateText status_;  // what the last run did, in the language shown
    QLabel* kl_ = nullptr;
    QLabel* layer_caption_ = nullptr;
    QLabel* head_caption_ = nullptr;
    QLabel* measure_caption_ = nullptr;
    QSpinBox* layer_ = nullptr;
    QSpinBox* head_ = nullptr;
    QComboBox* measure_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* stop_ = nullptr;
    QLabel* off_caption_ = nullptr;
    QLineEdit* off_ = nullptr;
    QPushButton* sweep_button_ = nullptr;
    QLabel* sweep_label_ = nullptr;
    widgets::LabelledBars* sweep_bars_ = nullptr;
    std::optional<context_compare::HeadSweep> sweep_;
    JobRunner* runner_;       // the running comparison; a stop or a new model abandons it
    JobRunner* sweep_runner_; // the running sweep; a new run, pick or model abandons it
    bool loading_ = false;    // feeding the token models: their query signals wait
    std::array<double, kSides> kl_shown_{};
};

}  // namespace lmscope::gui::labs
