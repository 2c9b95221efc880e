// MainWindow's step-through part: the Session menu, File > Open Trace / Save Trace / Export,
// View > Stage Mode, and the engine's error messages.
#include "gui/dock_layout.h"
#include "gui/main_window.h"
#include "gui/session_controller.h"
#include "gui/stage_view.h"
#include "widgets/export.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QScreen>
#include <QWindow>

#include <algorithm>

namespace lmscope::gui {

void MainWindow::createSessionActions() {
    open_trace_action_ = new QAction(this);
    open_trace_action_->setObjectName(QStringLiteral("openTraceAction"));
    open_trace_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(open_trace_action_, &QAction::triggered, this, &MainWindow::openTraceDialog);
    save_trace_action_ = new QAction(this);
    save_trace_action_->setObjectName(QStringLiteral("saveTraceAction"));
    save_trace_action_->setShortcut(QKeySequence::Save);
    connect(save_trace_action_, &QAction::triggered, this, &MainWindow::saveTraceDialog);
    stage_action_ = new QAction(this);
    stage_action_->setObjectName(QStringLiteral("stageAction"));
    stage_action_->setCheckable(true);
    stage_action_->setShortcut(QKeySequence(Qt::Key_F11));
    connect(stage_action_, &QAction::toggled, this, &MainWindow::setStageMode);
    leave_stage_action_ = new QAction(this);
    leave_stage_action_->setObjectName(QStringLiteral("leaveStageAction"));
    leave_stage_action_->setShortcut(QKeySequence(Qt::Key_Escape));
    leave_stage_action_->setEnabled(false);  // stage mode only: Esc is Stop's otherwise
    connect(leave_stage_action_, &QAction::triggered, this, [this] {
        if (session_->inFlight() || session_->isPlaying()) session_->stop();
        else setStageMode(false);
    });
    addAction(leave_stage_action_);
    reset_layout_action_ = new QAction(this);
    reset_layout_action_->setObjectName(QStringLiteral("resetLayoutAction"));
    connect(reset_layout_action_, &QAction::triggered, this, [this] { layout_->applyDefault(1.0); });
    for (const widgets::ExportFormat format : widgets::kExportFormats) {
        auto* a = new QAction(this);
        a->setObjectName(QStringLiteral("export_%1").arg(widgets::export_suffix(format)));
        connect(a, &QAction::triggered, this, [this, format] { exportChartDialog(format); });
        export_actions_ << a;
    }

    connect(session_, &SessionController::engineError, this, &MainWindow::showEngineError);
    connect(session_, &SessionController::engineLoaded, this, &MainWindow::showTitles);  // a replay's title goes
    connect(session_, &SessionController::statusMessage, this, [this](const QString& m) { say(m, 6000); });
    connect(session_, &SessionController::traceSaved, this, [this](const QString& path) {
        say(tr("Saved the trace to %1").arg(QDir::toNativeSeparators(path)), 8000);
    });
    connect(session_, &SessionController::traceOpened, this, [this](const QString& path) {
        setWindowTitle(tr("%1 (replay) — lmscope").arg(QFileInfo(path).fileName()));
        say(tr("Opened the trace %1: press Step (Space) to walk through it").arg(QFileInfo(path).fileName()), 8000);
    });
}

void MainWindow::createSessionMenus() {
    // File: Open Trace and Save Trace after Open Model, Export before Quit.
    QAction* first_separator = nullptr;
    for (QAction* a : file_menu_->actions())
        if (a->isSeparator()) { first_separator = a; break; }
    file_menu_->insertAction(first_separator, open_trace_action_);
    file_menu_->insertAction(first_separator, save_trace_action_);
    export_menu_ = new QMenu(this);
    export_menu_->addActions(export_actions_);
    file_menu_->insertMenu(first_separator, export_menu_);

    session_menu_ = new QMenu(this);
    session_menu_->addActions({session_->stepAction(), session_->playAction(), session_->stopAction(),
                               session_->resetAction()});
    session_menu_->addSeparator();
    session_menu_->addAction(session_->liveAction());
    menuBar()->insertMenu(help_menu_->menuAction(), session_menu_);
    addActions(session_menu_->actions());  // shortcuts work while the menu bar is hidden, too

    QAction* language_entry = language_menu_->menuAction();
    for (Panel p : session_->panels()) view_menu_->insertAction(language_entry, session_->dock(p)->toggleViewAction());
    view_menu_->insertSeparator(language_entry);
    view_menu_->insertAction(language_entry, stage_action_);
    view_menu_->insertAction(language_entry, layout_->workspaceAction());
    view_menu_->insertAction(language_entry, reset_layout_action_);
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (shown_) return;
    shown_ = true;
    // Each screen keeps its own layout: moving to another takes (or makes) that one's.
    connect(windowHandle(), &QWindow::screenChanged, this, [this] {
        if (stage_on_) return;  // the docks are hidden; leaving stage mode takes this screen's layout
        layout_->save(layout_->currentKey());
        takeLayout();
    });
    if (stage_on_) stage_->setFocus();  // Space steps and Page Down moves on from the start
    else session_->focusTokens();        // Space steps from the start
}

void MainWindow::retranslateSession() {
    session_menu_->setTitle(tr("&Session"));
    export_menu_->setTitle(tr("&Export Chart"));
    open_trace_action_->setText(tr("Open &Trace…"));
    open_trace_action_->setStatusTip(tr("Replay a saved trace without its model"));
    save_trace_action_->setText(tr("&Save Trace…"));
    stage_action_->setText(tr("&Stage Mode"));
    stage_action_->setStatusTip(tr("The lesson one stage at a time, large, for a projector (F11; Esc leaves)"));
    leave_stage_action_->setText(tr("Leave Stage Mode"));
    layout_->workspaceAction()->setText(tr("&Tensors and Metadata"));
    layout_->workspaceAction()->setStatusTip(tr("The model's tensor and metadata tables between the panels"));
    reset_layout_action_->setText(tr("Reset &Layout"));
    reset_layout_action_->setStatusTip(tr("Every panel back in its place, sized for this window"));
    for (size_t i = 0; i < widgets::kExportFormats.size(); ++i) {
        switch (widgets::kExportFormats[i]) {
        case widgets::ExportFormat::Png: export_actions_[qsizetype(i)]->setText(tr("Chart as PNG…")); break;
        case widgets::ExportFormat::Pdf: export_actions_[qsizetype(i)]->setText(tr("Chart as PDF…")); break;
        case widgets::ExportFormat::Csv: export_actions_[qsizetype(i)]->setText(tr("Data as CSV…")); break;
        case widgets::ExportFormat::Json: export_actions_[qsizetype(i)]->setText(tr("Data as JSON…")); break;
        }
    }
    session_->retranslate();
}

void MainWindow::openTraceDialog() {
    QSettings s;
    const QString folder = s.value(QStringLiteral("traceFolder"), QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace"), folder,
                                                      tr("lmscope traces (*.lmtrace *.safetensors);;All files (*)"));
    if (path.isEmpty()) return;
    s.setValue(QStringLiteral("traceFolder"), QFileInfo(path).absolutePath());
    session_->openTrace(path);
}

void MainWindow::saveTraceDialog() {
    if (!session_->hasEngine() || session_->isReplay()) {
        say(tr("There is no live session to save."), 6000);
        return;
    }
    QSettings s;
    const QString folder = s.value(QStringLiteral("traceFolder"), QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Trace"), folder + QStringLiteral("/session.lmtrace"),
                                                      tr("lmscope traces (*.lmtrace)"));
    if (path.isEmpty()) return;
    s.setValue(QStringLiteral("traceFolder"), QFileInfo(path).absolutePath());
    session_->saveTrace(path);  // atomic: the trace writer renames a finished temporary file
}

void MainWindow::setStageMode(bool on) {
    if (stage_action_->isChecked() != on) stage_action_->setChecked(on);  // toggled comes back here
    if (on == stage_on_) return;
    stage_on_ = on;
    QAction* stop = session_->stopAction();
    leave_stage_action_->setEnabled(on);
    reset_layout_action_->setEnabled(!on);
    layout_->workspaceAction()->setEnabled(!on);
    labs_menu_->setEnabled(!on);  // the labs a stage shows are lent to it
    if (on) {
        layout_->save(layout_->currentKey());  // the docks come back as they are
        stop_keys_ = stop->shortcuts();
        stop->setShortcuts({});  // Esc: the leave action, which also stops
        // out of the layout (the saved layout puts them back)
        for (QDockWidget* d : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) removeDockWidget(d);
        tables_ = takeCentralWidget();
        tables_->setParent(this);
        tables_->hide();
        setCentralWidget(stage_);
        stage_->show();
        stage_->raise();  // over the tabs of tabbed docks, which Qt's layout keeps showing
        stage_->showStage(stage_index_);
        stage_->setFocus();
        return;
    }
    stage_index_ = std::max(0, stage_->current());
    stage_->release();
    takeCentralWidget();
    stage_->setParent(this);
    stage_->hide();
    setCentralWidget(tables_);
    tables_->show();  // hidden when the stage took its place (the workspace is collapsed, never hidden)
    tables_ = nullptr;
    stop->setShortcuts(stop_keys_);
    takeLayout();  // the docks and tables as they were
    session_->focusTokens();
}

void MainWindow::showStage(int index) {
    stage_index_ = std::clamp(index, 0, stage_->count() - 1);
    if (!stage_on_) return setStageMode(true);
    stage_->showStage(stage_index_);
}

void MainWindow::showEngineError(const QString& message) {
    say(tr("Engine error"), 8000);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Engine error"), tr("The engine reported an error."),
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("engineErrorBox"));
    box->setInformativeText(message);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // window-modal, non-blocking
}

