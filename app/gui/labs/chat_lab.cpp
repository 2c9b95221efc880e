#include "gui/labs/chat_lab.h"

#include "engine/model.h"
#include "gguf/gguf.h"
#include "gui/labs/lab_host.h"
#include "gui/labs/token_list_view.h"
#include "model/chat_template.h"
#include "tokenizer/tokenizer.h"
#include "widgets/format.h"
#include "widgets/prefill_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace lmscope::gui::labs {

namespace {

const QColor kCached(0xff, 0xe0, 0x82);    // earlier turns, kept in the cache
const QColor kRecomputed(0xff, 0xab, 0x91);  // earlier turns, computed again
const QColor kNew(0xb9, 0xf6, 0xca);        // this turn's new text

QString html_text(const std::string& s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size())).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

}  // namespace

ChatLab::ChatLab(LabHost* host, QWidget* parent)
    : Lab(LabId::Chat, host, parent), explanation_(new QLabel), notice_(new QLabel), transcript_(new QTextBrowser),
      input_(new QLineEdit), send_(new QPushButton), stop_(new QPushButton), reset_(new QPushButton),
      reuse_(new QCheckBox), max_label_(new QLabel), max_reply_(new QSpinBox),
      turn_label_(new QLabel), turn_picker_(new QComboBox), legend_(new QLabel), summary_(new QLabel),
      tokens_(new TokenListView), chart_(new widgets::PrefillChart), cost_(new QLabel), stream_timer_(new QTimer(this)),
      runner_(new JobRunner(this)) {
    setObjectName(QStringLiteral("chatLab"));
    explanation_->setObjectName(QStringLiteral("chatExplanation"));
    notice_->setObjectName(QStringLiteral("templateNotice"));
    transcript_->setObjectName(QStringLiteral("transcript"));
    input_->setObjectName(QStringLiteral("chatInput"));
    send_->setObjectName(QStringLiteral("sendButton"));
    stop_->setObjectName(QStringLiteral("stopButton"));
    reset_->setObjectName(QStringLiteral("resetButton"));
    reuse_->setObjectName(QStringLiteral("prefixReuse"));
    max_reply_->setObjectName(QStringLiteral("maxReply"));
    status_.label()->setObjectName(QStringLiteral("chatStatus"));
    turn_picker_->setObjectName(QStringLiteral("turnPicker"));
    summary_->setObjectName(QStringLiteral("sequenceSummary"));
    tokens_->setObjectName(QStringLiteral("fedTokens"));
    chart_->setObjectName(QStringLiteral("prefillChart"));
    cost_->setObjectName(QStringLiteral("costLabel"));

    explanation_->setWordWrap(true);
    notice_->setWordWrap(true);
    notice_->setVisible(false);
    notice_->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; padding: 4px; }"));
    legend_->setWordWrap(true);
    summary_->setWordWrap(true);
    status_.label()->setWordWrap(true);
    cost_->setWordWrap(true);
    transcript_->setOpenLinks(false);
    reuse_->setChecked(true);
    max_reply_->setRange(1, 1024);
    max_reply_->setValue(96);
    stop_->setEnabled(false);
    input_->setText(QStringLiteral("Hi! Who are you?"));  // model input, not UI text: not translated

    buildLayout();

    connect(send_, &QPushButton::clicked, this, &ChatLab::send);
    connect(input_, &QLineEdit::returnPressed, this, &ChatLab::send);
    connect(stop_, &QPushButton::clicked, this, &ChatLab::stop);
    connect(reset_, &QPushButton::clicked, this, &ChatLab::resetChat);
    connect(turn_picker_, &QComboBox::currentIndexChanged, this, [this] { refreshSequence(); });
    stream_timer_->setInterval(60);
    connect(stream_timer_, &QTimer::timeout, this, &ChatLab::refreshTranscript);
    connect(runner_, &JobRunner::busyChanged, this, &ChatLab::showBusy);
    connect(runner_, &JobRunner::failed, this, [this](const JobError& error) { failed(error.text()); });

    retranslate();
}

