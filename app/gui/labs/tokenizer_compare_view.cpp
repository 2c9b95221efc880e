#include "gui/labs/tokenizer_compare_view.h"

#include "gui/labs/tokenizer_chips.h"
#include "gui/labs/tokenizer_set.h"
#include "tokenizer/tokenizer.h"
#include "widgets/chips_row.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace lmscope::gui::labs {

TokenizerCompareView::TokenizerCompareView(TokenizerSet* set, QWidget* parent)
    : QWidget(parent), set_(set), text_label_(new QLabel), text_(new QPlainTextEdit), rows_box_(new QWidget),
      rows_layout_(new QVBoxLayout(rows_box_)) {
    text_->setObjectName(QStringLiteral("tokenizerText"));
    text_->setPlainText(tr("Tokenizers split text into pieces. I will definitely come, not definately!\n"
                           "Numbers: 12345 and 3.14159. Accents and emoji: naïve café 🙂"));
    rows_layout_->setContentsMargins(0, 0, 0, 0);
    rows_layout_->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("tokenizerRows"));
    scroll->setWidgetResizable(true);
    scroll->setWidget(rows_box_);

    auto* top = new QWidget;
    auto* top_layout = new QVBoxLayout(top);
    top_layout->setContentsMargins(0, 0, 0, 0);
    top_layout->addWidget(text_label_);
    top_layout->addWidget(text_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(scroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    // The text gets a few lines; the tokenizer rows get the rest.
    split->setSizes({text_->fontMetrics().lineSpacing() * 7, text_->fontMetrics().lineSpacing() * 60});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(text_, &QPlainTextEdit::textChanged, this, &TokenizerCompareView::refresh);
    connect(set_, &TokenizerSet::changed, this, &TokenizerCompareView::rebuild);
    retranslate();
    rebuild();
}

QString TokenizerCompareView::text() const { return text_->toPlainText(); }

void TokenizerCompareView::setText(const QString& text) { text_->setPlainText(text); }

void TokenizerCompareView::retranslate() {
    text_label_->setText(tr("Text (every tokenizer below splits it as you type):"));
    rebuild();
}

void TokenizerCompareView::rebuild() {
    for (const Row& r : rows_) {  // deleted later: a row's Remove button may be the caller
        rows_layout_->removeWidget(r.frame);
        r.frame->hide();
        r.frame->deleteLater();
    }
    rows_.clear();
    for (qsizetype i = 0; i < set_->size(); ++i) {
        const TokenizerEntry& e = set_->at(i);
        Row r;
        r.frame = new QFrame;
        static_cast<QFrame*>(r.frame)->setFrameShape(QFrame::StyledPanel);
        r.frame->setObjectName(QStringLiteral("tokenizerRow%1").arg(i));
        r.title = new QLabel(QStringLiteral("<b>%1</b> · %2").arg(e.name.toHtmlEscaped(),
                                                                   algorithm_name(*e.tokenizer).toHtmlEscaped()));
        r.title->setObjectName(QStringLiteral("tokenizerTitle%1").arg(i));
        r.title->setToolTip(e.detail);
        r.stats = new QLabel;
        r.stats->setObjectName(QStringLiteral("tokenizerStats%1").arg(i));
        r.chips = new widgets::ChipsRow;
        r.chips->setObjectName(QStringLiteral("tokenizerChips%1").arg(i));
        // The name, then the counts under it: a narrow lab wraps them rather than cutting the row off.
        r.title->setWordWrap(true);
        r.stats->setWordWrap(true);
        auto* head = new QHBoxLayout;
        head->addWidget(r.title, 1);
        if (e.kind != TokenizerEntry::Kind::Model) {
            auto* remove = new QToolButton;
            remove->setText(tr("Remove"));
            remove->setObjectName(QStringLiteral("removeTokenizer%1").arg(i));
            connect(remove, &QToolButton::clicked, this, [this, i] { emit removeRequested(i); });
            head->addWidget(remove);
        }
        auto* box = new QVBoxLayout(r.frame);
        box->addLayout(head);
        box->addWidget(r.stats);
        box->addWidget(r.chips);
        rows_layout_->insertWidget(rows_layout_->count() - 1, r.frame);
        rows_.push_back(r);
    }
    refresh();
}

void TokenizerCompareView::refresh() {
    const std::string text = text_->toPlainText().toStdString();
    const qsizetype chars = character_count(text);
    for (qsizetype i = 0; i < rows_.size() && i < set_->size(); ++i) {
        const Row& r = rows_[i];
        const QVector<widgets::Chip> chips = token_chips(*set_->at(i).tokenizer, text);
        r.chips->setChips(chips);
        const auto bytes = std::count_if(chips.begin(), chips.end(), [](const widgets::Chip& c) { return c.byte; });
        const qsizetype n = chips.size();
        r.stats->setProperty("tokens", QVariant::fromValue(n));
        const QString dot = QStringLiteral(" · ");
        r.stats->setText(tr("%n token(s)", nullptr, int(n)) + dot + tr("%n character(s)", nullptr, int(chars)) + dot +
                         tr("%1 characters per token").arg(n ? QString::number(double(chars) / double(n), 'f', 2) : QStringLiteral("–")) +
                         dot + tr("%n byte piece(s)", nullptr, int(bytes)));
    }
}

}  // namespace lmscope::gui::labs
