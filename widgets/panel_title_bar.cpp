#include "widgets/panel_title_bar.h"

#include "widgets/help_button.h"

#include <QDockWidget>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace lmscope::widgets {

PanelTitleBar::PanelTitleBar(QDockWidget* dock)
    : QWidget(dock), dock_(dock), title_(new QLabel), help_(new HelpButton), float_(new QToolButton), close_(new QToolButton) {
    setObjectName(QStringLiteral("panelTitleBar"));
    title_->setObjectName(QStringLiteral("panelTitle"));
    help_->setObjectName(QStringLiteral("panelHelp"));
    float_->setObjectName(QStringLiteral("panelFloat"));
    close_->setObjectName(QStringLiteral("panelClose"));
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    for (QToolButton* b : {float_, close_}) {
        b->setAutoRaise(true);
        b->setFocusPolicy(Qt::NoFocus);
    }
    float_->setIcon(style()->standardIcon(QStyle::SP_TitleBarNormalButton));
    close_->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 2, 0);
    layout->setSpacing(4);
    layout->addWidget(title_);
    layout->addWidget(help_);
    layout->addStretch(1);
    layout->addWidget(float_);
    layout->addWidget(close_);
    connect(float_, &QToolButton::clicked, dock_, [this] { dock_->setFloating(!dock_->isFloating()); });
    connect(close_, &QToolButton::clicked, dock_, &QDockWidget::close);
    connect(dock_, &QDockWidget::windowTitleChanged, this, &PanelTitleBar::follow);
    connect(dock_, &QDockWidget::featuresChanged, this, &PanelTitleBar::follow);
    dock_->setTitleBarWidget(this);
    follow();
    retranslate();
    fitButtons();
}

void PanelTitleBar::fitButtons() {
    // Icons a line tall, so the bar is no taller than the dock's own title bar.
    const int h = std::max(fontMetrics().height() - 6, 8);
    for (QToolButton* b : {float_, close_}) b->setIconSize(QSize(h, h));
}

void PanelTitleBar::retranslate() {
    float_->setToolTip(tr("Float or dock this panel"));
    close_->setToolTip(tr("Close this panel (the View menu shows it again)"));
}

void PanelTitleBar::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::FontChange) fitButtons();
}

QString PanelTitleBar::title() const { return title_->text(); }

void PanelTitleBar::follow() {
    title_->setText(dock_->windowTitle());
    float_->setVisible(dock_->features() & QDockWidget::DockWidgetFloatable);
    close_->setVisible(dock_->features() & QDockWidget::DockWidgetClosable);
}

}  // namespace lmscope::widgets
