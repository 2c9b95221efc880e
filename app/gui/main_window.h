// lmscope's main window: a model's spec (the "Model" dock) and its tensors and metadata (the
// central tabs), opened from File > Open, File > Open Sample Model (the fetched sample models),
// File > Open Recent, a drop, or the command line, and
// the step-through session's panels (SessionController, SessionPanels) as docks around the central area. Loading runs
// off the UI thread; a bad file shows the loader's error in a message box and the previous
// model stays on screen. Stage mode (View > Stage Mode, F11) shows the lesson one stage at a
// time for a projector (StageView) in place of the docks and tables; Esc or F11 leaves it.
#pragma once

#include "gui/panel_help.h"
#include "gui/shown_chart.h"
#include "widgets/export.h"

#include <QKeySequence>
#include <QList>
#include <QMainWindow>
#include <QString>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;

namespace lmscope::widgets {
class FilteredTable;
class MetadataModel;
class SpecPanel;
class TensorTableModel;
}  // namespace lmscope::widgets

namespace lmscope::gui {
namespace labs {
class LabHost;
class LabWindow;
}  // namespace labs

class DockLayout;
class PanelGuide;
class StatusNotice;
class HelpWindow;
class Language;
class ModelDocument;
class RecentFiles;
class SessionController;
class StageView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // `language` (not owned) is switched from View > Language.
    explicit MainWindow(Language* language, QWidget* parent = nullptr);
    ~MainWindow() override;

    ModelDocument* document() const { return document_; }
    widgets::TensorTableModel* tensorModel() const { return tensor_model_; }
    widgets::MetadataModel* metadataModel() const { return metadata_model_; }
    widgets::SpecPanel* specPanel() const { return spec_; }
    SessionController* session() const { return session_; }
    // The dock of `panel` (the Model dock or one of the session's); null for the tables and labs.
    QDockWidget* dock(Panel panel) const;
    labs::LabHost* labHost() const { return lab_host_; }
    labs::LabWindow* labWindow() const { return lab_window_; }
    HelpWindow* helpWindow() const { return help_window_; }  // Help > Lesson / Glossary
    QAction* lessonAction() const { return lesson_action_; }
    QAction* glossaryAction() const { return glossary_action_; }
    QAction* stageAction() const { return stage_action_; }  // View > Stage Mode (F11)
    StageView* stageView() const { return stage_; }
    bool isStageMode() const { return stage_on_; }
    // View > Reset Layout: every dock back where the arrangement for this window's size puts it.
    QAction* resetLayoutAction() const { return reset_layout_action_; }
    DockLayout* dockLayout() const { return layout_; }
    // The chart File > Export writes now, with its name (shown_chart.h).
    ShownChart shownChart() const;
    // The "?" buttons, F1 and the first-run hints of every panel and lab.
    PanelGuide* panelGuide() const { return guide_; }

public slots:
    void openFile(const QString& path);
    void openDialog();
    void openTraceDialog();
    void saveTraceDialog();
    // Stage mode on (at the stage shown last) or off (the docks back as they were).
    void setStageMode(bool on);
    // Stage mode at stage `index` (0-based, clamped): for a clicker's jump and the screenshot walk.
    void showStage(int index);
    // Writes the chart shown that the user works with (shownChart()) to `path`: .png or .pdf the
    // picture, .csv or .json its numbers (the attention heatmap's, the KV cache's and the
    // logits'; other charts have none). Atomic; false and *error on failure.
    bool exportFocusedChart(const QString& path, QString* error = nullptr);

signals:
    // A file could not be opened; `message` is the loader's error (file, field, reason).
    void loadFailed(const QString& message);

protected:
    void changeEvent(QEvent* e) override;
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void createActions();
    void createMenus();
    void createStatusBar();
    void createGuide();  // after the docks and the Help menu
    void retranslate();
    void showTitles();  // the window title, the spec panel and the status bar's model figures
    void rebuildRecentMenu();
    void rebuildSampleMenu();  // one entry per sample model; those not fetched say so, greyed
    void rebuildLabsMenu();
    void createLanguageMenu();
    void updateLanguageMenu();
    void showModel();
    void showLoadError(const QString& path, const QString& message);
    void setBusy(bool busy);
    void about();
    void restoreSettings();
    // Shows `text` in the status bar for `timeout_ms` (0: until the next): StatusNotice.
    void say(const QString& text, int timeout_ms = 0);
    // Takes the dock layout kept for the screen now (or the default arrangement), once the
    // window has laid itself out.
    void takeLayout();
    // The step-through session (main_window_session.cpp).
    void createSessionActions();
    void createSessionMenus();
    void retranslateSession();
    void showEngineError(const QString& message);
    void exportChartDialog(widgets::ExportFormat format);
    bool exportChart(const ShownChart& chart, const QString& path, QString* error);

    Language* language_;
    ModelDocument* document_;
    RecentFiles* recent_;

    widgets::TensorTableModel* tensor_model_;
    widgets::MetadataModel* metadata_model_;
    widgets::SpecPanel* spec_;
    widgets::FilteredTable* tensor_table_;
    widgets::FilteredTable* metadata_table_;
    QTabWidget* tabs_;
    QDockWidget* spec_dock_;
    SessionController* session_;
    labs::LabHost* lab_host_ = nullptr;
    labs::LabWindow* lab_window_ = nullptr;
    HelpWindow* help_window_ = nullptr;
    StageView* stage_ = nullptr;       // the central widget in stage mode, else hidden
    QWidget* tables_ = nullptr;        // the central widget (the tables) while the stage shows
    bool stage_on_ = false;
    int stage_index_ = 0;              // the stage stage mode opens at
    QList<QKeySequence> stop_keys_;    // Stop's keys, which Esc's leaving takes in stage mode
    DockLayout* layout_ = nullptr;
    PanelGuide* guide_ = nullptr;
    StatusNotice* notice_ = nullptr;
    ChartFocus* chart_focus_ = nullptr;
    bool shown_ = false;

    QMenu* file_menu_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QMenu* sample_menu_ = nullptr;
    QMenu* view_menu_ = nullptr;
    QMenu* language_menu_ = nullptr;
    QMenu* help_menu_ = nullptr;
    QMenu* labs_menu_ = nullptr;
    QAction* open_action_ = nullptr;
    QAction* quit_action_ = nullptr;
    QAction* about_action_ = nullptr;
    QAction* lesson_action_ = nullptr;
    QAction* glossary_action_ = nullptr;
    QActionGroup* language_group_ = nullptr;
    QMenu* session_menu_ = nullptr;
    QMenu* export_menu_ = nullptr;
    QAction* open_trace_action_ = nullptr;
    QAction* save_trace_action_ = nullptr;
    QAction* stage_action_ = nullptr;
    QAction* leave_stage_action_ = nullptr;  // Esc in stage mode: stops a running step, else leaves
    QAction* reset_layout_action_ = nullptr;
    QList<QAction*> export_actions_;  // [widgets::kExportFormats]

    QLabel* status_name_ = nullptr;
    QLabel* status_arch_ = nullptr;
    QLabel* status_size_ = nullptr;
    QProgressBar* busy_ = nullptr;
};

}  // namespace lmscope::gui
