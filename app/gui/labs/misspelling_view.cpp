#include "gui/labs/misspelling_view.h"

#include "gui/labs/lab.h"  // set_column_headers
#include "gui/labs/lab_host.h"
#include "gui/labs/tokenizer_chips.h"
#include "gui/labs/tokenizer_set.h"
#include "tokenizer/lab.h"
#include "tokenizer/tokenizer.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QEvent>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lmscope::gui::labs {

namespace {

const QColor kChanged(0xfd, 0xd0, 0x9c);  // a count that differs from the correct spelling's

QTableWidget* make_top_table(const QString& name) {
    auto* t = new QTableWidget(0, 2);
    t->setObjectName(name);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    t->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return t;
}

}  // namespace

MisspellingView::MisspellingView(const LabHost* host, TokenizerSet* set, QWidget* parent)
    : QWidget(parent), set_(set), host_(host), word_label_(new QLabel), word_(new QLineEdit(QStringLiteral("definitely"))),
      own_label_(new QLabel), own_(new QLineEdit(QStringLiteral("definately"))), hint_(new QLabel),
      table_(new QTableWidget), prompt_label_(new QLabel), prompt_(new QLineEdit), run_(new QPushButton),
      stop_(new QPushButton), status_(new QLabel), correct_title_(new QLabel), wrong_title_(new QLabel),
      top_correct_(make_top_table(QStringLiteral("nextTokensCorrect"))),
      top_wrong_(make_top_table(QStringLiteral("nextTokensMisspelled"))), kl_(new QLabel),
      runner_(new JobRunner(this)) {
    word_->setObjectName(QStringLiteral("misspellingWord"));
    own_->setObjectName(QStringLiteral("misspellingOwn"));
    table_->setObjectName(QStringLiteral("misspellingTable"));
    prompt_->setObjectName(QStringLiteral("misspellingPrompt"));
    run_->setObjectName(QStringLiteral("misspellingRun"));
    stop_->setObjectName(QStringLiteral("misspellingStop"));
    status_->setObjectName(QStringLiteral("misspellingStatus"));
    kl_->setObjectName(QStringLiteral("misspellingKl"));
    prompt_->setText(QStringLiteral("I will {word}"));
    hint_->setWordWrap(true);
    status_->setWordWrap(true);
    correct_title_->setWordWrap(true);
    wrong_title_->setWordWrap(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->viewport()->installEventFilter(this);  // its columns follow its width
    QFont big = kl_->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    kl_->setFont(big);

    auto* inputs = new QGridLayout;
    inputs->addWidget(word_label_, 0, 0);
    inputs->addWidget(word_, 0, 1);
    inputs->addWidget(own_label_, 0, 2);
    inputs->addWidget(own_, 0, 3);
    auto* upper = new QWidget;
    auto* upper_layout = new QVBoxLayout(upper);
    upper_layout->setContentsMargins(0, 0, 0, 0);
    upper_layout->addLayout(inputs);
    upper_layout->addWidget(hint_);
    upper_layout->addWidget(table_);

    auto* run_row = new QHBoxLayout;
    run_row->addWidget(prompt_label_);
    run_row->addWidget(prompt_, 1);
    run_row->addWidget(run_);
    run_row->addWidget(stop_);
    auto* tops = new QGridLayout;
    tops->addWidget(correct_title_, 0, 0);
    tops->addWidget(wrong_title_, 0, 1);
    tops->addWidget(top_correct_, 1, 0);
    tops->addWidget(top_wrong_, 1, 1);
    auto* lower = new QWidget;
    auto* lower_layout = new QVBoxLayout(lower);
    lower_layout->setContentsMargins(0, 0, 0, 0);
    lower_layout->addLayout(run_row);
    lower_layout->addWidget(status_);
    lower_layout->addLayout(tops, 1);
    lower_layout->addWidget(kl_);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(upper);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);  // the table's rows before the next tokens' five
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(word_, &QLineEdit::textChanged, this, &MisspellingView::rebuildTable);
    connect(own_, &QLineEdit::textChanged, this, &MisspellingView::rebuildTable);
    connect(set_, &TokenizerSet::changed, this, &MisspellingView::rebuildTable);
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const int row = table_->currentRow();
        if (row > 0 && row < variants_.size() && variants_[row] != selected_) {
            selected_ = variants_[row];
            if (model_) runNextToken();
        }
    });
    connect(run_, &QPushButton::clicked, this, &MisspellingView::runNextToken);
    connect(stop_, &QPushButton::clicked, this, &MisspellingView::stop);
    stop_->setEnabled(false);
    connect(runner_, &JobRunner::busyChanged, stop_, &QPushButton::setEnabled);
    connect(runner_, &JobRunner::failed, this, [this](const JobError& error) {
        const QString message = error.text();
        status_->setText(tr("The run failed: %1").arg(message));
        emit finished();
    });
    selected_ = own_->text();
    retranslate();
}

