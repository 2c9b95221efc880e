// The tokenizer lab: the chips and counts it shows are the core tokenizer's encode (for the
// loaded model, GPT-4's, GPT-4o's and BERT's tokenizers, added files and BPE, Unigram and
// WordPiece models trained in the lab), bad files are reported with their
// name while the lab keeps working, training can be cancelled, the misspelling table and the
// next-token KL equal what the core computes, and the BPE merges replay ends at the word's
// tokenization.
#include "common/testing.h"
#include "engine/backend.h"
#include "engine/model.h"
#include "engine/session.h"
#include "gui/labs/bpe_merges_view.h"
#include "gui/labs/lab_host.h"
#include "gui/engine_setup.h"
#include "gui/labs/misspelling_view.h"
#include "gui/labs/tokenizer_compare_view.h"
#include "gui/labs/tokenizer_lab.h"
#include "gui/labs/tokenizer_set.h"
#include "gui/labs/tokenizer_trainer_panel.h"
#include "gui/language.h"
#include "tokenizer/tokenizer.h"
#include "tools/layout_check.h"
#include "tokenizer/trainer.h"
#include "widgets/chips_row.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace lmscope;
using namespace lmscope::gui;
using namespace lmscope::gui::labs;

namespace {

std::string model_path(const QString& which) {
    return which == QLatin1String("smollm2") ? testing::sample_model() : testing::testdata_file("models/fx-gqa.gguf");
}

std::vector<int32_t> shown_ids(const widgets::ChipsRow* row) {
    std::vector<int32_t> ids;
    for (const widgets::Chip& c : row->chips()) ids.push_back(c.id);
    return ids;
}

qsizetype row_of(const TokenizerSet& set, TokenizerEntry::Kind kind) {
    for (qsizetype i = 0; i < set.size(); ++i)
        if (set.at(i).kind == kind) return i;
    return -1;
}

// The word as the lab places it: after a space inside a sentence.
std::string in_sentence(const tok::Tokenizer& t, const std::string& word) {
    return t.family() == tok::Family::ByteLevelBpe ? " " + word : word;
}

std::vector<double> softmax(const std::vector<float>& logits) {
    const double max = *std::max_element(logits.begin(), logits.end());
    std::vector<double> p(logits.size());
    double sum = 0.0;
    for (size_t i = 0; i < p.size(); ++i) sum += p[i] = std::exp(double(logits[i]) - max);
    for (double& v : p) v /= sum;
    return p;
}

// Next-token logits of a prompt, from a session of its own.
std::vector<float> next_logits(const LabModelPtr& model, const std::string& prompt) {
    EngineSession s = make_engine_session(model);
    const std::vector<int32_t> ids = model->tokenizer->encode_ids(prompt, true, false);
    std::vector<float> logits(size_t(model->model->spec().n_vocab()));
    s.backend->forward({.tokens = ids, .logits = logits});
    return logits;
}

QString write_file(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(bytes);
    return path;
}

}  // namespace

class TestTokenizerLab : public QObject {
    Q_OBJECT
private slots:
    void chipsMatchModelTokenizer_data();
    void chipsMatchModelTokenizer();
    void countsUsePluralForms();
    void addedModelFileIsShown();
    void referenceTokenizersShown_data();
    void referenceTokenizersShown();
    void badFileReportedLabStaysAlive_data();
    void badFileReportedLabStaysAlive();
    void trainedCountsMatchCore_data();
    void trainedCountsMatchCore();
    void cancelStopsTraining();
    void fitsAProjector_data();
    void fitsAProjector();
    void misspellingTableMatchesCore_data();
    void misspellingTableMatchesCore();
    void nextTokenKlMatchesCore_data();
    void nextTokenKlMatchesCore();
    void mergesReplayEndsAtTokenization_data();
    void mergesReplayEndsAtTokenization();
};

void TestTokenizerLab::chipsMatchModelTokenizer_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("text");
    const QStringList texts = {QStringLiteral("Hello world"), QStringLiteral("I will definately come.\n  Twice!"),
                               QStringLiteral("naïve café 🙂 12345"), QStringLiteral("数据 tokens")};
    for (const char* m : {"fx-gqa", "smollm2"})
        for (int i = 0; i < texts.size(); ++i)
            QTest::newRow(QByteArray(m) + '/' + QByteArray::number(i)) << QString::fromLatin1(m) << texts[i];
}

