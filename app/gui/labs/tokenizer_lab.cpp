#include "gui/labs/tokenizer_lab.h"

#include "gui/labs/bpe_merges_view.h"
#include "gui/labs/misspelling_view.h"
#include "gui/labs/tokenizer_compare_view.h"
#include "gui/labs/tokenizer_set.h"
#include "gui/labs/tokenizer_trainer_panel.h"
#include "tokenizer/tokenizer.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace lmscope::gui::labs {

namespace {
constexpr int kSampleVocab = 1000;
}

TokenizerLab::TokenizerLab(LabHost* host, QWidget* parent)
    : Lab(host, parent), set_(new TokenizerSet(this)), modes_(new QTabWidget), compare_(new TokenizerCompareView(set_)),
      trainer_(new TokenizerTrainerPanel), misspelling_(new MisspellingView(set_)), merges_(new BpeMergesView(set_)),
      intro_(new QLabel), add_file_(new QPushButton), sample_status_(new QLabel) {
    setObjectName(QStringLiteral("tokenizerLab"));
    modes_->setObjectName(QStringLiteral("tokenizerModes"));
    add_file_->setObjectName(QStringLiteral("addTokenizerFile"));
    sample_status_->setObjectName(QStringLiteral("sampleStatus"));
    intro_->setWordWrap(true);
    sample_status_->setWordWrap(true);

    auto* side = new QWidget;
    auto* side_layout = new QVBoxLayout(side);
    side_layout->setContentsMargins(0, 0, 0, 0);
    side_layout->addWidget(add_file_);
    side_layout->addWidget(trainer_);
    side_layout->addWidget(sample_status_);
    side_layout->addStretch(1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(compare_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    modes_->addTab(split, QString());
    modes_->addTab(misspelling_, QString());
    modes_->addTab(merges_, QString());

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(modes_, 1);

    connect(add_file_, &QPushButton::clicked, this, &TokenizerLab::chooseTokenizerFile);
    connect(compare_, &TokenizerCompareView::removeRequested, set_, &TokenizerSet::remove);
    connect(trainer_, &TokenizerTrainerPanel::trained, set_, &TokenizerSet::add);
    retranslate();
    trainSample();
}

TokenizerLab::~TokenizerLab() { sample_job_.stop(); }

QString TokenizerLab::title() const { return tr("Tokenizers"); }

void TokenizerLab::retranslate() {
    intro_->setText(tr("A model reads tokens, not letters. Type a text and see how each tokenizer splits it; "
                       "dashed orange chips are byte pieces, hover a chip for its id."));
    modes_->setTabText(0, tr("Side by side"));
    modes_->setTabText(1, tr("Misspellings"));
    modes_->setTabText(2, tr("BPE merges"));
    add_file_->setText(tr("Add a tokenizer file (.gguf, .model)…"));
    compare_->retranslate();
    trainer_->retranslate();
    misspelling_->retranslate();
    merges_->retranslate();
    if (!sample_error_.isEmpty())
        sample_status_->setText(tr("The sample tokenizer could not be trained: %1").arg(sample_error_));
    else if (sample_ready_)
        sample_status_->setText(tr("The sample tokenizer (BPE %1) was trained from the bundled corpus.").arg(kSampleVocab));
    else
        sample_status_->setText(tr("Training the sample tokenizer from the bundled corpus…"));
}

void TokenizerLab::trainSample() {
    tok::TrainOptions options;
    try {
        options.corpus_text = sample_corpus_text();
    } catch (const std::exception& e) {
        sample_error_ = QString::fromUtf8(e.what());
        retranslate();
        return;
    }
    options.model = tok::TrainOptions::Model::Bpe;
    options.vocab_size = kSampleVocab;
    sample_job_ = start_training(
        this, std::move(options), "sample corpus BPE",
        [this](std::shared_ptr<const tok::Tokenizer> t) {
            sample_job_.finished();
            TokenizerEntry e;
            e.name = tr("Sample BPE %1").arg(kSampleVocab);
            e.detail = tr("trained at first use from the bundled sample corpus: %1").arg(QString::fromStdString(t->describe()));
            e.tokenizer = std::move(t);
            sample_ready_ = true;
            set_->setSample(std::move(e));
            retranslate();
            emit sampleTrained();
        },
        [this](const QString& message) {
            sample_job_.finished();
            sample_error_ = message;
            retranslate();
        });
}

void TokenizerLab::modelChanged(const LabModelPtr& model) {
    set_->setModel(model ? model->name : QString(), model ? model->tokenizer : nullptr);
    misspelling_->setModel(model);
}

void TokenizerLab::setText(const QString& text) { compare_->setText(text); }

void TokenizerLab::showMode(int mode) { modes_->setCurrentIndex(mode); }

void TokenizerLab::trainTokenizer(int vocabSize, bool unigram) {
    showMode(0);
    trainer_->setUnigram(unigram);
    trainer_->setVocabSize(vocabSize);
    trainer_->train();
}

void TokenizerLab::compareMisspelling(const QString& word, const QString& misspelling) {
    showMode(1);
    misspelling_->setWord(word);
    if (!misspelling_->variants().contains(misspelling)) misspelling_->setOwnMisspellings(misspelling);
    misspelling_->selectMisspelling(misspelling);
    misspelling_->runNextToken();
}

void TokenizerLab::replayMerges(const QString& word, int tokenizerIndex) {
    showMode(2);
    if (tokenizerIndex >= 0) merges_->setTokenizer(tokenizerIndex);
    merges_->setWord(word);
}

bool TokenizerLab::addTokenizerFile(const QString& path) {
    last_error_.clear();
    try {
        std::shared_ptr<const tok::Tokenizer> t = tok::load_tokenizer(path.toStdString());
        TokenizerEntry e;
        e.kind = TokenizerEntry::Kind::File;
        e.name = QFileInfo(path).fileName();
        e.detail = tr("%1: %2").arg(path, QString::fromStdString(t->describe()));
        e.tokenizer = std::move(t);
        set_->add(std::move(e));
        return true;
    } catch (const std::exception& e) {
        last_error_ = QString::fromUtf8(e.what());
        if (!last_error_.contains(QFileInfo(path).fileName())) last_error_ = tr("%1: %2").arg(path, last_error_);
        showError(tr("Cannot add %1").arg(QFileInfo(path).fileName()), last_error_);
        return false;
    }
}

void TokenizerLab::chooseTokenizerFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Add a tokenizer"), QString(),
        tr("Tokenizers (*.gguf *.model);;GGUF models and vocabularies (*.gguf);;SentencePiece models (*.model);;All files (*)"));
    if (!path.isEmpty()) addTokenizerFile(path);
}

void TokenizerLab::showError(const QString& title, const QString& message) {
    // Not modal-blocking: the lab keeps running while the message is up.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("tokenizerError"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace lmscope::gui::labs
