#include "gui/labs/tokenizer_trainer_panel.h"

#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTimer>

// The corpus lives in labs/tokenizer_lab.qrc, compiled into the static gui library: naming its
// initializer here makes the linker keep it in every program that trains.
static void init_tokenizer_lab_resources() { Q_INIT_RESOURCE(tokenizer_lab); }

namespace lmscope::gui::labs {

namespace {
constexpr int kVocabMin = 400;   // above the 256 byte pieces, the specials and the corpus's characters
constexpr int kVocabMax = 4000;
constexpr int kVocabStep = 100;
}  // namespace

std::string sample_corpus_text() {
    init_tokenizer_lab_resources();
    QFile f(QStringLiteral(":/labs/tokenizer_corpus.txt"));
    if (!f.open(QIODevice::ReadOnly)) throw IoError("the bundled sample corpus :/labs/tokenizer_corpus.txt is missing");
    return f.readAll().toStdString();
}

void start_training(JobRunner& runner, tok::TrainOptions options,
                    std::function<void(std::shared_ptr<const tok::Tokenizer>)> done) {
    runner.start(
        [options = std::move(options)](const JobContext& job) -> std::shared_ptr<const tok::Tokenizer> {
            return tok::train_tokenizer(options, job.token());
        },
        std::move(done));
}

TokenizerTrainerPanel::TokenizerTrainerPanel(QWidget* parent)
    : QGroupBox(parent), method_label_(new QLabel), method_(new QComboBox), vocab_label_(new QLabel),
      vocab_(new QSlider(Qt::Horizontal)), corpus_label_(new QLabel), corpus_button_(new QPushButton),
      sample_button_(new QPushButton), train_(new QPushButton), cancel_(new QPushButton), progress_(new QProgressBar),
      tick_(new QTimer(this)), runner_(new JobRunner(this)) {
    setObjectName(QStringLiteral("trainerPanel"));
    method_->setObjectName(QStringLiteral("trainMethod"));
    using Model = tok::TrainOptions::Model;
    for (Model m : {Model::Bpe, Model::Unigram, Model::WordPiece}) method_->addItem(QString(), static_cast<int>(m));
    vocab_->setObjectName(QStringLiteral("trainVocabSlider"));
    vocab_->setRange(kVocabMin, kVocabMax);
    vocab_->setSingleStep(kVocabStep);
    vocab_->setPageStep(kVocabStep * 5);
    vocab_->setValue(1000);
    corpus_button_->setObjectName(QStringLiteral("trainCorpusButton"));
    sample_button_->setObjectName(QStringLiteral("trainSampleCorpusButton"));
    train_->setObjectName(QStringLiteral("trainButton"));
    cancel_->setObjectName(QStringLiteral("trainCancelButton"));
    progress_->setObjectName(QStringLiteral("trainProgress"));
    status_.label()->setObjectName(QStringLiteral("trainStatus"));
    status_.label()->setWordWrap(true);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    corpus_label_->setWordWrap(true);

    auto* grid = new QGridLayout(this);
    grid->addWidget(method_label_, 0, 0);
    grid->addWidget(method_, 0, 1);
    grid->addWidget(vocab_label_, 1, 0);
    grid->addWidget(vocab_, 1, 1);
    grid->addWidget(corpus_label_, 2, 0, 1, 2);
    auto* corpus_buttons = new QHBoxLayout;
    corpus_buttons->addWidget(sample_button_);
    corpus_buttons->addWidget(corpus_button_);
    grid->addLayout(corpus_buttons, 3, 0, 1, 2);
    auto* run = new QHBoxLayout;
    run->addWidget(train_);
    run->addWidget(cancel_);
    run->addWidget(progress_, 1);
    grid->addLayout(run, 4, 0, 1, 2);
    grid->addWidget(status_.label(), 5, 0, 1, 2);
    grid->setRowStretch(6, 1);

    connect(vocab_, &QSlider::valueChanged, this, [this] { retranslate(); });
    connect(corpus_button_, &QPushButton::clicked, this, &TokenizerTrainerPanel::chooseCorpusFile);
    connect(sample_button_, &QPushButton::clicked, this, [this] { setCorpusFile(QString()); });
    connect(train_, &QPushButton::clicked, this, &TokenizerTrainerPanel::train);
    connect(cancel_, &QPushButton::clicked, this, &TokenizerTrainerPanel::cancel);
    tick_->setInterval(200);
    connect(tick_, &QTimer::timeout, this, [this] {
        status_.set([seconds = double(clock_.elapsed()) / 1000.0] { return tr("Training… %1 s").arg(QString::number(seconds, 'f', 1)); });
    });
    connect(runner_, &JobRunner::busyChanged, this, &TokenizerTrainerPanel::setRunning);
    connect(runner_, &JobRunner::failed, this, [this](const JobError& error) {
        const QString message = error.text();
        last_error_ = message;
        status_.set([message] { return tr("Training failed: %1").arg(message); });
        emit trainingFailed(message);
    });
    setRunning(false);
    retranslate();
}

int TokenizerTrainerPanel::vocabSize() const { return vocab_->value(); }

void TokenizerTrainerPanel::retranslate() {
    setTitle(tr("Train a tokenizer"));
    method_label_->setText(tr("Method:"));
    method_->setItemText(0, tr("BPE (merges pairs)"));
    method_->setItemText(1, tr("Unigram (prunes pieces)"));
    method_->setItemText(2, tr("WordPiece (merges the likeliest pairs, BERT)"));
    vocab_label_->setText(tr("Vocabulary: %1").arg(vocab_->value()));
    sample_button_->setText(tr("Use the sample corpus"));
    corpus_button_->setText(tr("Choose a corpus file…"));
    train_->setText(tr("Train"));
    cancel_->setText(tr("Cancel"));
    updateCorpusLabel();
    status_.refresh();
}

QString TokenizerTrainerPanel::method_name(tok::TrainOptions::Model model) {
    return model == tok::TrainOptions::Model::Unigram     ? tr("Unigram")
           : model == tok::TrainOptions::Model::WordPiece ? tr("WordPiece")
                                                          : tr("BPE");
}

QString TokenizerTrainerPanel::corpus_name(const QString& file) {
    return file.isEmpty() ? tr("sample corpus") : QFileInfo(file).fileName();
}

void TokenizerTrainerPanel::updateCorpusLabel() {
    corpus_label_->setText(corpus_file_.isEmpty()
                               ? tr("Corpus: the sample corpus (about 10 KB of English prose)")
                               : tr("Corpus: %1").arg(QFileInfo(corpus_file_).fileName()));
    corpus_label_->setToolTip(corpus_file_);
}

void TokenizerTrainerPanel::setVocabSize(int size) { vocab_->setValue(size); }

tok::TrainOptions::Model TokenizerTrainerPanel::method() const {
    return static_cast<tok::TrainOptions::Model>(method_->currentData().toInt());
}

void TokenizerTrainerPanel::setMethod(tok::TrainOptions::Model method) {
    method_->setCurrentIndex(method_->findData(static_cast<int>(method)));
}

void TokenizerTrainerPanel::setCorpusFile(const QString& path) {
    corpus_file_ = path;
    updateCorpusLabel();
}

void TokenizerTrainerPanel::chooseCorpusFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose a training corpus"), QString(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (!path.isEmpty()) setCorpusFile(path);
}