void TestTokenizerLab::chipsMatchModelTokenizer() {
    QFETCH(QString, model);
    QFETCH(QString, text);
    const std::string path = model_path(model);
    LMSCOPE_REQUIRE_FILE(path, "the model");
    LabHost host(nullptr);
    host.setModel(load_lab_model(QString::fromStdString(path)));
    TokenizerLab lab(&host);
    QTRY_VERIFY_WITH_TIMEOUT(row_of(*lab.tokenizers(), TokenizerEntry::Kind::Model) == 0, 5000);
    lab.setText(text);
    const std::vector<int32_t> expected = host.model()->tokenizer->encode_ids(text.toStdString());
    QCOMPARE(shown_ids(lab.compareView()->chipsRow(0)), expected);
    QCOMPARE(lab.compareView()->statsLabel(0)->property("tokens").value<qsizetype>(), qsizetype(expected.size()));
    QVERIFY(lab.compareView()->statsLabel(0)->text().startsWith(QString::number(expected.size()) + QLatin1Char(' ')));
    // Byte pieces are marked: every byte-type token is a byte chip.
    const auto& chips = lab.compareView()->chipsRow(0)->chips();
    for (qsizetype i = 0; i < chips.size(); ++i)
        if (host.model()->tokenizer->type(chips[i].id) == tok::TokenType::Byte) QVERIFY(chips[i].byte);
}

// The counts under each row speak English plurals through Qt's %n ("1 character", not
// "1 characters"), and Chinese when it is chosen.
void TestTokenizerLab::countsUsePluralForms() {
    const std::string path = model_path(QStringLiteral("fx-gqa"));
    LMSCOPE_REQUIRE_FILE(path, "the model");
    gui::Language language;
    QVERIFY(language.apply(QStringLiteral("en")));
    LabHost host(nullptr);
    host.setModel(load_lab_model(QString::fromStdString(path)));
    TokenizerLab lab(&host);
    QTRY_VERIFY_WITH_TIMEOUT(row_of(*lab.tokenizers(), TokenizerEntry::Kind::Model) == 0, 5000);
    for (const QString& text : {QStringLiteral("a"), QStringLiteral("ab cd")}) {
        lab.setText(text);
        const qsizetype n = lab.compareView()->statsLabel(0)->property("tokens").value<qsizetype>();
        const QString expected = (n == 1 ? QStringLiteral("1 token · ") : QString::number(n) + QStringLiteral(" tokens · ")) +
                                 (text.size() == 1 ? QStringLiteral("1 character · ") : QString::number(text.size()) + QStringLiteral(" characters · "));
        const QString shown = lab.compareView()->statsLabel(0)->text();
        QVERIFY2(shown.startsWith(expected), qPrintable(shown + " / " + expected));
    }
    QVERIFY(language.apply(QStringLiteral("zh_CN")));
    QTRY_VERIFY(lab.compareView()->statsLabel(0)->text().contains(QStringLiteral("个字符")));
    QVERIFY(language.apply(QStringLiteral("en")));

    // 数 is not in the fixture's vocabulary: three byte pieces, each saying which of its bytes
    // it is and which chips spell it together.
    lab.setText(QStringLiteral("a数"));
    const QVector<widgets::Chip>& chips = lab.compareView()->chipsRow(0)->chips();
    qsizetype lead = -1;
    for (qsizetype i = 0; i < chips.size() && lead < 0; ++i)
        if (chips[i].byte) lead = i;
    QVERIFY(lead >= 0 && lead + 2 < chips.size());
    for (qsizetype b = 0; b < 3; ++b) {
        const QString tip = chips[lead + b].tooltip;
        QVERIFY2(tip.contains(QStringLiteral("byte %1 of 3 of “数”: chips %2–%3 spell it together")
                                  .arg(b + 1).arg(lead + 1).arg(lead + 3)),
                 qPrintable(tip));
    }
    QVERIFY(!chips[0].tooltip.contains(QStringLiteral("spell it together")));
}

