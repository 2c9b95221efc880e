// Every window opens within a 1280x720 screen (issue 35: the main window and the labs opened
// taller than a projector's 720 pixels): the main window with no settings and with a geometry
// saved on a larger screen, the Labs window and the help windows. The suite runs on an offscreen
// screen of 1280x720 (its own main: the platform is chosen before the application starts).
#include "common/testing.h"
#include "gui_testing.h"
#include "gui/help_window.h"
#include "gui/labs/lab_window.h"
#include "gui/language.h"
#include "gui/main_window.h"

#include <QApplication>
#include <QFile>
#include <QScreen>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;

namespace {

constexpr QSize kScreen(1280, 720);

// The window's frame lies within the available room of its screen.
QString outside_screen(const QWidget& window) {
    const QRect room = window.screen()->availableGeometry();
    const QRect frame = window.frameGeometry();
    if (room.contains(frame)) return {};
    return QStringLiteral("%1: %2,%3 %4x%5 is not within the screen's %6x%7")
        .arg(window.objectName())
        .arg(frame.x()).arg(frame.y()).arg(frame.width()).arg(frame.height())
        .arg(room.width()).arg(room.height());
}

}  // namespace

class TestGuiScreenFit : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() {
        testing::use_test_settings("test_gui_screen_fit");
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry().size(), kScreen);
    }
    void cleanup() { QSettings().clear(); }

    // The main window, first with no settings, then with what a session on a larger screen saved.
    void mainWindowOpensWithin_data() {
        QTest::addColumn<QRect>("saved");  // empty: no saved geometry
        QTest::newRow("no settings") << QRect();
        QTest::newRow("saved on a 1920x1080 screen") << QRect(40, 30, 1860, 1000);
        QTest::newRow("saved below the screen") << QRect(600, 900, 900, 600);
    }
    void mainWindowOpensWithin() {
        QFETCH(QRect, saved);
        if (!saved.isEmpty()) {
            QWidget probe;  // what the window saved on the larger screen
            probe.setGeometry(saved);
            QSettings().setValue(QStringLiteral("window/geometry"), probe.saveGeometry());
        }
        gui::MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        testing::settle();
        const QString problem = outside_screen(w);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // The Labs window and the help windows, each as a menu opens it.
    void otherWindowsOpenWithin_data() {
        QTest::addColumn<QString>("which");
        QTest::newRow("labs") << QStringLiteral("labs");
        QTest::newRow("lesson") << QStringLiteral("lesson");
        QTest::newRow("glossary") << QStringLiteral("glossary");
    }
    void otherWindowsOpenWithin() {
        QFETCH(QString, which);
        gui::MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QWidget* window = nullptr;
        if (which == QLatin1String("labs")) {
            w.labWindow()->showLab(0);
            window = w.labWindow();
        } else {
            (which == QLatin1String("lesson") ? w.lessonAction() : w.glossaryAction())->trigger();
            window = w.helpWindow();
        }
        QVERIFY(QTest::qWaitForWindowExposed(window));
        testing::settle();
        const QString problem = outside_screen(*window);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        window->hide();
    }
};

int main(int argc, char** argv) {
    // An offscreen screen of a projector's size (the platform's own is 800x600).
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly)) return 2;
    f.write(QStringLiteral("{\"screens\": [{\"name\": \"projector\", \"x\": 0, \"y\": 0, \"width\": %1, \"height\": %2, "
                           "\"logicalDpi\": 96, \"logicalBaseDpi\": 96, \"dpr\": 1}]}")
                .arg(kScreen.width()).arg(kScreen.height()).toUtf8());
    f.close();
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + config).toUtf8());
    QApplication app(argc, argv);
    TestGuiScreenFit test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_gui_screen_fit.moc"