// The conversation on the left; what the model received and the cost on the right.
void ChatLab::buildLayout() {
    // Left: the conversation.
    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    lv->addWidget(explanation_);
    lv->addWidget(notice_);
    lv->addWidget(transcript_, 1);
    auto* input_row = new QHBoxLayout;
    input_row->addWidget(input_, 1);
    input_row->addWidget(send_);
    input_row->addWidget(stop_);
    lv->addLayout(input_row);
    lv->addWidget(reuse_);  // a row of its own: the conversation's column may be narrow
    auto* options = new QHBoxLayout;
    options->addWidget(max_label_);
    options->addWidget(max_reply_);
    options->addStretch(1);
    options->addWidget(reset_);
    lv->addLayout(options);
    lv->addWidget(status_.label());

    // Right: what the model received, and the cost.
    auto* seq = new QWidget;
    auto* sv = new QVBoxLayout(seq);
    auto* pick = new QHBoxLayout;
    pick->addWidget(turn_label_);
    pick->addWidget(turn_picker_, 1);
    sv->addLayout(pick);
    sv->addWidget(legend_);
    sv->addWidget(summary_);
    sv->addWidget(tokens_, 1);
    auto* cost = new QWidget;
    auto* cv = new QVBoxLayout(cost);
    chart_->setMinimumHeight(fontMetrics().height() * 16);  // its axis titles run along the axes
    cv->addWidget(chart_, 1);
    cv->addWidget(cost_);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(seq);
    right->addWidget(cost);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    right->setSizes({2000, 3000});  // scaled to the room: the chips scroll, the chart cannot

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({2000, 3000});  // scaled to the room: the chart's legend needs the width
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);
}

int ChatLab::partialReplyTokens() const { return runner_->busy() && engine_ ? engine_->partial_tokens() : 0; }

void ChatLab::modelChanged(const LabModelPtr& model) {
    if (engine_ && model == engine_model_) return;  // the conversation is on this model already
    newEngine();
    status_.set([loaded = bool(model), name = model ? model->name : QString()] {
        return loaded ? tr("Model: %1. Type a message and press Send.").arg(name) : tr("Open a model to chat.");
    });
}

void ChatLab::newEngine() {
    runner_->abandon();
    turns_.clear();
    pending_user_.clear();
    engine_model_ = model();
    engine_ = engine_model_ ? std::make_shared<ChatEngine>(engine_model_, engine()) : nullptr;
    showTemplateNotice();
    turn_picker_->clear();
    refreshTranscript();
    refreshSequence();
    refreshChart();
    refreshCost();
}

void ChatLab::showTemplateNotice() {
    notice_->setVisible(false);
    if (!engine_model_) return;
    const model::ChatTemplate tmpl =
        model::ChatTemplate::detect(model::chat_template_text(engine_model_->model->file()));
    if (tmpl.family != model::ChatFamily::Plain) return;
    notice_->setText(tr("This model has no chat template lmscope recognises, so the chat is plain "
                        "\"User: ... Assistant: ...\" text: %1")
                         .arg(QString::fromStdString(tmpl.notice)));
    notice_->setVisible(true);
}

void ChatLab::resetChat() {
    newEngine();
    status_.set([loaded = bool(model())] {
        return loaded ? tr("A new conversation: the cache is empty.") : tr("Open a model to chat.");
    });
}

void ChatLab::setPrefixReuse(bool on) { reuse_->setChecked(on); }

void ChatLab::setMaxReplyTokens(int n) { max_reply_->setValue(n); }

void ChatLab::send() {
    sendMessage(input_->text());
}

void ChatLab::sendMessage(const QString& text) {
    if (runner_->busy() || !model() || text.trimmed().isEmpty()) return;
    if (!engine_ || engine_model_ != model()) newEngine();
    pending_user_ = text;
    input_->clear();
    status_.set([] { return tr("Prefilling the whole conversation..."); });
    const std::shared_ptr<ChatEngine> engine = engine_;
    const std::string user = text.toStdString();
    const int32_t max_reply = max_reply_->value();
    const bool reuse = reuse_->isChecked();
    runner_->start(
        [engine, user, max_reply, reuse](const JobContext& job) -> std::optional<ChatTurnRecord> {
            try {
                return engine->run_turn(user, max_reply, reuse, job.token());
            } catch (const CancelledError&) {
                return std::nullopt;  // stopped during the prefill: the conversation is as before
            }
        },
        [this](std::optional<ChatTurnRecord> turn) { finished(std::move(turn)); });
}

