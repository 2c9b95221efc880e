// Tokenizer lab, misspelling mode: a word and its misspellings (tok::misspellings() plus the
// user's own), a table of token counts per tokenizer with the cells that differ from the correct
// spelling highlighted, and, for the loaded model, the next-token distributions after the
// correct and the misspelled prompt side by side (top 5, and the KL divergence of the two full
// distributions) from a real engine run.
#pragma once

#include "gui/engine_setup.h"
#include "gui/labs/next_token_compare.h"
#include "gui/job_runner.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace lmscope::gui::labs {

class LabHost;
class TokenizerSet;

class MisspellingView : public QWidget {
    Q_OBJECT
public:
    // `host` (not owned) says which engine the comparison runs on.
    MisspellingView(const LabHost* host, TokenizerSet* set, QWidget* parent = nullptr);

    // The word first, then its misspellings (the rows of the table).
    const QStringList& variants() const { return variants_; }
    const QTableWidget* table() const { return table_; }  // [variant][tokenizer], UserRole = count
    QString misspelling() const;                          // the one the distributions compare
    // The prompts of the last comparison and its result (what the side-by-side tables show).
    const std::optional<NextTokenComparison>& comparison() const { return comparison_; }
    const QLabel* klLabel() const { return kl_; }  // property "kl": the value shown
    bool isRunning() const { return runner_->busy(); }
    QString promptFor(const QString& word) const;
    void setModel(const LabModelPtr& model);
    void retranslate();

public slots:
    void setWord(const QString& word);
    // Comma-separated misspellings of the user's own, listed after the generated ones' first.
    void setOwnMisspellings(const QString& words);
    // "{word}" stands for the word.
    void setPromptTemplate(const QString& text);
    void selectMisspelling(const QString& word);
    void runNextToken();
    void stop();

signals:
    void finished();

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;  // the table's width: fitColumns

private:
    void rebuildTable();
    // Each column as wide as its cells and title, the width left shared among them (the table
    // filled half its width); a table wider than the view scrolls sideways.
    void fitColumns();
    void showComparison();
    // The rows' p_a (side_a) or p_b.
    void fillTop(QTableWidget* table, const std::vector<analysis::TokenProbs>& top, bool side_a);

    TokenizerSet* set_;
    const LabHost* host_;
    LabModelPtr model_;
    QLabel* word_label_;
    QLineEdit* word_;
    QLabel* own_label_;
    QLineEdit* own_;
    QLabel* hint_;
    QTableWidget* table_;
    QLabel* prompt_label_;
    QLineEdit* prompt_;
    QPushButton* run_;
    QPushButton* stop_;
    QLabel* status_;
    QLabel* correct_title_;
    QLabel* wrong_title_;
    QTableWidget* top_correct_;
    QTableWidget* top_wrong_;
    QLabel* kl_;
    QStringList variants_;
    QString selected_;
    std::optional<NextTokenComparison> comparison_;
    QString compared_correct_, compared_wrong_;  // the prompts of comparison_
    JobRunner* runner_;  // the running comparison; a new run, Stop and a new model abandon it
};

}  // namespace lmscope::gui::labs