void TokenizerTrainerPanel::setRunning(bool running) {
    train_->setEnabled(!running);
    cancel_->setEnabled(running);
    progress_->setRange(0, running ? 0 : 1);  // a busy bar while running
    progress_->setValue(0);
    if (running) {
        clock_.start();
        tick_->start();
    } else {
        tick_->stop();
    }
    emit runningChanged(running);
}

void TokenizerTrainerPanel::train() {
    runner_->abandon();
    last_error_.clear();
    tok::TrainOptions options;
    options.model = method();
    options.vocab_size = vocab_->value();
    if (corpus_file_.isEmpty()) {
        try {
            options.corpus_text = sample_corpus_text();
        } catch (...) {
            last_error_ = QString::fromStdString(exception_message(std::current_exception()));
            status_.set([error = last_error_] { return error; });  // the file's error, from the core
            emit trainingFailed(last_error_);
            return;
        }
    } else {
        options.corpus_file = corpus_file_.toStdString();
    }
    const tok::TrainOptions::Model model = options.model;
    const int vocab = options.vocab_size;
    start_training(*runner_, std::move(options), [this, model, vocab, file = corpus_file_](std::shared_ptr<const tok::Tokenizer> t) {
            status_.set([model, vocab, file, seconds = double(clock_.elapsed()) / 1000.0] {
                return tr("Trained %1 %2 on the %3 in %4 s.").arg(method_name(model)).arg(vocab).arg(corpus_name(file)).arg(seconds, 0, 'f', 1);
            });
            TokenizerEntry e;
            e.kind = TokenizerEntry::Kind::Trained;
            e.name = tr("%1 %2").arg(method_name(model)).arg(vocab);
            e.detail = tr("trained here on %1: %2").arg(corpus_name(file), QString::fromStdString(t->describe()));
            e.tokenizer = std::move(t);
            emit trained(e);
        });
}

void TokenizerTrainerPanel::cancel() {
    if (!runner_->busy()) return;
    runner_->abandon();
    status_.set([] { return tr("Training cancelled."); });
}

}  // namespace lmscope::gui::labs
