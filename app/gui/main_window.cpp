#include "gui/main_window.h"

#include "gui/dock_layout.h"
#include "gui/help_window.h"
#include "gui/status_notice.h"
#include "gui/labs/lab_host.h"
#include "gui/labs/lab_window.h"
#include "gui/labs/logit_lens_lab.h"
#include "gui/language.h"
#include "gui/model_document.h"
#include "gui/session_controller.h"
#include "gui/stage_view.h"
#include "gui/recent_files.h"
#include "gui/spec_figures.h"
#include "lmscope_version.h"
#include "widgets/filtered_table.h"
#include "widgets/format.h"
#include "widgets/metadata_model.h"
#include "widgets/spec_panel.h"
#include "widgets/tensor_table_model.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFrame>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <initializer_list>

namespace lmscope::gui {

namespace {
constexpr qsizetype kMaxStatusNameChars = 48;  // the model's name in the status bar
}  // namespace

MainWindow::MainWindow(Language* language, QWidget* parent)
    : QMainWindow(parent),
      language_(language),
      document_(new ModelDocument(this)),
      recent_(new RecentFiles(this)),
      tensor_model_(new widgets::TensorTableModel(this)),
      metadata_model_(new widgets::MetadataModel(this)),
      spec_(new widgets::SpecPanel),
      tensor_table_(new widgets::FilteredTable(tensor_model_, widgets::TensorTableModel::SortRole)),
      metadata_table_(new widgets::FilteredTable(metadata_model_, widgets::MetadataModel::SortRole)),
      tabs_(new QTabWidget),
      spec_dock_(new QDockWidget(this)),
      session_(nullptr) {
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

    tensor_table_->setObjectName(QStringLiteral("tensorTable"));
    metadata_table_->setObjectName(QStringLiteral("metadataTable"));
    tensor_table_->setStretchColumn(widgets::TensorTableModel::Name);
    tabs_->setObjectName(QStringLiteral("workspace"));
    tabs_->setDocumentMode(true);
    tabs_->addTab(tensor_table_, QString());
    tabs_->addTab(metadata_table_, QString());
    tabs_->setMinimumSize(160, 80);  // the step-through docks may take most of the window
    setCentralWidget(tabs_);

    spec_->setObjectName(QStringLiteral("specPanel"));
    spec_dock_->setObjectName(panel_object_name(Panel::Model));  // the name saveState() keys on
    spec_dock_->setWidget(spec_);
    addDockWidget(Qt::LeftDockWidgetArea, spec_dock_);
    session_ = new SessionController(this);
    layout_ = new DockLayout(this);  // arranges the docks (restoreSettings)
    notice_ = new StatusNotice(statusBar());
    chart_focus_ = new ChartFocus(this);
    lab_host_ = new labs::LabHost(session_->model(), this);
    lab_window_ = new labs::LabWindow(lab_host_, this);
    stage_ = new StageView(this);
    stage_->hide();

    createActions();
    createSessionActions();
    createMenus();
    createSessionMenus();
    createStatusBar();
    createGuide();

    connect(document_, &ModelDocument::modelChanged, this, &MainWindow::showModel);
    connect(document_, &ModelDocument::loadFailed, this, &MainWindow::showLoadError);
    connect(document_, &ModelDocument::busyChanged, this, &MainWindow::setBusy);
    connect(document_, &ModelDocument::loadStarted, this, [this](const QString& path) {
        say(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    });
    // Queued: "Clear Menu" changes the list from inside one of the actions the rebuild deletes.
    connect(recent_, &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu, Qt::QueuedConnection);
    connect(language_, &Language::changed, this, &MainWindow::updateLanguageMenu);
    // the labs run on the engine the session runs on
    connect(session_, &SessionController::engineLoaded, lab_host_, [this](const EngineInfo& info) { lab_host_->setEngine(info.options); });
    // the Layer view's residual stream, read layer by layer in the logit lens lab
    connect(session_, &SessionController::logitLensRequested, this, [this](const QString& text) {
        lab_window_->showLab(labs::LabId::LogitLens);
        lab_window_->lab<labs::LogitLensLab>(labs::LabId::LogitLens)->setPrompt(text);
    });

    // No window opens past the screen (a projector's 1280x720 included).
    for (QWidget* window : std::initializer_list<QWidget*>{this, lab_window_, help_window_}) keep_on_screen(window);
    retranslate();
    restoreSettings();
}

ShownChart MainWindow::shownChart() const { return chart_focus_->shown(); }

QDockWidget* MainWindow::dock(Panel panel) const { return panel == Panel::Model ? spec_dock_ : session_->dock(panel); }

MainWindow::~MainWindow() {
    stage_->release();  // every lent panel home while its dock is still there
    session_->shutdown();
}

void MainWindow::restoreSettings() {
    QSettings s;
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) resize(1200, 760);
    fit_to_screen(this);  // what was saved or asked for, never past the screen (again when shown)
    if (const QString problem = session_->restoreSettings(); !problem.isEmpty()) say(problem, 15000);
    stage_index_ = s.value(QStringLiteral("view/stageIndex"), 0).toInt();
    takeLayout();
    if (s.value(QStringLiteral("view/stage"), false).toBool())
        QTimer::singleShot(0, this, [this] { setStageMode(true); });  // after the layout is taken
}

void MainWindow::takeLayout() {
    QTimer::singleShot(0, this, [this] { layout_->restoreOrDefault(layout_->key(), 1.0); });
}

void MainWindow::say(const QString& text, int timeout_ms) { notice_->show(text, timeout_ms); }

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings s;
    fit_to_screen(this);  // never saved past the screen
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    if (!stage_on_) layout_->save(layout_->currentKey());  // stage mode saved it when it began
    s.setValue(QStringLiteral("view/stage"), stage_on_);
    s.setValue(QStringLiteral("view/stageIndex"), stage_on_ ? stage_->current() : stage_index_);
    session_->saveSettings();
    session_->shutdown();  // cancels a running step and joins the engine thread
    QMainWindow::closeEvent(e);
}

