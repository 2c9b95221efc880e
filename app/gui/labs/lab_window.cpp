#include "gui/labs/lab_window.h"

#include "gui/labs/lab.h"
#include "gui/labs/lab_host.h"
#include "gui/labs/lab_registry.h"

#include <QAction>
#include <QEvent>
#include <QTabWidget>
#include <QVBoxLayout>

namespace lmscope::gui::labs {

LabWindow::LabWindow(LabHost* host, QWidget* parent) : QWidget(parent, Qt::Window), tabs_(new QTabWidget) {
    setObjectName(QStringLiteral("labWindow"));
    tabs_->setObjectName(QStringLiteral("labTabs"));
    tabs_->setDocumentMode(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    resize(1280, 800);

    for (const LabEntry& e : lab_registry()) add(e.make(host));
    addShortcuts();

    retranslate();
}

void LabWindow::addShortcuts() {
    // The main window's Labs menu shortcuts, and Close, work while this window has the focus.
    for (int i = 0; i < labs_.size() && i < 9; ++i) {
        auto* a = new QAction(this);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { tabs_->setCurrentIndex(i); });
        addAction(a);
    }
    auto* close_action = new QAction(this);
    QList<QKeySequence> close_keys = QKeySequence::keyBindings(QKeySequence::Close);
    if (!close_keys.contains(QKeySequence(Qt::CTRL | Qt::Key_W))) close_keys << QKeySequence(Qt::CTRL | Qt::Key_W);
    close_action->setShortcuts(close_keys);
    connect(close_action, &QAction::triggered, this, &QWidget::close);
    addAction(close_action);
}

void LabWindow::add(Lab* lab) {
    labs_.append(lab);
    tabs_->addTab(lab, lab->title());
    connect(lab, &Lab::titleChanged, this, [this, lab] {
        const int index = tabs_->indexOf(lab);
        if (index >= 0) tabs_->setTabText(index, lab->title());
        emit labTitlesChanged();
    });
}

void LabWindow::addBanner(QWidget* banner) {
    auto* column = static_cast<QVBoxLayout*>(layout());
    column->insertWidget(column->indexOf(tabs_), banner);
}

Lab* LabWindow::lab(LabId id) const { return labs_.value(lab_index(id)); }

void LabWindow::showLab(LabId id) { showLab(lab_index(id)); }

void LabWindow::showLab(int index) {
    if (index >= 0 && index < tabs_->count()) tabs_->setCurrentIndex(index);
    show();
    raise();
    activateWindow();
}

void LabWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void LabWindow::retranslate() { setWindowTitle(tr("lmscope labs")); }

}  // namespace lmscope::gui::labs
