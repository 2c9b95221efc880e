// Tokenizer lab: trains tokenizers live (SentencePiece BPE or Unigram in a child process, or
// WordPiece in this one; vocabulary size from a slider, on the bundled sample corpus or a file
// of the user's) through run_job; the trainers report no progress, so the panel shows a busy
// bar and the time spent, and Cancel stops the training. A trained model joins the lab's set.
#pragma once

#include "gui/job_runner.h"
#include "gui/labs/lab.h"
#include "gui/labs/tokenizer_set.h"
#include "tokenizer/trainer.h"

#include <QElapsedTimer>
#include <QGroupBox>
#include <QString>

#include <functional>
#include <string>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QTimer;

namespace lmscope::gui::labs {

// The bundled sample corpus (resources/labs/tokenizer_corpus.txt, self-written English prose).
std::string sample_corpus_text();

// Trains as `runner`'s job; done() gets the trained tokenizer, the runner's failed() the
// trainer's message. The runner's abandon() or stop() ends the training.
void start_training(JobRunner& runner, tok::TrainOptions options,
                    std::function<void(std::shared_ptr<const tok::Tokenizer>)> done);

class TokenizerTrainerPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit TokenizerTrainerPanel(QWidget* parent = nullptr);

    bool isTraining() const { return runner_->busy(); }
    int vocabSize() const;
    tok::TrainOptions::Model method() const;
    QString corpusFile() const { return corpus_file_; }  // empty: the sample corpus
    QString lastError() const { return last_error_; }
    void retranslate();

public slots:
    void setVocabSize(int size);
    void setMethod(lmscope::tok::TrainOptions::Model method);
    // Trains on `path` (one sentence per line); an empty path selects the sample corpus.
    void setCorpusFile(const QString& path);
    void chooseCorpusFile();
    void train();
    void cancel();

signals:
    void trained(const lmscope::gui::labs::TokenizerEntry& entry);
    void trainingFailed(const QString& message);
    void runningChanged(bool running);

private:
    static QString method_name(tok::TrainOptions::Model model);  // "BPE", "Unigram", "WordPiece"
    static QString corpus_name(const QString& file);             // its file name, or "sample corpus"
    void setRunning(bool running);  // the runner started or ended a training
    void updateCorpusLabel();

    QLabel* method_label_;
    QComboBox* method_;
    QLabel* vocab_label_;
    QSlider* vocab_;
    QLabel* corpus_label_;
    QPushButton* corpus_button_;
    QPushButton* sample_button_;
    QPushButton* train_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    StateText status_;  // the last training's progress or outcome, in the language shown
    QTimer* tick_;
    QElapsedTimer clock_;
    QString corpus_file_;
    QString last_error_;
    JobRunner* runner_;
};

}  // namespace lmscope::gui::labs
