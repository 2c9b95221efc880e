#include "gui/panel_guide.h"

#include "gui/labs/lab_window.h"
#include "gui/main_window.h"
#include "widgets/help_button.h"
#include "widgets/help_popover.h"
#include "widgets/hint_bar.h"
#include "widgets/panel_title_bar.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QScrollArea>
#include <QSettings>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace lmscope::gui {

namespace {

const char* const kDismissedKey = "panelHints/dismissed";

QStringList dismissed_names() { return QSettings().value(QLatin1String(kDismissedKey)).toStringList(); }

// A panel with its hint above it. Its height for a width is the hint's (wrapped) plus the
// panel's own: its height for that width, or its minimum (a box layout would count the panel's
// preferred height instead, and the dock's scroll area would then scroll).
class HintedPanel : public QWidget {
public:
    HintedPanel(widgets::HintBar* hint, QWidget* content) : hint_(hint), content_(content) {
        setObjectName(content->objectName() + QStringLiteral("WithHint"));
        // A click anywhere in the panel gives it the focus (unless a control inside takes it),
        // so F1 then explains this panel.
        setFocusPolicy(Qt::ClickFocus);
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(kSpacing);
        layout->addWidget(hint);
        layout->addWidget(content, 1);
    }
    int heightForWidth(int width) const override {
        const int panel = content_->hasHeightForWidth() ? content_->heightForWidth(width) : -1;
        const int own = std::max({panel, content_->minimumSizeHint().height(), content_->minimumHeight()});
        return hint_->isHidden() ? own : hint_->heightForWidth(width) + kSpacing + own;
    }

private:
    static constexpr int kSpacing = 2;
    widgets::HintBar* hint_;
    QWidget* content_;
};

}  // namespace

PanelGuide::PanelGuide(MainWindow* window, labs::LabWindow* labs)
    : QObject(window), window_(window), labs_(labs), popover_(new widgets::HelpPopover(window)),
      explain_(new QAction(this)), show_hints_(new QAction(this)) {
    explain_->setObjectName(QStringLiteral("explainPanelAction"));
    explain_->setShortcut(QKeySequence::HelpContents);
    show_hints_->setObjectName(QStringLiteral("showPanelHintsAction"));
    connect(explain_, &QAction::triggered, this, [this] {
        if (const std::optional<Panel> p = focusedPanel()) explain(*p);
        else emit noPanelFocused();
    });
    connect(show_hints_, &QAction::triggered, this, &PanelGuide::showHintsAgain);
    // F1 works in the lab window too.
    window_->addAction(explain_);
    labs_->addAction(explain_);

    for (Panel p : all_panels()) {
        if (is_lab(p)) continue;
        if (p == Panel::Tables) addToTables(p);
        else addToDock(p);
    }
    addToLabs();
    window_->installEventFilter(this);
    retranslate();
}

void PanelGuide::addToDock(Panel panel) {
    QDockWidget* dock = window_->dock(panel);
    if (!dock) throw std::logic_error("PanelGuide: the window has no dock for a panel of the table");
    roots_[dock] = panel;
    auto* bar = new widgets::PanelTitleBar(dock);
    buttons_[panel] = bar->helpButton();
    connect(bar->helpButton(), &QAbstractButton::clicked, this, [this, panel] { explain(panel); });
    widgets::HintBar* hint = makeHint(panel);
    // The hint goes inside the dock's scroll area when the panel has one, so the dock's
    // sizing (DockLayout) counts it as part of the panel.
    auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
    QWidget* content = nullptr;
    if (scroll && scroll->metaObject() == &QScrollArea::staticMetaObject) {
        content = scroll->takeWidget();
        scroll->setWidget(new HintedPanel(hint, content));
    } else {
        content = dock->widget();
        dock->setWidget(new HintedPanel(hint, content));  // hides the widget it had (now in the box)
    }
    content->show();
}

void PanelGuide::addToTables(Panel panel) {
    auto* tabs = qobject_cast<QTabWidget*>(window_->centralWidget());
    if (!tabs || tabs->objectName() != panel_object_name(panel))
        throw std::logic_error("PanelGuide: the window's central widget is not the tables of the table");
    auto* button = new widgets::HelpButton;
    button->setObjectName(QStringLiteral("tablesHelp"));
    tabs->setCornerWidget(button, Qt::TopRightCorner);
    buttons_[panel] = button;
    connect(button, &QAbstractButton::clicked, this, [this, panel] { explain(panel); });
    widgets::HintBar* hint = makeHint(panel);
    window_->takeCentralWidget();
    QWidget* box = new HintedPanel(hint, tabs);
    roots_[box] = panel;  // the tables and their hint
    window_->setCentralWidget(box);
    tabs->show();
}