void TestTokenizerLab::addedModelFileIsShown() {
    const std::string path = testing::testdata_file("tokenizer/fx-spm-1024.model");
    LMSCOPE_REQUIRE_FILE(path, "the fixture fx-spm-1024.model");
    LabHost host(nullptr);
    TokenizerLab lab(&host);
    QVERIFY(lab.addTokenizerFile(QString::fromStdString(path)));
    const qsizetype row = row_of(*lab.tokenizers(), TokenizerEntry::Kind::File);
    QVERIFY(row >= 0);
    QCOMPARE(lab.tokenizers()->at(row).name, QStringLiteral("fx-spm-1024.model"));
    const auto core = tok::load_tokenizer(path);
    for (const QString& text : {QStringLiteral("The quick brown fox jumps over the lazy dog."),
                                QStringLiteral("Copyright (C) 2024 naïve 🙂")}) {
        lab.setText(text);
        QCOMPARE(shown_ids(lab.compareView()->chipsRow(row)), core->encode_ids(text.toStdString()));
        QCOMPARE(lab.compareView()->statsLabel(row)->property("tokens").value<qsizetype>(),
                 qsizetype(core->encode_ids(text.toStdString()).size()));
    }
}

// GPT-4, GPT-4o and BERT sit after the model and before the sample tokenizer, say which
// algorithm they are, and show exactly the core tokenizer's ids.
void TestTokenizerLab::referenceTokenizersShown_data() {
    QTest::addColumn<int>("offset");  // rows after the model's
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("algorithm");
    QTest::addRow("GPT-4") << 0 << QStringLiteral("GPT-4 (cl100k_base)") << QStringLiteral("cl100k_base.tiktoken.gz")
                           << QStringLiteral("byte-level BPE (tiktoken ranks)");
    QTest::addRow("GPT-4o") << 1 << QStringLiteral("GPT-4o (o200k_base)") << QStringLiteral("o200k_base.tiktoken.gz")
                            << QStringLiteral("byte-level BPE (tiktoken ranks)");
    QTest::addRow("BERT") << 2 << QStringLiteral("BERT (bert-base-uncased)")
                          << QStringLiteral("bert-base-uncased-vocab.txt") << QStringLiteral("WordPiece");
}

void TestTokenizerLab::referenceTokenizersShown() {
    QFETCH(int, offset);
    QFETCH(QString, name);
    QFETCH(QString, file);
    QFETCH(QString, algorithm);
    for (const char* f : {"cl100k_base.tiktoken.gz", "o200k_base.tiktoken.gz", "bert-base-uncased-vocab.txt"})
        LMSCOPE_REQUIRE_FILE(testing::sample_tokenizer(f), "the reference tokenizers (sample_models/fetch.sh)");
    const std::string model = testing::testdata_file("models/fx-gqa.gguf");
    LMSCOPE_REQUIRE_FILE(model, "the fixture models");
    LabHost host(nullptr);
    host.setModel(load_lab_model(QString::fromStdString(model)));
    TokenizerLab lab(&host);
    QTRY_VERIFY_WITH_TIMEOUT(lab.sampleReady() && lab.referencesReady(), testing::sanitizer_timeout_ms(60000));
    const TokenizerSet& set = *lab.tokenizers();
    QCOMPARE(row_of(set, TokenizerEntry::Kind::Model), 0);
    QCOMPARE(row_of(set, TokenizerEntry::Kind::Sample), 4);
    const qsizetype row = 1 + offset;
    QCOMPARE(set.at(row).kind, TokenizerEntry::Kind::Reference);
    QCOMPARE(set.at(row).name, name);
    const auto* title = lab.compareView()->findChild<QLabel*>(QStringLiteral("tokenizerTitle%1").arg(row));
    QVERIFY(title);
    QVERIFY2(title->text().contains(algorithm), qPrintable(title->text()));
    const auto core = tok::load_tokenizer(testing::sample_tokenizer(file.toStdString()));
    for (const QString& text : {QStringLiteral("Tokenizers split unfamiliar words, like tokenisation or definately."),
                                QStringLiteral("Naïve café 12345 🙂 語言模型")}) {
        lab.setText(text);
        QCOMPARE(shown_ids(lab.compareView()->chipsRow(row)), core->encode_ids(text.toStdString()));
    }
    const auto* status = lab.findChild<QLabel*>(QStringLiteral("referenceStatus"));
    QVERIFY(status && !status->text().contains(QStringLiteral("Not shown")));
}

