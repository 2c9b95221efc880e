// Tokenizer lab, BPE merges: pick a BPE tokenizer of the set (a trained BPE model, the sample,
// a BPE .model file or a GGUF vocabulary with merges) and a word; every merge that builds the
// word is shown as one step with the pieces after it, ending at the tokenizer's own result.
#pragma once

#include "gui/labs/bpe_replay.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QVBoxLayout;

namespace lmscope::widgets {
class ChipsRow;
}

namespace lmscope::gui::labs {

class TokenizerSet;

class BpeMergesView : public QWidget {
    Q_OBJECT
public:
    explicit BpeMergesView(TokenizerSet* set, QWidget* parent = nullptr);

    const std::vector<ReplayStep>& steps() const { return steps_; }
    int tokenizerIndex() const;  // the set entry shown, -1 for none
    // The chips of the tokenizer's own encode of the word (shown under the steps).
    const widgets::ChipsRow* finalChips() const { return final_chips_; }
    void retranslate();

public slots:
    void setTokenizer(int index);  // an index into the set
    void setWord(const QString& word);

private:
    void rebuildChoices();
    void replay();

    TokenizerSet* set_;
    QLabel* tokenizer_label_;
    QComboBox* tokenizer_;
    QLabel* word_label_;
    QLineEdit* word_;
    QLabel* status_;
    QWidget* steps_box_;
    QVBoxLayout* steps_layout_;
    QLabel* final_label_;
    widgets::ChipsRow* final_chips_;
    std::vector<ReplayStep> steps_;
    // The merges of the tokenizer last replayed (list_merges is slow on large vocabularies).
    const void* merges_of_ = nullptr;
    std::shared_ptr<const void> merges_owner_;  // keeps that tokenizer alive while cached
    std::vector<tok::Merge> merges_;
};

}  // namespace lmscope::gui::labs
