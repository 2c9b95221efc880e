// MainWindow's actions and menus (File, View, Labs, Help), the sample-model, recent-files, labs
// and language menus.
#include "gui/dock_layout.h"
#include "gui/help_window.h"
#include "gui/labs/lab.h"
#include "gui/labs/lab_window.h"
#include "gui/language.h"
#include "gui/main_window.h"

#include "gui/dock_layout.h"
#include "gui/panel_guide.h"
#include "gui/recent_files.h"
#include "gui/sample_model.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>

namespace lmscope::gui {

void MainWindow::createActions() {
    open_action_ = new QAction(this);
    open_action_->setShortcut(QKeySequence::Open);
    connect(open_action_, &QAction::triggered, this, &MainWindow::openDialog);

    quit_action_ = new QAction(this);
    quit_action_->setShortcut(QKeySequence::Quit);
    quit_action_->setMenuRole(QAction::QuitRole);
    connect(quit_action_, &QAction::triggered, this, &QWidget::close);

    about_action_ = new QAction(this);
    about_action_->setMenuRole(QAction::AboutRole);
    connect(about_action_, &QAction::triggered, this, &MainWindow::about);
    help_window_ = new HelpWindow(this);
    lesson_action_ = new QAction(this);
    lesson_action_->setObjectName(QStringLiteral("lessonAction"));
    connect(lesson_action_, &QAction::triggered, this, [this] { help_window_->showTopic(HelpWindow::Topic::Lesson); });
    glossary_action_ = new QAction(this);
    glossary_action_->setObjectName(QStringLiteral("glossaryAction"));
    connect(glossary_action_, &QAction::triggered, this,
            [this] { help_window_->showTopic(HelpWindow::Topic::Glossary); });

    language_group_ = new QActionGroup(this);
    language_group_->setExclusive(true);
}

void MainWindow::createMenus() {
    file_menu_ = menuBar()->addMenu(QString());
    file_menu_->addAction(open_action_);
    sample_menu_ = file_menu_->addMenu(QString());
    sample_menu_->setObjectName(QStringLiteral("sampleModelMenu"));
    // a model fetched while the app runs appears the next time the menu opens
    connect(sample_menu_, &QMenu::aboutToShow, this, &MainWindow::rebuildSampleMenu);
    recent_menu_ = file_menu_->addMenu(QString());
    file_menu_->addSeparator();
    file_menu_->addAction(quit_action_);

    view_menu_ = menuBar()->addMenu(QString());
    view_menu_->addAction(spec_dock_->toggleViewAction());
    view_menu_->addSeparator();
    language_menu_ = view_menu_->addMenu(QString());
    createLanguageMenu();

    labs_menu_ = menuBar()->addMenu(QString());
    connect(lab_window_, &labs::LabWindow::labTitlesChanged, this, &MainWindow::rebuildLabsMenu);

    help_menu_ = menuBar()->addMenu(QString());
    help_menu_->addActions({lesson_action_, glossary_action_});
    help_menu_->addSeparator();
    help_menu_->addAction(about_action_);
}

void MainWindow::createGuide() {
    guide_ = new PanelGuide(this, lab_window_);
    // F1 with the focus in no panel opens the lesson.
    connect(guide_, &PanelGuide::noPanelFocused, lesson_action_, &QAction::trigger);
    // a hint that goes or comes changes what each panel needs: the rows are fitted again
    connect(guide_, &PanelGuide::hintsChanged, this, [this] { layout_->refit(1.0); });
    QAction* first = help_menu_->actions().value(0);
    help_menu_->insertActions(first, {guide_->explainAction(), guide_->showHintsAction()});
    help_menu_->insertSeparator(first);
}

void MainWindow::openDialog() {
    QSettings s;
    const QString folder = s.value(QStringLiteral("lastFolder"), QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open GGUF Model"), folder, tr("GGUF models (*.gguf);;All files (*)"));
    if (path.isEmpty()) return;
    s.setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::rebuildRecentMenu() {
    recent_menu_->clear();
    const QStringList files = recent_->files();
    int n = 0;
    for (const QString& path : files) {
        ++n;
        // "&1 name" gives keyboard access to the first nine; the tooltip shows the full path.
        const QString text = n < 10 ? QStringLiteral("&%1  %2").arg(n).arg(QFileInfo(path).fileName())
                                    : QFileInfo(path).fileName();
        QAction* a = recent_menu_->addAction(text);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
    }
    if (files.isEmpty()) recent_menu_->addAction(tr("No recent files"))->setEnabled(false);
    recent_menu_->addSeparator();
    QAction* clear = recent_menu_->addAction(tr("&Clear Menu"));
    clear->setEnabled(!files.isEmpty());
    connect(clear, &QAction::triggered, recent_, &RecentFiles::clear);
}

void MainWindow::rebuildSampleMenu() {
    sample_menu_->clear();
    for (const SampleModel& m : sample_models()) {
        const QString title = QString::fromUtf8(m.title);
        const QString path = find_sample_model(m);
        QAction* a = sample_menu_->addAction(title);
        a->setStatusTip(sample_model_about(m));
        if (path.isEmpty()) {
            a->setText(tr("%1 (not fetched: run sample_models/fetch.sh)").arg(title));
            a->setEnabled(false);
            continue;
        }
        a->setToolTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
    }
}

void MainWindow::rebuildLabsMenu() {
    labs_menu_->clear();
    int i = 0;
    for (const labs::LabEntry& e : labs::lab_registry()) {
        QAction* a = labs_menu_->addAction(labs::lab_title(e.id));
        if (i < 9) a->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, lab_window_, [this, id = e.id] { lab_window_->showLab(id); });
        ++i;
    }
}

void MainWindow::createLanguageMenu() {
    for (const Language::Choice& c : Language::choices()) {
        QAction* a = language_menu_->addAction(c.name);
        a->setCheckable(true);
        a->setData(c.code);
        language_group_->addAction(a);
        const QString code = c.code;
        connect(a, &QAction::triggered, this, [this, code] { language_->apply(code); });
    }
}

void MainWindow::updateLanguageMenu() {
    for (QAction* a : language_group_->actions()) {
        const QString code = a->data().toString();
        if (code.isEmpty()) a->setText(tr("System Default"));
        a->setChecked(code == language_->current());
    }
}

}  // namespace lmscope::gui