void TestTokenizerLab::badFileReportedLabStaysAlive_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addRow("garbage .model") << QStringLiteral("broken.model") << QByteArray("\x0a\xff\xff\xff\xff garbage", 14);
    QTest::addRow("truncated gguf") << QStringLiteral("broken.gguf") << QByteArray("GGUF\x03\x00\x00\x00not a model", 19);
    QTest::addRow("empty file") << QStringLiteral("empty.model") << QByteArray();
    QTest::addRow("missing file") << QStringLiteral("absent.gguf") << QByteArray("-");
}

void TestTokenizerLab::badFileReportedLabStaysAlive() {
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QTemporaryDir dir;
    QString path = write_file(dir, name, bytes);
    if (bytes == "-") QFile::remove(path);
    LabHost host(nullptr);
    TokenizerLab lab(&host);
    QTRY_VERIFY_WITH_TIMEOUT(lab.referencesReady(), testing::sanitizer_timeout_ms(60000));
    const qsizetype before = lab.tokenizers()->size();
    QVERIFY(!lab.addTokenizerFile(path));
    QVERIFY2(lab.lastError().contains(name), qPrintable(lab.lastError()));
    auto* box = lab.findChild<QMessageBox*>(QStringLiteral("tokenizerError"));
    QVERIFY(box);
    QVERIFY(box->text().contains(name));
    QCOMPARE(lab.tokenizers()->size(), before);
    // Still working: a good file is still accepted after the error.
    const std::string good = testing::testdata_file("tokenizer/fx-spm-1024.model");
    if (!good.empty()) QVERIFY(lab.addTokenizerFile(QString::fromStdString(good)));
    lab.setText(QStringLiteral("still alive"));
    QCOMPARE(lab.compareView()->text(), QStringLiteral("still alive"));
}

void TestTokenizerLab::trainedCountsMatchCore_data() {
    QTest::addColumn<int>("method");  // tok::TrainOptions::Model
    QTest::addColumn<int>("vocab");
    using Model = tok::TrainOptions::Model;
    QTest::addRow("bpe 500") << int(Model::Bpe) << 500;
    QTest::addRow("unigram 500") << int(Model::Unigram) << 500;
    QTest::addRow("wordpiece 500") << int(Model::WordPiece) << 500;
}

void TestTokenizerLab::trainedCountsMatchCore() {
    QFETCH(int, method);
    QFETCH(int, vocab);
    LabHost host(nullptr);
    TokenizerLab lab(&host);
    TokenizerTrainerPanel* trainer = lab.trainer();
    QSignalSpy trained(trainer, &TokenizerTrainerPanel::trained);
    trainer->setMethod(tok::TrainOptions::Model(method));
    trainer->setVocabSize(vocab);
    trainer->train();
    QVERIFY(trainer->isTraining());
    QTRY_VERIFY2_WITH_TIMEOUT(!trainer->isTraining(), qPrintable(trainer->lastError()), testing::sanitizer_timeout_ms(60000));
    QCOMPARE(trained.count(), 1);
    const qsizetype row = row_of(*lab.tokenizers(), TokenizerEntry::Kind::Trained);
    QVERIFY(row >= 0);
    QCOMPARE(lab.tokenizers()->at(row).tokenizer->vocab_size(), vocab);

    // The same training, done here with the core trainer, gives the chips the lab shows.
    tok::TrainOptions options;
    options.corpus_text = sample_corpus_text();
    options.model = tok::TrainOptions::Model(method);
    options.vocab_size = vocab;
    const auto core = tok::train_tokenizer(options);
    for (const QString& text : {QStringLiteral("The weather report says that a heron stood by the river."),
                                QStringLiteral("Tokenizers definately split 12345 naïve 🙂")}) {
        lab.setText(text);
        const std::vector<int32_t> expected = core->encode_ids(text.toStdString());
        QCOMPARE(shown_ids(lab.compareView()->chipsRow(row)), expected);
        QCOMPARE(lab.compareView()->statsLabel(row)->property("tokens").value<qsizetype>(), qsizetype(expected.size()));
    }
}

