// Drives the real main window the way a user would, for the developer tools beside the app
// (the GUI benchmark, the screenshot tour and the walk): open a model, type a prompt, step, and wait for
// what the user would wait for. Waiting runs the event loop, so the window stays live.
#pragma once

#include <QString>

#include <memory>

namespace lmscope::gui {
class Language;
class MainWindow;
}  // namespace lmscope::gui

namespace lmscope::tools {

class WindowDriver {
public:
    // A window of `width` x `height`, shown; `language` must outlive it.
    WindowDriver(gui::Language* language, int width, int height);
    ~WindowDriver();

    gui::MainWindow& window() { return *window_; }

    // Opens `path` and waits until the engine has loaded it. Throws lmscope::Error with the
    // engine's message when it fails or takes longer than `timeout_ms`.
    void openModel(const QString& path, int timeout_ms = 120000);
    // Presses Step once (prefill when nothing is in the cache, else decode) and waits until
    // the panels show the step.
    void step(int timeout_ms = 120000);
    // Presses Play and waits until the sequence holds `tokens` tokens (or Play stops by itself,
    // at an end-of-text token), then pauses and waits for the step in flight.
    void playTo(int tokens, int timeout_ms = 600000);
    // Presses Reset and waits until the engine has done it.
    void reset(int timeout_ms = 120000);
    // Closes every panel's and lab's first-run hint (its "x"), as a user who has read them.
    void dismissHints();
    // Runs the event loop for `ms` milliseconds.
    static void pump(int ms);

private:
    std::unique_ptr<gui::MainWindow> window_;
};

}  // namespace lmscope::tools
