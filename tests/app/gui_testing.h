// Helpers for the suites that drive the main window (test_gui_step_flow, test_gui_session_state,
// test_gui_layout, test_gui_faults, ...).
#pragma once

#include "gui/main_window.h"
#include "gui/session_controller.h"

#include <QDockWidget>
#include <QString>

#include <memory>

namespace lmscope::gui {
class Language;
}

namespace lmscope::testing {

// Qt's test mode for standard paths and a cleared QSettings under the organisation
// "lmscope-tests" and `app_name`, so a suite neither reads nor writes the user's settings.
void use_test_settings(const char* app_name);

// The window is no larger than the primary screen's available room, or than its own minimum
// where that is larger (the offscreen screen is 800 x 600); a window grown to millions of pixels
// fails it.
bool within_screen(const QWidget& window);

// Lets a window lay itself out at its new size (and apply a queued layout): a few rounds of events.
void settle();

// ../shared/testdata/models/fx-gqa.gguf (empty when the test data is absent).
QString fixture_model();
// A shown window with `model` (the fixture model unless given) loaded into the engine and
// `prompt` typed; null when the window was not exposed or the model did not load within the wait.
std::unique_ptr<gui::MainWindow> open_window(gui::Language* language, const QString& prompt,
                                             const QString& model = fixture_model());

// The widget of type W in the dock of `panel` (the heatmap in Panel::Attention's, ...); null
// when the session has no such dock or the dock no such widget.
template <class W> W* panel_widget(const gui::SessionController* session, gui::Panel panel) {
    const QDockWidget* dock = session->dock(panel);
    return dock ? dock->findChild<W*>() : nullptr;
}

// Presses Step and waits until the session has applied the step; false when it did not in time.
bool step_and_wait(gui::SessionController* session);

// Saves the session's trace to `path` and waits for it; false when it was not saved in time.
bool save_trace(gui::SessionController* session, const QString& path);
// A shown window with no model that has opened the trace at `path` (no step shown yet); null
// when the window was not exposed or the trace did not open within the wait.
std::unique_ptr<gui::MainWindow> open_replay(gui::Language* language, const QString& path);

}  // namespace lmscope::testing
