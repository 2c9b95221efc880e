// Chat lab, "the model keeps no memory": chat with the loaded model through its chat template
// and watch what each turn really costs. Every turn re-sends the whole conversation: the lab
// shows the token sequence the model received (earlier turns highlighted as re-sent, the new
// user text, the template's special tokens), the tokens prefilled per turn with and without
// prefix reuse (bar chart) and the cumulative cost. The reply streams in as it is decoded;
// Stop ends it early and the conversation goes on from there.
#pragma once

#include "gui/labs/chat_lab_engine.h"
#include "gui/labs/lab.h"
#include "gui/job_runner.h"

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTextBrowser;
class QTimer;

namespace lmscope::widgets {
class PrefillChart;
}

namespace lmscope::gui::labs {

class TokenListView;

class ChatLab : public Lab {
    Q_OBJECT
public:
    explicit ChatLab(LabHost* host, QWidget* parent = nullptr);

    bool isBusy() const { return runner_->busy(); }
    const std::vector<ChatTurnRecord>& turns() const { return turns_; }
    int partialReplyTokens() const;  // reply tokens decoded so far in the running turn

public slots:
    // Sends `text` as the next user turn (ignored while a turn runs or without a model).
    void sendMessage(const QString& text);
    void send();              // sends the input box's text
    void stop();              // ends the reply in progress
    void resetChat();         // a new conversation (empty cache)
    void setPrefixReuse(bool on);
    void setMaxReplyTokens(int n);
    void showTurn(int index);

signals:
    void turnFinished(int index);
    void busyChanged(bool busy);

protected:
    void modelChanged(const LabModelPtr& model) override;
    void retranslate() override;

private:
    void showBusy(bool busy);
    void finished(std::optional<ChatTurnRecord> turn);
    void failed(const QString& message);  // the turn threw
    void newEngine();
    void showTemplateNotice();
    void refreshTranscript();
    void refreshSequence();
    void buildLayout();
    void refreshChart();
    void refreshCost();

    QLabel* explanation_;
    QLabel* notice_;
    QTextBrowser* transcript_;
    QLineEdit* input_;
    QPushButton* send_;
    QPushButton* stop_;
    QPushButton* reset_;
    QCheckBox* reuse_;
    QLabel* max_label_;
    QSpinBox* max_reply_;
    StateText status_;  // the last thing the lab did, in the language shown
    QLabel* turn_label_;
    QComboBox* turn_picker_;
    QLabel* legend_;
    QLabel* summary_;
    TokenListView* tokens_;
    widgets::PrefillChart* chart_;
    QLabel* cost_;
    QTimer* stream_timer_;

    std::shared_ptr<ChatEngine> engine_;  // the conversation's session; null without a model
    LabModelPtr engine_model_;            // the model engine_ runs
    std::vector<ChatTurnRecord> turns_;
    QString pending_user_;                // the user text of the running turn
    JobRunner* runner_;                   // the running turn; reset and model changes abandon it
};

}  // namespace lmscope::gui::labs
