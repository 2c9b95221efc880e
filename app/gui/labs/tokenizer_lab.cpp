#include "gui/labs/tokenizer_lab.h"

#include "gui/labs/bpe_merges_view.h"
#include "gui/labs/misspelling_view.h"
#include "gui/labs/tokenizer_compare_view.h"
#include "gui/labs/tokenizer_set.h"
#include "gui/labs/tokenizer_trainer_panel.h"
#include "gui/sample_model.h"
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

// The tokenizers a class asks about, in the order the lab shows them (sample_models/fetch.sh).
struct Reference {
    const char* name;
    const char* file;
};
constexpr Reference kReferences[] = {
    {"GPT-4 (cl100k_base)", "cl100k_base.tiktoken.gz"},
    {"GPT-4o (o200k_base)", "o200k_base.tiktoken.gz"},
    {"BERT (bert-base-uncased)", "bert-base-uncased-vocab.txt"},
};

// One reference tokenizer as loaded on a pool thread: the tokenizer, or why there is none.
struct LoadedReference {
    QString path;  // empty: not fetched
    std::shared_ptr<const tok::Tokenizer> tokenizer;
    QString error;
};
}  // namespace

TokenizerLab::TokenizerLab(LabHost* host, QWidget* parent)
    : Lab(LabId::Tokenizers, host, parent), set_(new TokenizerSet(this)), modes_(new QTabWidget), compare_(new TokenizerCompareView(set_)),
      trainer_(new TokenizerTrainerPanel), misspelling_(new MisspellingView(host, set_)), merges_(new BpeMergesView(set_)),
      intro_(new QLabel), add_file_(new QPushButton), sample_status_(new QLabel), references_status_(new QLabel),
      sample_runner_(new JobRunner(this)), references_runner_(new JobRunner(this)) {
    setObjectName(QStringLiteral("tokenizerLab"));
    modes_->setObjectName(QStringLiteral("tokenizerModes"));
    add_file_->setObjectName(QStringLiteral("addTokenizerFile"));
    sample_status_->setObjectName(QStringLiteral("sampleStatus"));
    references_status_->setObjectName(QStringLiteral("referenceStatus"));
    intro_->setWordWrap(true);
    sample_status_->setWordWrap(true);
    references_status_->setWordWrap(true);

    auto* side = new QWidget;
    auto* side_layout = new QVBoxLayout(side);
    side_layout->setContentsMargins(0, 0, 0, 0);
    side_layout->addWidget(add_file_);
    side_layout->addWidget(trainer_);
    side_layout->addWidget(references_status_);
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
    connect(sample_runner_, &JobRunner::failed, this, [this](const JobError& error) {
        const QString message = error.text();
        sample_error_ = message;
        retranslate();
    });
    connect(references_runner_, &JobRunner::failed, this, [this](const JobError& error) {
        const QString message = error.text();
        references_ready_ = true;
        references_missing_ = QStringList{message};
        retranslate();
        emit referencesLoaded();
    });
    retranslate();
    loadReferences();
    trainSample();
}

void TokenizerLab::retranslate() {
    intro_->setText(tr("A model reads tokens, not letters. Type a text and see how each tokenizer splits it; "
                       "dashed orange chips are byte pieces, hover a chip for its id."));
    modes_->setTabText(0, tr("Side by side"));
    modes_->setTabText(1, tr("Misspellings"));
    modes_->setTabText(2, tr("BPE merges"));
    add_file_->setText(tr("Add a tokenizer file (.gguf, .model, .tiktoken, vocab.txt)…"));
    if (sample_) set_->setSample(sampleEntry());  // its name is translated
    compare_->retranslate();
    trainer_->retranslate();
    misspelling_->retranslate();
    merges_->retranslate();
    if (!references_ready_)
        references_status_->setText(tr("Loading the GPT-4, GPT-4o and BERT tokenizers…"));
    else if (references_missing_.isEmpty())
        references_status_->setText(tr("GPT-4, GPT-4o and BERT: the tokenizers fetched by sample_models/fetch.sh."));
    else
        references_status_->setText(tr("Not shown (run sample_models/fetch.sh to fetch them): %1")
                                        .arg(references_missing_.join(QStringLiteral("; "))));
    if (!sample_error_.isEmpty())
        sample_status_->setText(tr("The sample tokenizer could not be trained: %1").arg(sample_error_));
    else if (sample_)
        sample_status_->setText(tr("The sample tokenizer (BPE %1) was trained from the bundled corpus.").arg(kSampleVocab));
    else
        sample_status_->setText(tr("Training the sample tokenizer from the bundled corpus…"));
}