void MisspellingView::retranslate() {
    word_label_->setText(tr("Word:"));
    own_label_->setText(tr("Your own misspellings (comma-separated):"));
    hint_->setText(tr("Token counts of the word after a space, as inside a sentence. Orange: the count differs "
                      "from the correct spelling's. Pick a row to compare the model's next token."));
    prompt_label_->setText(tr("Prompt ({word} = the word):"));
    run_->setText(tr("Compare next token"));
    stop_->setText(tr("Stop"));
    for (QTableWidget* t : {top_correct_, top_wrong_})
        t->setHorizontalHeaderLabels({tr("next token"), tr("probability")});
    rebuildTable();
    showComparison();
}

void MisspellingView::setModel(const LabModelPtr& model) {
    runner_->abandon();
    model_ = model;
    comparison_.reset();
    run_->setEnabled(model_ != nullptr);
    showComparison();
    if (model_) runNextToken();
}

QString MisspellingView::misspelling() const { return selected_; }

QString MisspellingView::promptFor(const QString& word) const {
    QString p = prompt_->text();
    if (!p.contains(QStringLiteral("{word}"))) p += QStringLiteral(" {word}");
    return p.replace(QStringLiteral("{word}"), word);
}

void MisspellingView::setWord(const QString& word) { word_->setText(word); }
void MisspellingView::setOwnMisspellings(const QString& words) { own_->setText(words); }
void MisspellingView::setPromptTemplate(const QString& text) { prompt_->setText(text); }

void MisspellingView::selectMisspelling(const QString& word) {
    const qsizetype row = variants_.indexOf(word);
    selected_ = word;
    if (row > 0) table_->selectRow(int(row));
}

void MisspellingView::rebuildTable() {
    const QString word = word_->text().trimmed();
    variants_.clear();
    if (!word.isEmpty()) {
        variants_.push_back(word);
        for (const QString& own : own_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!variants_.contains(own.trimmed()) && !own.trimmed().isEmpty()) variants_.push_back(own.trimmed());
        for (const std::string& m : tok::misspellings(word.toStdString())) {
            const QString v = QString::fromStdString(m);
            if (!variants_.contains(v)) variants_.push_back(v);
        }
    }
    QSignalBlocker block(table_);
    table_->clear();
    table_->setRowCount(int(variants_.size()));
    table_->setColumnCount(int(set_->size()));
    QStringList headers;
    for (const TokenizerEntry& e : set_->entries()) headers << e.name;
    set_column_headers(table_, headers);
    table_->setVerticalHeaderLabels(variants_);
    for (int c = 0; c < set_->size(); ++c) {
        const tok::Tokenizer& t = *set_->at(c).tokenizer;
        qsizetype correct = -1;
        for (int r = 0; r < variants_.size(); ++r) {
            const QVector<widgets::Chip> chips = token_chips(t, word_in_context(t, variants_[r].toStdString()));
            QStringList labels;
            for (const widgets::Chip& chip : chips) labels << chip.label;
            auto* item = new QTableWidgetItem(QStringLiteral("%1   %2").arg(chips.size()).arg(labels.join(QLatin1Char('|'))));
            item->setData(Qt::UserRole, QVariant::fromValue(chips.size()));
            if (r == 0) {
                correct = chips.size();
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            } else if (chips.size() != correct) {
                item->setBackground(kChanged);
            }
            table_->setItem(r, c, item);
        }
    }
    fitColumns();
    if (!variants_.contains(selected_) || selected_ == word) selected_ = variants_.size() > 1 ? variants_[1] : QString();
    const qsizetype row = variants_.indexOf(selected_);
    if (row > 0) table_->selectRow(int(row));
}