void PanelGuide::addToLabs() {
    lab_button_ = new widgets::HelpButton;
    lab_button_->setObjectName(QStringLiteral("labHelp"));
    labs_->tabs()->setCornerWidget(lab_button_, Qt::TopRightCorner);
    connect(lab_button_, &QAbstractButton::clicked, this, [this] { explain(currentLab()); });
    lab_hint_ = new widgets::HintBar;
    lab_hint_->setObjectName(QStringLiteral("labHintBar"));
    labs_->addBanner(lab_hint_);
    connect(lab_hint_, &widgets::HintBar::dismissed, this, [this] { dismiss(currentLab()); });
    connect(lab_hint_, &widgets::HintBar::helpRequested, this, [this] { explain(currentLab()); });
    connect(labs_->tabs(), &QTabWidget::currentChanged, this, &PanelGuide::showLabHint);
    showLabHint();
}

widgets::HintBar* PanelGuide::makeHint(Panel panel) {
    auto* hint = new widgets::HintBar;
    hint->setObjectName(panel_object_name(panel) + QStringLiteral("Hint"));
    hint->setVisible(!isDismissed(panel));
    connect(hint, &widgets::HintBar::dismissed, this, [this, panel] { dismiss(panel); });
    connect(hint, &widgets::HintBar::helpRequested, this, [this, panel] { explain(panel); });
    hints_[panel] = hint;
    return hint;
}

Panel PanelGuide::currentLab() const {
    const QWidget* lab = labs_->tabs()->currentWidget();
    const std::optional<Panel> p = lab ? panel_named(lab->objectName()) : std::nullopt;
    if (!p) throw std::logic_error("PanelGuide: a lab without a row in the panel table");
    return *p;
}

bool PanelGuide::isDismissed(Panel panel) const { return dismissed_names().contains(panel_object_name(panel)); }

void PanelGuide::dismiss(Panel panel) {
    QStringList names = dismissed_names();
    if (!names.contains(panel_object_name(panel))) names << panel_object_name(panel);
    QSettings().setValue(QLatin1String(kDismissedKey), names);
    if (is_lab(panel)) showLabHint();
    emit hintsChanged();
}

void PanelGuide::showHintsAgain() {
    QSettings().remove(QLatin1String(kDismissedKey));
    for (widgets::HintBar* hint : std::as_const(hints_)) hint->show();
    showLabHint();
    emit hintsChanged();
}

void PanelGuide::showLabHint() {
    const Panel lab = currentLab();
    lab_hint_->setText(panel_help(lab).hint);
    lab_hint_->setVisible(!isDismissed(lab));
}

widgets::HelpButton* PanelGuide::helpButton(Panel panel) const { return is_lab(panel) ? lab_button_ : buttons_.value(panel); }

widgets::HintBar* PanelGuide::hintBar(Panel panel) const { return is_lab(panel) ? lab_hint_ : hints_.value(panel); }

std::optional<Panel> PanelGuide::shownPanel() const {
    if (!popover_->isVisible()) return std::nullopt;
    return shown_;
}

std::optional<Panel> PanelGuide::focusedPanel() const {
    QWidget* w = QApplication::focusWidget();
    if (!w) w = window_->focusWidget();
    for (; w; w = w->parentWidget()) {
        if (const auto it = roots_.constFind(w); it != roots_.cend()) return *it;
        if (w == labs_) return currentLab();  // the lab window's tab bar or hint: the lab shown
        if (const std::optional<Panel> p = panel_named(w->objectName()); p && is_lab(*p)) return p;
    }
    return std::nullopt;
}

void PanelGuide::explain(Panel panel) {
    if (is_lab(panel)) {
        const int index = labs_->tabs()->indexOf(labs_->findChild<QWidget*>(panel_object_name(panel)));
        if (index >= 0) labs_->showLab(index);
    } else if (QDockWidget* dock = window_->dock(panel)) {
        dock->show();
        dock->raise();  // a dock behind another's tab comes to the front
    }
    shown_ = panel;
    const PanelHelp help = panel_help(panel);
    popover_->setContent(help.title, help.explanation);
    const QWidget* anchor = helpButton(panel);
    popover_->popup(anchor->isVisible() ? anchor : anchor->window());
}

void PanelGuide::retranslate() {
    explain_->setText(tr("&What Am I Looking At?"));
    explain_->setStatusTip(tr("Explains the panel or lab that has the keyboard focus (F1)"));
    show_hints_->setText(tr("Show Panel &Hints Again"));
    show_hints_->setStatusTip(tr("The one-line hint above each panel, as on the first run"));
    for (auto it = hints_.cbegin(); it != hints_.cend(); ++it) it.value()->setText(panel_help(it.key()).hint);
    lab_hint_->setText(panel_help(currentLab()).hint);
    if (popover_->isVisible()) {
        const PanelHelp help = panel_help(shown_);
        popover_->setContent(help.title, help.explanation);
    }
}

bool PanelGuide::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::LanguageChange) retranslate();
    return QObject::eventFilter(watched, event);
}

}  // namespace lmscope::gui