void MainWindow::createStatusBar() {
    busy_ = new QProgressBar;
    busy_->setRange(0, 0);  // indeterminate: the loader does not report progress
    busy_->setMaximumWidth(160);
    busy_->setTextVisible(false);
    busy_->hide();
    status_name_ = new QLabel;
    status_arch_ = new QLabel;
    status_size_ = new QLabel;
    status_name_->setObjectName(QStringLiteral("statusName"));
    status_arch_->setObjectName(QStringLiteral("statusArchitecture"));
    status_size_->setObjectName(QStringLiteral("statusSize"));
    statusBar()->addPermanentWidget(busy_);
    bool first = true;
    for (QLabel* l : {status_name_, status_arch_, status_size_}) {
        if (!first) {
            auto* bar = new QFrame;
            bar->setFrameShape(QFrame::VLine);
            bar->setFrameShadow(QFrame::Sunken);
            statusBar()->addPermanentWidget(bar);
        }
        first = false;
        l->setContentsMargins(6, 0, 6, 0);
        statusBar()->addPermanentWidget(l);
    }
}

void MainWindow::openFile(const QString& path) { document_->open(path); }

void MainWindow::setBusy(bool busy) { busy_->setVisible(busy); }

void MainWindow::showModel() {
    const std::shared_ptr<const LoadedModel> m = document_->model();
    if (!m) return;
    tensor_model_->setTensors(m->tensors);
    metadata_model_->setRows(m->metadata);
    const QFileInfo fi(m->path);
    recent_->add(fi.absoluteFilePath());
    QSettings().setValue(QStringLiteral("lastFolder"), fi.absolutePath());
    say(tr("Loaded %1 in %2 ms").arg(fi.fileName()).arg(m->load_ms), 8000);
    session_->loadModel(m->runnable);  // the file is parsed once, here and for the labs
    lab_host_->setEngine(session_->engineOptions());  // the labs run where the session runs
    lab_host_->setModel(m->runnable);
    retranslate();  // the spec, status and title texts depend on the model
}