void MisspellingView::fitColumns() {
    QHeaderView* header = table_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    table_->resizeColumnsToContents();
    const int n = table_->columnCount();
    int need = 0;
    for (int c = 0; c < n; ++c) need += header->sectionSize(c);
    const int room = table_->viewport()->width();
    if (n == 0 || need >= room) return;  // wider than the table: it scrolls sideways
    const int extra = (room - need) / n;
    for (int c = 0; c < n; ++c) header->resizeSection(c, header->sectionSize(c) + extra + (c == n - 1 ? (room - need) % n : 0));
}

bool MisspellingView::eventFilter(QObject* watched, QEvent* e) {
    if (watched == table_->viewport() && e->type() == QEvent::Resize) fitColumns();
    return QWidget::eventFilter(watched, e);
}

void MisspellingView::runNextToken() {
    runner_->abandon();
    const QString word = word_->text().trimmed();
    if (!model_ || word.isEmpty() || selected_.isEmpty()) {
        status_->setText(model_ ? tr("Enter a word first.") : tr("Open a model to compare its next-token distributions."));
        return;
    }
    const QString correct = promptFor(word), wrong = promptFor(selected_);
    status_->setText(tr("Running the model on both prompts…"));
    runner_->start(
        [model = model_, a = correct.toStdString(), b = wrong.toStdString(), engine = host_->engine()](const JobContext& job) {
            return compare_next_token(model, a, b, job.token(), 5, engine);
        },
        [this, correct, wrong](NextTokenComparison result) {
            comparison_ = std::move(result);
            compared_correct_ = correct;
            compared_wrong_ = wrong;
            status_->clear();
            showComparison();
            emit finished();
        });
}

void MisspellingView::stop() {
    if (!runner_->busy()) return;
    runner_->abandon();
    status_->setText(tr("Stopped."));
}

void MisspellingView::fillTop(QTableWidget* table, const std::vector<analysis::TokenProbs>& top, bool side_a) {
    table->setRowCount(int(top.size()));
    for (int i = 0; i < int(top.size()); ++i) {
        const std::string bytes = model_ ? model_->tokenizer->token_bytes(top[i].id, true) : std::string();
        auto* token = new QTableWidgetItem(tr("%1  (id %2)").arg(visible_text(bytes)).arg(top[i].id));
        token->setData(Qt::UserRole, top[i].id);
        const double p = side_a ? top[i].p_a : top[i].p_b;
        auto* prob = new QTableWidgetItem(QStringLiteral("%1 %").arg(p * 100.0, 0, 'f', 2));
        prob->setData(Qt::UserRole, p);
        table->setItem(i, 0, token);
        table->setItem(i, 1, prob);
    }
}

void MisspellingView::showComparison() {
    if (!comparison_) {
        correct_title_->setText(tr("After the correct prompt"));
        wrong_title_->setText(tr("After the misspelled prompt"));
        top_correct_->setRowCount(0);
        top_wrong_->setRowCount(0);
        kl_->clear();
        kl_->setProperty("kl", QVariant());
        return;
    }
    const NextTokenComparison& c = *comparison_;
    correct_title_->setText(tr("After “%1” (%Ln token(s))", nullptr, int(c.ids_a.size())).arg(compared_correct_));
    wrong_title_->setText(tr("After “%1” (%Ln token(s))", nullptr, int(c.ids_b.size())).arg(compared_wrong_));
    fillTop(top_correct_, c.next.top_a, true);
    fillTop(top_wrong_, c.next.top_b, false);
    kl_->setProperty("kl", c.next.kl_ab);
    kl_->setText(tr("KL(correct ‖ misspelled) = %1 nats over all %2 tokens")
                     .arg(c.next.kl_ab, 0, 'g', 4)
                     .arg(model_ ? model_->tokenizer->vocab_size() : 0));
}

}  // namespace lmscope::gui::labs
