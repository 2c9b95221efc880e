#include "gui/step_controls.h"

#include <QAction>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

namespace lmscope::gui {

namespace {
QToolButton* button_for(QAction* a) {
    auto* b = new QToolButton;
    b->setDefaultAction(a);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    b->setFocusPolicy(Qt::NoFocus);  // Space and P stay with the window, not a button
    b->setMinimumWidth(72);
    return b;
}
}  // namespace

StepControls::StepControls(QAction* step, QAction* play, QAction* stop, QAction* reset, QWidget* parent)
    : QWidget(parent), prompt_(new QPlainTextEdit), speed_(new QSlider(Qt::Horizontal)),
      speed_label_(new QLabel), prompt_label_(new QLabel) {
    setObjectName(QStringLiteral("stepControls"));
    prompt_->setObjectName(QStringLiteral("promptEditor"));
    prompt_->setTabChangesFocus(true);
    prompt_->setFixedHeight(QFontMetrics(prompt_->font()).lineSpacing() * 3 + 12);
    speed_->setObjectName(QStringLiteral("speedSlider"));
    speed_->setRange(1, 20);
    speed_->setValue(4);
    speed_->setFocusPolicy(Qt::NoFocus);
    speed_->setMaximumWidth(160);
    connect(speed_, &QSlider::valueChanged, this, &StepControls::retranslate);

    auto* buttons = new QHBoxLayout;
    for (QAction* a : {step, play, stop, reset}) buttons->addWidget(button_for(a));
    buttons->addSpacing(12);
    buttons->addWidget(speed_);
    buttons->addWidget(speed_label_);
    buttons->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(prompt_label_);
    layout->addWidget(prompt_);
    layout->addLayout(buttons);
    retranslate();
}

QString StepControls::prompt() const { return prompt_->toPlainText(); }
void StepControls::setPrompt(const QString& text) { prompt_->setPlainText(text); }
int StepControls::speed() const { return speed_->value(); }
void StepControls::setSpeed(int steps_per_second) { speed_->setValue(steps_per_second); }

void StepControls::retranslate() {
    prompt_label_->setText(tr("Prompt"));
    prompt_->setPlaceholderText(tr("Type a prompt, then press Step (Space) with the focus outside this box."));
    speed_->setToolTip(tr("Play speed"));
    speed_label_->setText(tr("%n step(s)/s", nullptr, speed_->value()));
}

}  // namespace lmscope::gui
