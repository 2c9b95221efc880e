#include "gui_testing.h"

#include "common/testing.h"
#include "gui/session_controller.h"
#include "gui/step_controls.h"

#include <QApplication>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

namespace lmscope::testing {

void use_test_settings(const char* app_name) {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("lmscope-tests"));
    QApplication::setApplicationName(QString::fromLatin1(app_name));
    QSettings().clear();
}

bool within_screen(const QWidget& window) {
    const QSize room = QGuiApplication::primaryScreen()->availableGeometry().size();
    const QSize bound = room.expandedTo(window.minimumSizeHint()).expandedTo(window.minimumSize());
    return window.frameGeometry().width() <= bound.width() && window.frameGeometry().height() <= bound.height();
}

QString fixture_model() { return QString::fromStdString(testdata_file("models/fx-gqa.gguf")); }

std::unique_ptr<gui::MainWindow> open_window(gui::Language* language, const QString& prompt, const QString& model) {
    auto w = std::make_unique<gui::MainWindow>(language);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    QSignalSpy loaded(w->session(), &gui::SessionController::engineLoaded);
    w->openFile(model);
    if (!wait_for(loaded)) return nullptr;
    w->session()->controls()->setPrompt(prompt);
    return w;
}

bool step_and_wait(gui::SessionController* session) {
    QSignalSpy applied(session, &gui::SessionController::applied);
    session->step();
    return wait_for(applied);
}

bool save_trace(gui::SessionController* session, const QString& path) {
    QSignalSpy saved(session, &gui::SessionController::traceSaved);
    session->saveTrace(path);
    return wait_for(saved);
}

std::unique_ptr<gui::MainWindow> open_replay(gui::Language* language, const QString& path) {
    auto w = std::make_unique<gui::MainWindow>(language);
    w->show();
    if (!QTest::qWaitForWindowActive(w.get())) return nullptr;
    QSignalSpy opened(w->session(), &gui::SessionController::traceOpened);
    w->session()->openTrace(path);
    if (!wait_for(opened)) return nullptr;
    return w;
}

void settle() {
    for (int i = 0; i < 5; ++i) {
        QApplication::processEvents();
        QTest::qWait(20);
    }
}

}  // namespace lmscope::testing
