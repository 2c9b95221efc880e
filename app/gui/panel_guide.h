// "What am I looking at?" in the windows: a "?" in every dock's title bar (PanelTitleBar), in
// the corner of the central Tensors | Metadata tabs and in the corner of the lab window's tabs
// (the current lab); F1 (explainAction) explains the panel or lab that has the keyboard focus;
// on the first run each panel shows a one-line hint (HintBar) above its content, and the lab
// window one for the lab shown. A dismissed hint stays dismissed (QSettings "panelHints/
// dismissed", the object names of the panels) until Help > Show Panel Hints Again. The texts
// come from panel_help.h and follow the language as it changes, an open explanation included.
#pragma once

#include "gui/panel_help.h"

#include <QMap>
#include <QObject>

#include <optional>

class QAction;
class QWidget;

namespace lmscope::widgets {
class HelpButton;
class HelpPopover;
class HintBar;
}  // namespace lmscope::widgets

namespace lmscope::gui {
namespace labs {
class LabWindow;
}
class MainWindow;

class PanelGuide : public QObject {
    Q_OBJECT
public:
    // Finds the panels in `window` (its docks, MainWindow::dock, and its central tables) and the
    // labs in `labs` (by their object names, panel_object_name) and adds the "?" buttons and
    // hint bars to them.
    PanelGuide(MainWindow* window, labs::LabWindow* labs);

    QAction* explainAction() const { return explain_; }      // F1
    QAction* showHintsAction() const { return show_hints_; }  // Help > Show Panel Hints Again
    widgets::HelpPopover* popover() const { return popover_; }
    // The panel the popover explains while it is open.
    std::optional<Panel> shownPanel() const;
    // The "?" that explains `panel` (for a lab, the lab window's: it explains the lab shown).
    widgets::HelpButton* helpButton(Panel panel) const;
    // The hint bar of `panel` (for a lab, the lab window's: it shows the hint of the lab shown).
    widgets::HintBar* hintBar(Panel panel) const;
    bool isDismissed(Panel panel) const;
    // The panel or lab holding the keyboard focus, if any.
    std::optional<Panel> focusedPanel() const;

public slots:
    void explain(lmscope::gui::Panel panel);
    void showHintsAgain();

signals:
    // F1 with the focus in no panel (the window falls back to the lesson).
    void noPanelFocused();
    // A panel's hint was dismissed or the hints came back: the panels need other heights.
    void hintsChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // QEvent::LanguageChange

private:
    void addToDock(Panel panel);
    void addToTables(Panel panel);
    void addToLabs();
    widgets::HintBar* makeHint(Panel panel);
    void dismiss(Panel panel);
    void showLabHint();  // the hint of the lab shown now, unless it was dismissed
    Panel currentLab() const;
    void retranslate();

    MainWindow* window_;
    labs::LabWindow* labs_;
    widgets::HelpPopover* popover_;
    QAction* explain_;
    QAction* show_hints_;
    QMap<Panel, widgets::HelpButton*> buttons_;  // the panels of the main window
    QMap<Panel, widgets::HintBar*> hints_;
    QMap<const QWidget*, Panel> roots_;  // the widgets each panel of the main window is: its dock, the tables' box
    widgets::HelpButton* lab_button_ = nullptr;
    widgets::HintBar* lab_hint_ = nullptr;
    Panel shown_ = Panel::Tokens;  // what the popover explains (while it is visible)
};

}  // namespace lmscope::gui
