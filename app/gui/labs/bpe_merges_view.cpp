#include "gui/labs/bpe_merges_view.h"

#include "gui/labs/tokenizer_chips.h"
#include "gui/labs/tokenizer_set.h"
#include "tokenizer/tokenizer.h"
#include "util/message.h"
#include "widgets/chips_row.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>

namespace lmscope::gui::labs {

namespace {

// Chips for vocabulary strings (the replay's pieces): the bytes each stands for.
QVector<widgets::Chip> piece_chips(const tok::Tokenizer& t, const std::vector<std::string>& pieces) {
    QVector<widgets::Chip> chips;
    for (const std::string& p : pieces) {
        widgets::Chip c;
        const auto id = t.find_piece(p);
        c.id = id.value_or(-1);
        c.byte = id && t.type(*id) == tok::TokenType::Byte;
        c.label = id ? visible_text(t.token_bytes(*id, true)) : QString::fromStdString(p);
        c.tooltip = id ? BpeMergesView::tr("id %1\npiece %2").arg(*id).arg(QString::fromStdString(p))
                       : BpeMergesView::tr("%1 (not in the vocabulary)").arg(QString::fromStdString(p));
        chips.push_back(std::move(c));
    }
    return chips;
}

}  // namespace

BpeMergesView::BpeMergesView(TokenizerSet* set, QWidget* parent)
    : QWidget(parent), set_(set), tokenizer_label_(new QLabel), tokenizer_(new QComboBox), word_label_(new QLabel),
      word_(new QLineEdit(QStringLiteral("definitely"))), status_(new QLabel), steps_box_(new QWidget),
      steps_layout_(new QVBoxLayout(steps_box_)), final_label_(new QLabel), final_chips_(new widgets::ChipsRow) {
    tokenizer_->setObjectName(QStringLiteral("mergesTokenizer"));
    word_->setObjectName(QStringLiteral("mergesWord"));
    status_->setObjectName(QStringLiteral("mergesStatus"));
    final_chips_->setObjectName(QStringLiteral("mergesFinalChips"));
    status_->setWordWrap(true);
    steps_box_->setObjectName(QStringLiteral("mergesSteps"));
    steps_layout_->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(steps_box_);

    auto* top = new QHBoxLayout;
    top->addWidget(tokenizer_label_);
    top->addWidget(tokenizer_, 1);
    top->addWidget(word_label_);
    top->addWidget(word_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(status_);
    layout->addWidget(scroll, 1);
    layout->addWidget(final_label_);
    layout->addWidget(final_chips_);

    connect(set_, &TokenizerSet::changed, this, &BpeMergesView::rebuildChoices);
    connect(tokenizer_, &QComboBox::currentIndexChanged, this, &BpeMergesView::replay);
    connect(word_, &QLineEdit::textChanged, this, &BpeMergesView::replay);
    retranslate();
    rebuildChoices();
}

void BpeMergesView::retranslate() {
    tokenizer_label_->setText(tr("Tokenizer:"));
    word_label_->setText(tr("Word:"));
    final_label_->setText(tr("The tokenizer's own result for the word (after a space):"));
    replay();
}

int BpeMergesView::tokenizerIndex() const { return tokenizer_->currentData().isValid() ? tokenizer_->currentData().toInt() : -1; }

void BpeMergesView::setTokenizer(int index) {
    const int at = tokenizer_->findData(index);
    if (at >= 0) tokenizer_->setCurrentIndex(at);
}

void BpeMergesView::setWord(const QString& word) { word_->setText(word); }

void BpeMergesView::rebuildChoices() {
    const int previous = tokenizerIndex();
    const QString previous_name = previous >= 0 && previous < tokenizer_->count() ? tokenizer_->currentText() : QString();
    {
        QSignalBlocker block(tokenizer_);
        tokenizer_->clear();
        int preferred = -1;  // a trained BPE model, else the sample, else the first
        for (int i = 0; i < int(set_->size()); ++i) {
            const TokenizerEntry& e = set_->at(i);
            tokenizer_->addItem(e.name, i);
            tokenizer_->setItemData(tokenizer_->count() - 1, e.detail, Qt::ToolTipRole);
            if (e.name == previous_name) preferred = i;
        }
        if (preferred < 0)
            for (int i = int(set_->size()) - 1; i >= 0; --i)
                if (set_->at(i).kind == TokenizerEntry::Kind::Trained || set_->at(i).kind == TokenizerEntry::Kind::Sample) {
                    preferred = i;
                    break;
                }
        tokenizer_->setCurrentIndex(preferred >= 0 ? preferred : 0);
    }
    replay();
}

void BpeMergesView::replay() {
    steps_.clear();
    while (steps_layout_->count() > 1) {  // the stretch stays last
        QLayoutItem* item = steps_layout_->takeAt(0);  // ours to delete, with its widget
        delete item->widget();
        delete item;
    }
    final_chips_->setChips({});
    const int index = tokenizerIndex();
    const std::string word = word_->text().trimmed().toStdString();
    if (index < 0 || index >= set_->size() || word.empty()) {
        status_->setText(tr("Pick a tokenizer and type a word."));
        return;
    }
    const TokenizerEntry& entry = set_->at(index);
    const tok::Tokenizer& t = *entry.tokenizer;
    try {
        if (merges_of_ != entry.tokenizer.get()) {
            merges_ = tok::list_merges(t);
            merges_of_ = entry.tokenizer.get();
            merges_owner_ = entry.tokenizer;
        }
        steps_ = replay_merges(t, merges_, word);
    } catch (...) {
        merges_of_ = nullptr;
        merges_owner_.reset();
        status_->setText(tr("No merges to replay: %1").arg(QString::fromStdString(exception_message(std::current_exception()))));
        return;
    }
    status_->setText(tr("%1; %n of them build(s) this word.", nullptr, int(steps_.size() - 1))
                         .arg(tr("%Ln merge(s) in %1", nullptr, int(merges_.size())).arg(entry.name)));
    for (size_t s = 0; s < steps_.size(); ++s) {
        const ReplayStep& step = steps_[s];
        auto* row = new QFrame;
        row->setFrameShape(QFrame::StyledPanel);
        auto* label = new QLabel;
        if (s == 0) {
            label->setText(tr("Start: the characters"));
        } else {
            const tok::Merge& m = merges_[size_t(step.rank)];
            label->setText(tr("Step %1: merge “%2” + “%3” → “%4” (merge #%5)")
                               .arg(s)
                               .arg(piece_chips(t, {m.left}).front().label, piece_chips(t, {m.right}).front().label,
                                    piece_chips(t, {step.pieces[step.at]}).front().label)
                               .arg(step.rank + 1));
        }
        auto* chips = new widgets::ChipsRow;
        chips->setChips(piece_chips(t, step.pieces));
        auto* box = new QVBoxLayout(row);
        box->addWidget(label);
        box->addWidget(chips);
        steps_layout_->insertWidget(steps_layout_->count() - 1, row);
    }
    final_chips_->setChips(token_chips(t, word_in_context(t, word)));
}

}  // namespace lmscope::gui::labs
