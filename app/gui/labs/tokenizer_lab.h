// The tokenizer lab: one text split by several tokenizers side by side (the loaded model's,
// GPT-4's and GPT-4o's tiktoken encodings and BERT's WordPiece vocabulary as fetched by
// sample_models/fetch.sh, the sample tokenizer trained at first use from the bundled corpus,
// tokenizer files the user adds, and BPE, Unigram and WordPiece models trained live), a
// misspelling mode (token counts per tokenizer
// and the model's next-token distributions after the correct and the misspelled prompt) and a
// BPE merges replay.
//
// The fixture model ../shared/testdata/tokenizer/fx-spm-1024.model is not bundled: the test data
// may not be copied into the project and it was trained on the license texts of a system. The
// lab trains its sample tokenizer (BPE, 1000 pieces, about a second) from its own corpus instead;
// the fixture can be added like any .model file.
#pragma once

#include "gui/labs/lab.h"
#include "gui/labs/tokenizer_set.h"
#include "gui/job_runner.h"
#include "tokenizer/trainer.h"

#include <QString>
#include <QStringList>

class QLabel;
class QPushButton;
class QTabWidget;

namespace lmscope::gui::labs {

class BpeMergesView;
class MisspellingView;
class TokenizerCompareView;
class TokenizerTrainerPanel;

class TokenizerLab : public Lab {
    Q_OBJECT
public:
    explicit TokenizerLab(LabHost* host, QWidget* parent = nullptr);

    TokenizerSet* tokenizers() const { return set_; }
    TokenizerCompareView* compareView() const { return compare_; }
    TokenizerTrainerPanel* trainer() const { return trainer_; }
    MisspellingView* misspellingView() const { return misspelling_; }
    BpeMergesView* mergesView() const { return merges_; }
    bool sampleReady() const { return sample_ != nullptr; }
    bool referencesReady() const { return references_ready_; }
    QString lastError() const { return last_error_; }  // of the last file added

public slots:
    void setText(const QString& text);
    // Adds a GGUF model / vocabulary, a SentencePiece .model, a tiktoken rank file or a WordPiece
    // vocab.txt; on failure a message box
    // names the file, the field and the reason, and false is returned.
    bool addTokenizerFile(const QString& path);
    void chooseTokenizerFile();
    // 0 side by side, 1 misspellings, 2 BPE merges.
    void showMode(int mode);
    // Trains a tokenizer on the chosen corpus (the sample corpus unless a file was chosen in
    // the trainer panel); it joins the set when done.
    void trainTokenizer(int vocabSize, lmscope::tok::TrainOptions::Model method);
    // Misspelling mode on `word`, comparing the model's next token after `misspelling`.
    void compareMisspelling(const QString& word, const QString& misspelling);
    // BPE merges of `word` with set entry `tokenizerIndex` (-1: the view's choice).
    void replayMerges(const QString& word, int tokenizerIndex = -1);

signals:
    void referencesLoaded();

protected:
    void modelChanged(const LabModelPtr& model) override;
    void retranslate() override;

private:
    void trainSample();
    TokenizerEntry sampleEntry() const;  // named in the language shown
    void loadReferences();
    void showError(const QString& title, const QString& message);

    TokenizerSet* set_;
    QTabWidget* modes_;
    TokenizerCompareView* compare_;
    TokenizerTrainerPanel* trainer_;
    MisspellingView* misspelling_;
    BpeMergesView* merges_;
    QLabel* intro_;
    QPushButton* add_file_;
    QLabel* sample_status_;
    QLabel* references_status_;
    JobRunner* sample_runner_;      // trains the sample tokenizer
    JobRunner* references_runner_;  // loads the GPT-4, GPT-4o and BERT tokenizers
    bool references_ready_ = false;
    QStringList references_missing_;  // "GPT-4o: why it is not shown"
    std::shared_ptr<const tok::Tokenizer> sample_;  // null until trained
    QString sample_error_;  // why the sample tokenizer could not be trained
    QString last_error_;
};

}  // namespace lmscope::gui::labs
