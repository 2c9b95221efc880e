#include "widgets/hint_bar.h"

#include "widgets/help_button.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace lmscope::widgets {

HintBar::HintBar(QWidget* parent) : QFrame(parent), text_(new QLabel), help_(new HelpButton), close_(new QToolButton) {
    setObjectName(QStringLiteral("hintBar"));
    // The tooltip colours: a note laid over the panel, readable on any palette.
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    setFrameShape(QFrame::StyledPanel);
    text_->setObjectName(QStringLiteral("hintText"));
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::PlainText);
    text_->setForegroundRole(QPalette::ToolTipText);
    help_->setObjectName(QStringLiteral("hintHelp"));
    close_->setObjectName(QStringLiteral("hintClose"));
    close_->setText(QStringLiteral("×"));
    close_->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 2, 2);
    layout->addWidget(text_, 1);
    layout->addWidget(help_, 0, Qt::AlignTop);
    layout->addWidget(close_, 0, Qt::AlignTop);
    connect(help_, &QAbstractButton::clicked, this, &HintBar::helpRequested);
    connect(close_, &QToolButton::clicked, this, [this] {
        hide();
        emit dismissed();
    });
    retranslate();
}

void HintBar::setText(const QString& hint) { text_->setText(hint); }

void HintBar::retranslate() {
    close_->setToolTip(tr("Dismiss this hint (Help > Show Panel Hints Again brings it back)"));
    close_->setAccessibleName(tr("Dismiss this hint"));
}

void HintBar::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    const int need = heightForWidth(width());
    if (need > 0 && need != minimumHeight()) setMinimumHeight(need);
}

void HintBar::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

QString HintBar::text() const { return text_->text(); }

}  // namespace lmscope::widgets