void TestTokenizerLab::cancelStopsTraining() {
    // A corpus large enough that training takes a while: many distinct made-up words.
    QTemporaryDir dir;
    QByteArray corpus;
    uint32_t x = 12345;
    for (int line = 0; line < 40000; ++line) {
        for (int w = 0; w < 10; ++w) {
            const int len = 3 + int((x = x * 1664525u + 1013904223u) >> 29);
            for (int k = 0; k < len; ++k) corpus += char('a' + ((x = x * 1664525u + 1013904223u) >> 27) % 26);
            corpus += ' ';
        }
        corpus += '\n';
    }
    const QString path = write_file(dir, QStringLiteral("big.txt"), corpus);
    LabHost host(nullptr);
    TokenizerLab lab(&host);
    QTRY_VERIFY_WITH_TIMEOUT(lab.sampleReady() && lab.referencesReady(), testing::sanitizer_timeout_ms(60000));
    TokenizerTrainerPanel* trainer = lab.trainer();
    QSignalSpy trained(trainer, &TokenizerTrainerPanel::trained);
    QSignalSpy running(trainer, &TokenizerTrainerPanel::runningChanged);
    trainer->setCorpusFile(path);
    trainer->setMethod(tok::TrainOptions::Model::Unigram);
    trainer->setVocabSize(4000);
    const qsizetype before = lab.tokenizers()->size();
    trainer->train();
    QVERIFY(trainer->isTraining());
    QTest::qWait(300);
    trainer->cancel();
    QVERIFY(!trainer->isTraining());
    QVERIFY2(trainer->lastError().isEmpty(), qPrintable(trainer->lastError()));  // stopped, not failed
    QCOMPARE(running.count(), 2);
    QCOMPARE(running.last().at(0).toBool(), false);
    QTest::qWait(1000);  // a late result would arrive here
    QCOMPARE(trained.count(), 0);
    QCOMPARE(lab.tokenizers()->size(), before);
    // The panel trains again afterwards.
    trainer->setCorpusFile(QString());
    trainer->setMethod(tok::TrainOptions::Model::Bpe);
    trainer->setVocabSize(500);
    trainer->train();
    QTRY_VERIFY2_WITH_TIMEOUT(trained.count() == 1, qPrintable(trainer->lastError()), testing::sanitizer_timeout_ms(60000));
}

void TestTokenizerLab::misspellingTableMatchesCore_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("word");
    for (const char* m : {"fx-gqa", "smollm2"})
        for (const char* w : {"definitely", "necessary", "receive"})
            QTest::newRow(QByteArray(m) + '/' + w) << QString::fromLatin1(m) << QString::fromLatin1(w);
}

// The lab at the sizes of a projector: side by side, every tokenizer's row (its name, kind,
// counts and Remove button) fits the width; the misspellings table's columns fill its width
// (half of it was empty); nothing is cut without a tooltip (issue 35).
void TestTokenizerLab::fitsAProjector_data() {
    QTest::addColumn<int>("mode");  // 0: side by side, 1: misspellings
    QTest::addColumn<QSize>("size");
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
        QTest::addRow("side by side %dx%d", size.width(), size.height()) << 0 << size;
        QTest::addRow("misspellings %dx%d", size.width(), size.height()) << 1 << size;
    }
}