void TokenizerLab::trainSample() {
    tok::TrainOptions options;
    try {
        options.corpus_text = sample_corpus_text();
    } catch (...) {
        sample_error_ = QString::fromStdString(exception_message(std::current_exception()));
        retranslate();
        return;
    }
    options.model = tok::TrainOptions::Model::Bpe;
    options.vocab_size = kSampleVocab;
    start_training(*sample_runner_, std::move(options), [this](std::shared_ptr<const tok::Tokenizer> t) {
            sample_ = std::move(t);
            retranslate();  // shows it
        });
}

TokenizerEntry TokenizerLab::sampleEntry() const {
    TokenizerEntry e;
    e.name = tr("Sample BPE %1").arg(kSampleVocab);
    e.detail = tr("trained at first use from the bundled sample corpus: %1").arg(QString::fromStdString(sample_->describe()));
    e.tokenizer = sample_;
    return e;
}

void TokenizerLab::loadReferences() {
    QStringList paths;
    for (const Reference& r : kReferences) paths << find_sample_tokenizer(QString::fromLatin1(r.file));
    references_runner_->start(
        [paths](const JobContext& job) {
            QVector<LoadedReference> out;
            for (const QString& path : paths) {
                check_cancel(job.token());
                LoadedReference r;
                r.path = path;
                if (!path.isEmpty()) {
                    try {
                        r.tokenizer = tok::load_tokenizer(path.toStdString());
                    } catch (...) {  // this one is missing from the lab; the others load
                        r.error = QString::fromStdString(exception_message(std::current_exception()));
                    }
                }
                out.push_back(std::move(r));
            }
            return out;
        },
        [this](const QVector<LoadedReference>& loaded) {
            QVector<TokenizerEntry> entries;
            references_missing_.clear();
            for (qsizetype i = 0; i < loaded.size(); ++i) {
                const QString name = QString::fromLatin1(kReferences[i].name);
                const LoadedReference& r = loaded[i];
                if (!r.tokenizer) {
                    const QString why = r.path.isEmpty()
                                            ? tr("%1 was not found").arg(QString::fromLatin1(kReferences[i].file))
                                            : r.error;
                    references_missing_ << tr("%1: %2").arg(name, why);
                    continue;
                }
                TokenizerEntry e;
                e.name = name;
                e.detail = tr("%1: %2").arg(r.path, QString::fromStdString(r.tokenizer->describe()));
                e.tokenizer = r.tokenizer;
                entries.push_back(std::move(e));
            }
            references_ready_ = true;
            set_->setReferences(std::move(entries));
            retranslate();
            emit referencesLoaded();
        });
}

void TokenizerLab::modelChanged(const LabModelPtr& model) {
    set_->setModel(model ? model->name : QString(), model ? model->tokenizer : nullptr);
    misspelling_->setModel(model);
}

void TokenizerLab::setText(const QString& text) { compare_->setText(text); }

void TokenizerLab::showMode(int mode) { modes_->setCurrentIndex(mode); }

void TokenizerLab::trainTokenizer(int vocabSize, tok::TrainOptions::Model method) {
    showMode(0);
    trainer_->setMethod(method);
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
    } catch (...) {
        last_error_ = QString::fromStdString(exception_message(std::current_exception()));
        if (!last_error_.contains(QFileInfo(path).fileName())) last_error_ = tr("%1: %2").arg(path, last_error_);
        showError(tr("Cannot add %1").arg(QFileInfo(path).fileName()), last_error_);
        return false;
    }
}

void TokenizerLab::chooseTokenizerFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Add a tokenizer"), QString(),
        tr("Tokenizers (*.gguf *.model *.tiktoken *.tiktoken.gz *.txt);;GGUF models and vocabularies (*.gguf);;"
           "SentencePiece models (*.model);;tiktoken rank files (*.tiktoken *.tiktoken.gz);;"
           "WordPiece vocabularies (*.txt);;All files (*)"));
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