void MainWindow::showLoadError(const QString& path, const QString& message) {
    const QString name = QFileInfo(path).fileName();
    say(tr("Could not open %1").arg(name), 8000);
    if (!QFileInfo::exists(path)) recent_->remove(path);
    // Window-modal and non-blocking: the window keeps painting, and the box goes away with it.
    auto* box = new QMessageBox(QMessageBox::Critical, tr("Cannot open model"),
                                tr("Could not open %1.").arg(name), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorBox"));
    box->setInformativeText(message);
    // Loader messages are long ("FILE: FIELD: REASON"): give them room instead of a narrow column.
    box->setStyleSheet(QStringLiteral("QLabel#qt_msgbox_informativelabel { min-width: 32em; }"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit loadFailed(message);
}

void MainWindow::about() {
    QMessageBox::about(
        this, tr("About lmscope"),
        tr("<h3>lmscope %1</h3>"
           "<p>Runs a language model one step at a time and shows what happens inside: "
           "tokens, attention, the KV cache, logits and sampling.</p>"
           "<p>Built with Qt %2.</p>")
            .arg(QStringLiteral(LMSCOPE_VERSION), QString::fromLatin1(qVersion())));
}

void MainWindow::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QMainWindow::changeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    const QList<QUrl> urls = e->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QList<QUrl> urls = e->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile()) return;
    e->acceptProposedAction();
    openFile(urls.front().toLocalFile());
}

void MainWindow::retranslate() {
    file_menu_->setTitle(tr("&File"));
    sample_menu_->setTitle(tr("Open Sa&mple Model"));
    rebuildSampleMenu();
    recent_menu_->setTitle(tr("Open &Recent"));
    view_menu_->setTitle(tr("&View"));
    language_menu_->setTitle(tr("&Language"));
    help_menu_->setTitle(tr("&Help"));
    labs_menu_->setTitle(tr("La&bs"));
    rebuildLabsMenu();
    open_action_->setText(tr("&Open Model…"));
    open_action_->setStatusTip(tr("Open a GGUF model file"));
    quit_action_->setText(tr("&Quit"));
    about_action_->setText(tr("&About lmscope"));
    lesson_action_->setText(tr("&Lesson"));
    lesson_action_->setStatusTip(tr("An 18-minute lesson with the sample model, step by step"));
    glossary_action_->setText(tr("&Glossary"));
    glossary_action_->setStatusTip(tr("Token, BPE, head, GQA, RoPE, prefill, decode, KV cache, logit, temperature, top-k/top-p/min-p"));
    spec_dock_->setWindowTitle(panel_help(Panel::Model).title);
    tabs_->setTabText(tabs_->indexOf(tensor_table_), tr("Tensors"));
    tabs_->setTabText(tabs_->indexOf(metadata_table_), tr("Metadata"));
    rebuildRecentMenu();
    updateLanguageMenu();
    retranslateSession();
    showTitles();
}

void MainWindow::showTitles() {
    const std::shared_ptr<const LoadedModel> m = document_->model();
    if (!m) {
        setWindowTitle(QStringLiteral("lmscope"));
        spec_->setSpec(tr("No model"), tr("Open a GGUF file (Ctrl+O) or drop one on this window."), {});
        status_name_->setText(tr("No model"));
        status_name_->setToolTip({});
        status_arch_->clear();
        status_size_->clear();
        return;
    }
    const QString file = QFileInfo(m->path).fileName();
    setWindowTitle(QStringLiteral("%1 — lmscope").arg(file));
    spec_->setSpec(SpecText::title(*m), SpecText::subtitle(*m), SpecText::figures(*m));
    // The file's base name, bounded: the status bar's fields set the window's minimum width.
    const QString title = SpecText::title(*m);
    status_name_->setText(widgets::elided(title, kMaxStatusNameChars));
    status_name_->setToolTip(title.size() > kMaxStatusNameChars ? widgets::tooltip_text(title) : QString());
    status_arch_->setText(QString::fromStdString(m->summary.hparams.architecture));
    status_size_->setText(widgets::format_bytes(m->summary.file_size));
}

}  // namespace lmscope::gui