void TestTokenizerLab::fitsAProjector() {
    QFETCH(int, mode);
    QFETCH(QSize, size);
    const std::string path = model_path(QStringLiteral("smollm2"));
    LMSCOPE_REQUIRE_FILE(path, "the model");
    LabHost host(nullptr);
    host.setModel(load_lab_model(QString::fromStdString(path)));
    TokenizerLab lab(&host);
    QTRY_VERIFY_WITH_TIMEOUT(lab.sampleReady() && lab.referencesReady(), testing::sanitizer_timeout_ms(60000));
    lab.resize(size);
    lab.show();
    lab.showMode(mode);
    QWidget* view = nullptr;
    if (mode == 0) {
        lab.compareView()->setText(QStringLiteral("Tokenizers split unfamiliar words, like tokenisation or definately, into more pieces."));
        view = lab.compareView();
    } else {
        lab.misspellingView()->setWord(QStringLiteral("definitely"));
        view = lab.misspellingView();
    }
    QTest::qWait(100);
    if (mode == 1) {
        const QTableWidget* table = lab.misspellingView()->table();
        int columns = 0;
        for (int c = 0; c < table->columnCount(); ++c) columns += table->horizontalHeader()->sectionSize(c);
        QVERIFY2(columns >= table->viewport()->width() - 1,
                 qPrintable(QStringLiteral("columns %1 px in a %2 px table").arg(columns).arg(table->viewport()->width())));
    }
    const QStringList problems = tools::clipped_texts(view);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestTokenizerLab::misspellingTableMatchesCore() {
    QFETCH(QString, model);
    QFETCH(QString, word);
    const std::string path = model_path(model);
    LMSCOPE_REQUIRE_FILE(path, "the model");
    LabHost host(nullptr);
    host.setModel(load_lab_model(QString::fromStdString(path)));
    TokenizerLab lab(&host);
    QTRY_VERIFY_WITH_TIMEOUT(lab.sampleReady() && lab.referencesReady() &&
                                 row_of(*lab.tokenizers(), TokenizerEntry::Kind::Model) == 0,
                             testing::sanitizer_timeout_ms(60000));
    // A GGUF vocabulary added as a file (Llama 2's), when the peer suites are present.
    const std::string llama = testing::testdata_file("vocab/ggml-vocab-llama-spm.gguf");
    if (!llama.empty()) QVERIFY(lab.addTokenizerFile(QString::fromStdString(llama)));
    MisspellingView* view = lab.misspellingView();
    view->setWord(word);
    const QStringList& variants = view->variants();
    QVERIFY(variants.size() > 5);
    QCOMPARE(variants.first(), word);
    const QTableWidget* table = view->table();
    QCOMPARE(table->rowCount(), int(variants.size()));
    QCOMPARE(table->columnCount(), int(lab.tokenizers()->size()));
    int changed = 0;
    for (int c = 0; c < table->columnCount(); ++c) {
        const tok::Tokenizer& t = *lab.tokenizers()->at(c).tokenizer;
        const qsizetype correct = qsizetype(t.encode_ids(in_sentence(t, word.toStdString())).size());
        for (int r = 0; r < table->rowCount(); ++r) {
            const qsizetype expected = qsizetype(t.encode_ids(in_sentence(t, variants[r].toStdString())).size());
            QCOMPARE(table->item(r, c)->data(Qt::UserRole).value<qsizetype>(), expected);
            const bool highlighted = table->item(r, c)->background().style() != Qt::NoBrush;
            QCOMPARE(highlighted, r > 0 && expected != correct);
            changed += highlighted;
        }
        qInfo("%s: %s %lld tokens, %s %lld", qPrintable(lab.tokenizers()->at(c).name), qPrintable(word),
              table->item(0, c)->data(Qt::UserRole).value<qsizetype>(), qPrintable(variants[1]),
              table->item(1, c)->data(Qt::UserRole).value<qsizetype>());
    }
    QVERIFY(changed > 0);
}

void TestTokenizerLab::nextTokenKlMatchesCore_data() {
    QTest::addColumn<QString>("model");
    QTest::addRow("fx-gqa") << QStringLiteral("fx-gqa");
    QTest::addRow("smollm2") << QStringLiteral("smollm2");
}

void TestTokenizerLab::nextTokenKlMatchesCore() {
    QFETCH(QString, model);
    const std::string path = model_path(model);
    LMSCOPE_REQUIRE_FILE(path, "the model");
    const LabModelPtr m = load_lab_model(QString::fromStdString(path));
    LabHost host(nullptr);
    host.setModel(m);
    TokenizerLab lab(&host);
    MisspellingView* view = lab.misspellingView();
    QSignalSpy finished(view, &MisspellingView::finished);
    // The lab compares at once when the model arrives; then with the misspelling picked here.
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1 && !view->isRunning(), testing::sanitizer_timeout_ms(60000));
    view->setWord(QStringLiteral("definitely"));
    view->setPromptTemplate(QStringLiteral("I will {word}"));
    view->selectMisspelling(QStringLiteral("definately"));
    const int before = int(finished.count());
    view->runNextToken();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() > before && !view->isRunning(), testing::sanitizer_timeout_ms(60000));
    QVERIFY(view->comparison().has_value());

    const std::vector<double> p = softmax(next_logits(m, "I will definitely"));
    const std::vector<double> q = softmax(next_logits(m, "I will definately"));
    double kl = 0.0;
    for (size_t i = 0; i < p.size(); ++i) kl += p[i] * std::log(p[i] / q[i]);
    const double shown = view->klLabel()->property("kl").toDouble();
    QVERIFY2(std::abs(shown - kl) <= 1e-6 + 1e-4 * kl, qPrintable(QStringLiteral("shown %1, core %2").arg(shown).arg(kl)));
    QVERIFY(view->klLabel()->text().contains(QString::number(shown, 'g', 4)));

    // The top tokens shown are the core session's: its greedy choice and the trace's top-k.
    engine::SessionOptions options = lab_session_options();
    options.capture.mode = trace::CaptureMode::None;
    EngineSession s = make_engine_session(m, {}, options);
    const auto& step = s.session->prefill(m->tokenizer->encode_ids("I will definately", true, false));
    const auto* table = view->findChild<QTableWidget*>(QStringLiteral("nextTokensMisspelled"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 5);
    const auto& top = step.logits.top_before();
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(table->item(i, 0)->data(Qt::UserRole).toInt(), top[size_t(i)].id);
        QVERIFY(std::abs(table->item(i, 1)->data(Qt::UserRole).toDouble() - double(top[size_t(i)].prob)) < 1e-4);
    }
}