void MainWindow::exportChartDialog(widgets::ExportFormat format) {
    const ShownChart chart = chart_focus_->shown();  // before the dialog takes the focus
    if (!chart.plot) return say(tr("No chart is shown to export."), 8000);
    QSettings s;
    const QString folder = s.value(QStringLiteral("exportFolder"), QDir::homePath()).toString();
    const QString suffix = widgets::export_suffix(format);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart: %1").arg(chart.name),
                                                      folder + QLatin1Char('/') + chart.file_stem + QLatin1Char('.') + suffix,
                                                      QStringLiteral("*.%1").arg(suffix));
    if (path.isEmpty()) return;
    s.setValue(QStringLiteral("exportFolder"), QFileInfo(path).absolutePath());
    QString error;
    if (exportChart(chart, path, &error)) say(tr("Exported %1 to %2").arg(chart.name, QDir::toNativeSeparators(path)), 8000);
    else QMessageBox::warning(this, tr("Export Chart"), error);
}

bool MainWindow::exportFocusedChart(const QString& path, QString* error) { return exportChart(chart_focus_->shown(), path, error); }

bool MainWindow::exportChart(const ShownChart& chart, const QString& path, QString* error) {
    const std::optional<widgets::ExportFormat> format = widgets::export_format_of(path);
    if (!format) {
        if (error) *error = tr("%1: unknown export format (use %2)").arg(path, widgets::export_suffix_list());
        return false;
    }
    if (!chart.plot) {
        if (error) *error = tr("%1: no chart is shown to export").arg(path);
        return false;
    }
    std::optional<widgets::ChartTable> table;  // the numbers of the charts that keep them
    for (const SessionController::Chart c : SessionPanels::kCharts)
        if (session_->chartPlot(c) == chart.plot) table = session_->chartTable(c);
    const bool numbers = *format == widgets::ExportFormat::Csv || *format == widgets::ExportFormat::Json;
    if (numbers && !table) {
        if (error) *error = tr("%1 has no table of numbers: export it as PNG or PDF").arg(chart.name);
        return false;
    }
    switch (*format) {
    case widgets::ExportFormat::Png: return widgets::save_plot_png(chart.plot, path, error);
    case widgets::ExportFormat::Pdf: return widgets::save_plot_pdf(chart.plot, path, error);
    case widgets::ExportFormat::Csv: return widgets::save_table_csv(*table, path, error);
    case widgets::ExportFormat::Json: return widgets::save_table_json(*table, path, error);
    }
    return false;
}

}  // namespace lmscope::gui
