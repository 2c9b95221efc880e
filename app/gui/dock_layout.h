// Where the main window's docks sit. Two arrangements, picked by the room the window has once
// its fonts are counted (larger fonts need the room of a smaller window):
//   wide     Tokens over Timeline | Model along the top, Logits, KV Cache and Sampling side
//            by side along the bottom, the Tensors | Metadata tables between them, and
//            Attention | Attention Grid down the whole right side;
//   compact  Tokens along the top, Attention | Attention Grid down the right side, one tabbed
//            group along the bottom: Logits | KV Cache | Timeline | Model | Sampling, and the
//            tables hidden (View > Tensors and Metadata shows them).
// Each dock is given at least the height its panel needs at its width (no panel scrolls).
// The arrangement the user makes is kept per screen size (QSettings "layout/WxH", WxH the
// screen's available size): a screen seen for the first time, and View > Reset Layout, get the
// default arrangement for the window's present size. (Stage mode hides the docks: they come
// back as they were.)
// Nothing saved or restored goes past the screen: a window (or floating dock) wider or taller
// than the room the screens leave is shrunk and moved onto it first (a session that once
// widened the window to millions of pixels must not make every later one paint nothing).
#pragma once

#include <QObject>
#include <QTimer>
#include <QSize>
#include <QString>

#include <optional>

class QAction;
class QDockWidget;
class QWidget;

namespace lmscope::gui {

class MainWindow;

// Shrinks the top-level `window` (its frame included) to the available geometry of its screen
// and moves it inside it; no change when it fits or there is no screen. True when it changed.
bool fit_to_screen(QWidget* window);

// Keeps the top-level `window` within its screen each time it is shown: fitted (fit_to_screen)
// as it shows and again once the window manager has framed it, so no window opens taller or
// wider than the screen's room (1280x720 and up), whatever size it asks for or was saved at.
void keep_on_screen(QWidget* window);

class DockLayout : public QObject {
    Q_OBJECT
public:
    enum class Arrangement { Wide, Compact };

    // Arranges the docks of `window` (MainWindow::dock).
    explicit DockLayout(MainWindow* window);

    // Compact when the window, divided by `font_scale`, is under 1500×900.
    static Arrangement arrangementFor(QSize window, double font_scale);

    // Every dock shown, docked and placed as the arrangement for the window's size says, with
    // the sizes that arrangement gives each.
    void applyDefault(double font_scale);
    // The docks' sizes fitted again to what their panels need now (a hint dismissed or shown
    // again), where they sit left as they are. The window's resizing does it too, for an
    // arrangement applyDefault made (the rows would otherwise share the change of height
    // evenly, the Tokens dock growing empty while the panels below scroll).
    void refit(double font_scale);
    // The settings key for the window's screen now.
    QString key() const;
    void save(const QString& key) const;
    // The arrangement kept under `key`, or the default one when none is kept (or what is kept
    // no longer matches this window's docks); `key` becomes currentKey().
    void restoreOrDefault(const QString& key, double font_scale);
    const QString& currentKey() const { return current_; }
    // View > Tensors and Metadata: shows the window's central tables, or collapses them to no
    // height (kept per layout).
    QAction* workspaceAction() const { return workspace_action_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // the window resized: refit

private:
    void setWorkspaceShown(bool shown);
    // Gives each dock of the arrangement its width and height (after it is laid out): the
    // attention column's width, then (once that is laid out) fitRows.
    void fitDocks(bool compact);
    void fitRows(bool compact);
    int heatWidth(bool compact) const;  // the attention column's share of the window
    struct Docks {
        QDockWidget *tokens, *heat, *grid, *logits, *kv, *timeline, *spec, *sampling;
    };
    Docks find() const;

    MainWindow* window_;
    QAction* workspace_action_;
    QString current_;
    // The arrangement applyDefault put in place (kept with a saved layout); none for a layout
    // saved before it was kept.
    std::optional<Arrangement> arranged_;
    QTimer* resized_;  // coalesces the window's resize events into one refit
    int central_min_height_ = 0;  // the tables' minimum height while they are shown
};

}  // namespace lmscope::gui