void TestTokenizerLab::mergesReplayEndsAtTokenization_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("word");
    for (const char* s : {"sample", "fx-spm-1024", "llama-spm", "smollm2"})
        for (const char* w : {"definitely", "weather", "tokenizer", "the"})
            QTest::newRow(QByteArray(s) + '/' + w) << QString::fromLatin1(s) << QString::fromLatin1(w);
}

void TestTokenizerLab::mergesReplayEndsAtTokenization() {
    QFETCH(QString, source);
    QFETCH(QString, word);
    LabHost host(nullptr);
    if (source == QLatin1String("smollm2")) {
        LMSCOPE_REQUIRE_FILE(testing::sample_model(), "the sample model");
        host.setModel(load_lab_model(QString::fromStdString(testing::sample_model())));
    }
    TokenizerLab lab(&host);
    QTRY_VERIFY_WITH_TIMEOUT(lab.sampleReady(), testing::sanitizer_timeout_ms(60000));
    qsizetype row = -1;
    if (source == QLatin1String("sample")) {
        row = row_of(*lab.tokenizers(), TokenizerEntry::Kind::Sample);
    } else if (source == QLatin1String("smollm2")) {
        QTRY_VERIFY_WITH_TIMEOUT(row_of(*lab.tokenizers(), TokenizerEntry::Kind::Model) == 0, 5000);
        row = 0;
    } else {
        const std::string path = testing::testdata_file(source == QLatin1String("llama-spm")
                                                            ? "vocab/ggml-vocab-llama-spm.gguf"
                                                            : "tokenizer/fx-spm-1024.model");
        LMSCOPE_REQUIRE_FILE(path, "the tokenizer file");
        QVERIFY(lab.addTokenizerFile(QString::fromStdString(path)));
        row = row_of(*lab.tokenizers(), TokenizerEntry::Kind::File);
    }
    QVERIFY(row >= 0);
    BpeMergesView* view = lab.mergesView();
    view->setTokenizer(int(row));
    view->setWord(word);
    QCOMPARE(view->tokenizerIndex(), int(row));
    const auto& steps = view->steps();
    QVERIFY(steps.size() >= 2);
    for (size_t s = 1; s < steps.size(); ++s) QCOMPARE(steps[s].pieces.size() + 1, steps[s - 1].pieces.size());
    const tok::Tokenizer& t = *lab.tokenizers()->at(row).tokenizer;
    std::vector<std::string> expected;
    for (const tok::Token& k : t.encode(in_sentence(t, word.toStdString()))) expected.emplace_back(k.piece);
    QCOMPARE(steps.back().pieces, expected);
    QCOMPARE(shown_ids(view->finalChips()), t.encode_ids(in_sentence(t, word.toStdString())));
}

QTEST_MAIN(TestTokenizerLab)
#include "test_tokenizer_lab.moc"