void ChatLab::stop() {
    if (!runner_->busy()) return;
    runner_->stop();
    status_.set([] { return tr("Stopping..."); });
}

void ChatLab::showBusy(bool busy) {
    send_->setEnabled(!busy);
    stop_->setEnabled(busy);
    reset_->setEnabled(true);
    if (busy) stream_timer_->start();
    else stream_timer_->stop();
    emit busyChanged(busy);
}

void ChatLab::finished(std::optional<ChatTurnRecord> turn) {
    const QString user = pending_user_;
    pending_user_.clear();
    if (!turn) {
        input_->setText(user);
        status_.set([] { return tr("Stopped before the reply began; the conversation is as it was."); });
        refreshTranscript();
        return;
    }
    turns_.push_back(std::move(*turn));
    const int index = int(turns_.size()) - 1;
    const ChatTurnRecord& t = turns_.back();
    status_.set([stopped = t.stopped, hit_limit = t.hit_limit, n = t.generated] {
        return stopped     ? tr("Stopped after %n reply token(s).", nullptr, n)
               : hit_limit ? tr("The reply reached the maximum length (%n token(s)).", nullptr, n)
                           : tr("The model ended its turn after %n token(s).", nullptr, n);
    });
    turn_picker_->addItem(tr("turn %1").arg(index + 1));
    turn_picker_->setCurrentIndex(index);  // refreshes the sequence
    refreshTranscript();
    refreshChart();
    refreshCost();
    emit turnFinished(index);
}

void ChatLab::failed(const QString& message) {
    input_->setText(pending_user_);
    pending_user_.clear();
    status_.set([message] { return tr("The turn failed: %1").arg(message); });
    refreshTranscript();
}

void ChatLab::showTurn(int index) {
    if (index >= 0 && index < turn_picker_->count()) turn_picker_->setCurrentIndex(index);
}

void ChatLab::refreshTranscript() {
    QString html;
    auto add = [&](const QString& who, const QString& color, const QString& body, const QString& note) {
        html += QStringLiteral("<p><b style=\"color:%1\">%2</b> %3").arg(color, who.toHtmlEscaped(), body);
        if (!note.isEmpty()) html += QStringLiteral(" <i style=\"color:gray\">(%1)</i>").arg(note.toHtmlEscaped());
        html += QStringLiteral("</p>");
    };
    for (size_t i = 0; i < turns_.size(); ++i) {
        const ChatTurnRecord& t = turns_[i];
        add(tr("You:"), QStringLiteral("#1565c0"), html_text(t.user),
            tr("turn %1: %2 tokens sent, %3 computed").arg(i + 1).arg(t.sequence.size()).arg(t.fed));
        add(tr("Model:"), QStringLiteral("#2e7d32"), html_text(t.reply),
            t.stopped ? tr("stopped") : (t.hit_limit ? tr("maximum length") : QString()));
    }
    if (runner_->busy()) {
        add(tr("You:"), QStringLiteral("#1565c0"), pending_user_.toHtmlEscaped(), QString());
        const std::string partial = engine_ ? engine_->partial_reply() : std::string();
        add(tr("Model:"), QStringLiteral("#2e7d32"), html_text(partial) + QStringLiteral(" &#9646;"), QString());
    }
    transcript_->setHtml(html);
    transcript_->verticalScrollBar()->setValue(transcript_->verticalScrollBar()->maximum());
}

