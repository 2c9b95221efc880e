#include "tools/window_driver.h"

#include "gui/labs/lab_window.h"
#include "gui/main_window.h"
#include "gui/panel_guide.h"
#include "gui/session_controller.h"
#include "widgets/hint_bar.h"
#include "widgets/trace_model.h"
#include "util/error.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTabWidget>
#include <QToolButton>
#include <QTimer>

namespace lmscope::tools {
namespace {

// Runs the event loop until `done()` or the timeout; false on timeout.
template <class Pred>
bool wait_until(Pred done, int timeout_ms) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeout_ms) return false;
        QApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
    }
    return true;
}

}  // namespace

WindowDriver::WindowDriver(gui::Language* language, int width, int height)
    : window_(std::make_unique<gui::MainWindow>(language)) {
    window_->resize(width, height);
    window_->show();
    pump(200);
}

WindowDriver::~WindowDriver() {
    window_->close();
    window_.reset();
}

void WindowDriver::openModel(const QString& path, int timeout_ms) {
    bool loaded = false;
    QString error;
    auto* session = window_->session();
    QObject guard;
    QObject::connect(session, &gui::SessionController::engineLoaded, &guard, [&] { loaded = true; });
    QObject::connect(session, &gui::SessionController::engineError, &guard, [&](const QString& m) { error = m; });
    QObject::connect(window_.get(), &gui::MainWindow::loadFailed, &guard, [&](const QString& m) { error = m; });
    window_->openFile(path);
    if (!wait_until([&] { return loaded || !error.isEmpty(); }, timeout_ms))
        throw Error(path.toStdString() + ": the engine did not load the model in time");
    if (!error.isEmpty()) throw Error(error.toStdString());
    pump(100);
}

void WindowDriver::step(int timeout_ms) {
    bool applied = false;
    QString error;
    auto* session = window_->session();
    QObject guard;
    QObject::connect(session, &gui::SessionController::applied, &guard, [&] { applied = true; });
    QObject::connect(session, &gui::SessionController::engineError, &guard, [&](const QString& m) { error = m; });
    session->step();
    if (!wait_until([&] { return applied || !error.isEmpty(); }, timeout_ms))
        throw Error("the step did not reach the panels in time");
    if (!error.isEmpty()) throw Error(error.toStdString());
}

void WindowDriver::playTo(int tokens, int timeout_ms) {
    gui::SessionController* session = window_->session();
    widgets::TraceModel* trace = session->model();
    QString error;
    QObject guard;
    QObject::connect(session, &gui::SessionController::engineError, &guard, [&](const QString& m) { error = m; });
    session->setPlaying(true);
    if (!wait_until([&] { return trace->sequenceLength() >= tokens || !session->isPlaying() || !error.isEmpty(); }, timeout_ms))
        throw Error("Play did not reach " + std::to_string(tokens) + " tokens in time");
    session->setPlaying(false);
    if (!error.isEmpty()) throw Error(error.toStdString());
    if (!wait_until([&] { return !session->inFlight(); }, timeout_ms)) throw Error("the last step of Play did not finish in time");
    pump(300);  // the coalesced apply
}

void WindowDriver::reset(int timeout_ms) {
    gui::SessionController* session = window_->session();
    session->reset();
    if (!wait_until([&] { return !session->inFlight(); }, timeout_ms)) throw Error("Reset did not finish in time");
    pump(300);  // the coalesced apply
}

void WindowDriver::dismissHints() {
    for (gui::Panel p : gui::all_panels()) {
        if (gui::is_lab(p)) {
            QTabWidget* tabs = window_->labWindow()->tabs();
            tabs->setCurrentIndex(tabs->indexOf(window_->labWindow()->findChild<QWidget*>(gui::panel_object_name(p))));
        }
        window_->panelGuide()->hintBar(p)->closeButton()->click();
    }
}

void WindowDriver::pump(int ms) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms)
        QApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, ms - int(clock.elapsed()));
}

}  // namespace lmscope::tools