void ChatLab::refreshSequence() {
    const int index = turn_picker_->currentIndex();
    const LabModelPtr m = model();
    if (index < 0 || index >= int(turns_.size()) || !m) {
        tokens_->setTokens({});
        summary_->setText(tr("Send a message: the whole token sequence the model receives appears here."));
        return;
    }
    const ChatTurnRecord& t = turns_[size_t(index)];
    const tok::Tokenizer& tokenizer = *m->tokenizer;
    const tok::SpecialTokens& sp = tokenizer.special();
    QVector<TokenItem> items;
    items.reserve(qsizetype(t.sequence.size()));
    for (size_t p = 0; p < t.sequence.size(); ++p) {
        const int32_t id = t.sequence[p];
        TokenItem item;
        item.id = id;
        item.special = tokenizer.type(id) == tok::TokenType::Control || id == sp.bos || id == sp.eos || id == sp.eot;
        item.label = visible_token_text(tokenizer.token_bytes(id, true));
        if (item.label.isEmpty()) item.label = QString::fromStdString(tokenizer.piece(id));
        const bool cached = int32_t(p) < t.reused;
        const bool resent = int32_t(p) < t.resent;
        item.fill = cached ? kCached : (resent ? kRecomputed : kNew);
        const QString what = cached ? tr("kept in the cache (prefix reuse)")
                                    : (resent ? tr("an earlier turn, computed again") : tr("new this turn"));
        item.tooltip = tr("position %1, id %2, %3").arg(p).arg(id).arg(what);
        items.append(item);
    }
    tokens_->setTokens(items);
    summary_->setText(tr("Turn %1 sent %2 tokens: %3 re-send the earlier turns, %4 are new. "
                         "The engine computed %5 of them; %6 were kept in the cache.")
                          .arg(index + 1)
                          .arg(t.sequence.size())
                          .arg(t.resent)
                          .arg(int32_t(t.sequence.size()) - t.resent)
                          .arg(t.fed)
                          .arg(t.reused));
}

void ChatLab::refreshChart() {
    QVector<widgets::PrefillTurn> turns;
    for (const ChatTurnRecord& t : turns_) turns.append({double(t.with_reuse), double(t.without_reuse), double(t.generated)});
    chart_->setData(turns);
}

void ChatLab::refreshCost() {
    qint64 with = 0, without = 0, generated = 0;
    for (const ChatTurnRecord& t : turns_) {
        with += t.with_reuse;
        without += t.without_reuse;
        generated += t.generated;
    }
    if (turns_.empty()) {
        cost_->setText(tr("No turns yet."));
        return;
    }
    const double saved = without + generated > 0 ? 100.0 * double(without - with) / double(without + generated) : 0.0;
    cost_->setText(tr("Tokens processed so far (prefill + %1 generated): %2 with prefix reuse, %3 without "
                      "(reuse saves %4%).")
                       .arg(widgets::format_count(generated), widgets::format_count(with + generated),
                            widgets::format_count(without + generated), QString::number(saved, 'f', 0)));
}

void ChatLab::retranslate() {
    explanation_->setText(
        tr("A language model keeps no memory between calls: all it ever sees is one token sequence. To "
           "\"remember\" a conversation, the chat app renders the whole history with the model's chat template "
           "and sends all of it again every turn, so each turn costs more than the last. Prefix reuse keeps the "
           "part of the sequence the KV cache already holds and computes only the rest; the model still reads the "
           "whole history."));
    send_->setText(tr("Send"));
    stop_->setText(tr("Stop"));
    reset_->setText(tr("New conversation"));
    reuse_->setText(tr("Prefix reuse (keep the cached history)"));
    max_label_->setText(tr("Max reply tokens:"));
    input_->setPlaceholderText(tr("Type a message"));
    turn_label_->setText(tr("Sequence the model received in:"));
    for (int i = 0; i < turn_picker_->count(); ++i) turn_picker_->setItemText(i, tr("turn %1").arg(i + 1));
    legend_->setText(tr("<span style=\"background:%1\">&nbsp;earlier turns, kept in the cache&nbsp;</span> "
                        "<span style=\"background:%2\">&nbsp;earlier turns, computed again&nbsp;</span> "
                        "<span style=\"background:%3\">&nbsp;new this turn&nbsp;</span> "
                        "<b style=\"color:#6a1b9a\">bold purple</b>: the template's special tokens")
                         .arg(kCached.name(), kRecomputed.name(), kNew.name()));
    status_.refresh();
    refreshTranscript();
    showTemplateNotice();
    refreshSequence();
    refreshChart();
    refreshCost();
}

}  // namespace lmscope::gui::labs
