// lmscope-screenshots: the picture tour for docs/. Opens the real window on a model (the
// sample model by default), types a prompt, steps, and saves what a user sees: the whole
// window and each panel on its own (docs/screenshots/panel-*.png), then each lab
// (lab-*.png, app/tools/lab_tour.cpp); the first-run hints are dismissed first. With --hints it
// keeps them and saves the window with its hints (window.png), with the Attention panel's "?"
// explanation open over it (attention-explained.png), and the lab window at the KV cache lab
// with its hint and explanation (lab-explained.png). With --stage N it saves stage mode at
// stage N (1-based) as window.png; with --stage all, every stage (stage-N-ID.png) and nothing
// else. scripts/screenshots.sh runs
// it under Xvfb. Each picture is the widget's own rendering (QWidget::grab), at the size the
// window gives it.
// Usage: lmscope-screenshots [--model PATH] [--out DIR] [--prompt TEXT] [--steps N] [--no-labs]
//        [--lang CODE] [--size WxH] [--stage N|all] [--window-only] [--hints]
#include "backend_factory.h"
#include "gui/language.h"
#include "gui/layer_view.h"
#include "gui/labs/lab_window.h"
#include "gui/main_window.h"
#include "gui/panel_guide.h"
#include "gui/sample_model.h"
#include "gui/session_controller.h"
#include "gui/stage_registry.h"
#include "gui/stage_view.h"
#include "gui/step_controls.h"
#include "tools/lab_tour.h"
#include "tools/window_driver.h"
#include "util/error.h"
#include "widgets/help_popover.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QScrollArea>
#include <QTabWidget>
#include <QDockWidget>
#include <QPainter>
#include <QPixmap>
#include <QToolButton>
#include <QTextStream>

#include <exception>
#include <functional>
#include <vector>

using namespace lmscope;

namespace {

class Tour {
public:
    Tour(tools::WindowDriver& driver, QString out) : driver_(driver), out_(std::move(out)) {}

    // Saves `widget` as OUT/file.
    void save(QWidget* widget, const QString& file) {
        tools::WindowDriver::pump(300);  // queued replots and paints
        const QString path = QDir(out_).filePath(file);
        if (!widget->grab().save(path)) throw IoError(path.toStdString() + ": cannot write the picture");
        QTextStream(stdout) << "wrote " << path << "\n";
    }

    // Saves `widget` with the popup `over` drawn where it lies on the screen, as a user sees it.
    void saveWithPopup(QWidget* widget, QWidget* over, const QString& file) {
        tools::WindowDriver::pump(300);
        QPixmap picture = widget->grab();
        QPainter painter(&picture);
        painter.drawPixmap(widget->mapFromGlobal(over->pos()), over->grab());
        painter.end();
        const QString path = QDir(out_).filePath(file);
        if (!picture.save(path)) throw IoError(path.toStdString() + ": cannot write the picture");
        QTextStream(stdout) << "wrote " << path << "\n";
    }

    // Raises the dock `name` (it may share a tab with another) and saves its panel.
    void savePanel(gui::Panel panel, const QString& file) {
        QDockWidget* dock = driver_.window().dock(panel);
        dock->raise();
        save(dock, file);
    }

private:
    tools::WindowDriver& driver_;
    QString out_;
};

// What the command line asks for, checked.
struct Options {
    QString model, out, prompt, lang;
    int steps = 8;
    int width = 1600, height = 1000;
    int stage = 0;  // 1..the stages: stage mode at that stage; -1: every stage; 0: the docks
    bool hints = false, window_only = false, labs = true;
};

Options read_options(const QCommandLineParser& parser) {
    Options o;
    o.model = parser.isSet(QStringLiteral("model")) ? parser.value(QStringLiteral("model")) : gui::find_sample_model();
    if (o.model.isEmpty()) throw UsageError("no model: pass --model or run sample_models/fetch.sh");
    bool ok = false;
    o.steps = parser.value(QStringLiteral("steps")).toInt(&ok);
    if (!ok || o.steps < 0 || o.steps > 1000) throw UsageError("--steps: expected 0..1000");
    o.out = parser.value(QStringLiteral("out"));
    if (!QDir().mkpath(o.out)) throw IoError(o.out.toStdString() + ": cannot create the folder");
    o.prompt = parser.value(QStringLiteral("prompt"));
    o.lang = parser.value(QStringLiteral("lang"));
    const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
    bool ok_w = false, ok_h = false;
    o.width = size.size() == 2 ? size[0].toInt(&ok_w) : 0;
    o.height = size.size() == 2 ? size[1].toInt(&ok_h) : 0;
    if (!ok_w || !ok_h || o.width < 640 || o.height < 480 || o.width > 7680 || o.height > 4320)
        throw UsageError("--size: expected WxH from 640x480 to 7680x4320");
    const QString stage = parser.value(QStringLiteral("stage"));
    const int n_stages = int(gui::stages().size());
    if (stage == QLatin1String("all")) {
        o.stage = -1;
    } else if (!stage.isEmpty()) {
        o.stage = stage.toInt(&ok);
        if (!ok || o.stage < 1 || o.stage > n_stages)
            throw UsageError("--stage: expected 1.." + std::to_string(n_stages) + " or all");
    }
    o.hints = parser.isSet(QStringLiteral("hints"));
    o.window_only = parser.isSet(QStringLiteral("window-only"));
    o.labs = !parser.isSet(QStringLiteral("no-labs"));
    return o;
}

// The window with its hints, the Attention panel's explanation over it, and the lab window at
// the KV cache lab with its hint and explanation.
void save_hints(Tour& tour, gui::MainWindow& w) {
    gui::PanelGuide* guide = w.panelGuide();
    tour.save(&w, QStringLiteral("window.png"));
    guide->explain(gui::Panel::Attention);
    tour.saveWithPopup(&w, guide->popover(), QStringLiteral("attention-explained.png"));
    guide->popover()->hide();
    gui::labs::LabWindow* labs = w.labWindow();
    labs->resize(1600, 1000);
    guide->explain(gui::Panel::KvLab);  // shows the lab window at the lab
    tour.saveWithPopup(labs, guide->popover(), QStringLiteral("lab-explained.png"));
}

void save_panels(Tour& tour, gui::MainWindow& w) {
    tour.savePanel(gui::Panel::Tokens, QStringLiteral("panel-tokens.png"));
    tour.savePanel(gui::Panel::Attention, QStringLiteral("panel-attention.png"));
    tour.savePanel(gui::Panel::AttentionGrid, QStringLiteral("panel-attention-grid.png"));
    tour.savePanel(gui::Panel::Logits, QStringLiteral("panel-logits.png"));
    tour.savePanel(gui::Panel::KvCache, QStringLiteral("panel-kv-cache.png"));
    tour.savePanel(gui::Panel::Timeline, QStringLiteral("panel-timeline.png"));
    tour.savePanel(gui::Panel::Sampling, QStringLiteral("panel-sampling.png"));
    // The model's figures whole: the panel's content, not the part its tab shows.
    if (auto* spec = w.findChild<QScrollArea*>(QStringLiteral("specPanel")); spec && spec->widget()) {
        w.dock(gui::Panel::Model)->raise();
        tour.save(spec->widget(), QStringLiteral("panel-model.png"));
    }
}

// The Layer view's tabs for the last token, layer 3 head 2 (a head whose pattern shows), each
// from the dock floated at a size a projector shows (its docked width is the heatmap's).
void save_layer(Tour& tour, gui::MainWindow& w) {
    widgets::TraceModel* trace = w.session()->model();
    if (trace->model().n_layer <= 3 || trace->model().n_head <= 2) return;
    trace->setSelectedHead(3, 2);
    QDockWidget* dock = w.dock(gui::Panel::Layer);
    auto* view = dock->findChild<gui::LayerView*>();
    dock->setFloating(true);
    dock->resize(1280, 820);
    dock->show();
    dock->raise();
    for (int waited = 0; !view->figures() && waited < 30000; waited += 50) tools::WindowDriver::pump(50);
    if (!view->figures()) throw Error("the Layer view computed nothing within 30 s");
    const std::pair<gui::LayerView::Tab, const char*> tabs[] = {
        {gui::LayerView::Tab::Vectors, "panel-layer-qkv.png"},   {gui::LayerView::Tab::Scores, "panel-layer-scores.png"},
        {gui::LayerView::Tab::Mix, "panel-layer-mix.png"},       {gui::LayerView::Tab::Rope, "panel-layer-rope.png"},
        {gui::LayerView::Tab::Ffn, "panel-layer-ffn.png"},       {gui::LayerView::Tab::Stream, "panel-layer-stream.png"}};
    for (const auto& [tab, file] : tabs) {
        view->setTab(tab);
        tour.save(dock, QString::fromLatin1(file));
    }
    view->setTab(gui::LayerView::Tab::Vectors);
    dock->setFloating(false);
}

// Every stage of stage mode, each as stage-N-ID.png (N from 1).
void save_stages(Tour& tour, gui::MainWindow& w) {
    const std::vector<gui::StageSpec>& all = gui::stages();
    for (int i = 0; i < int(all.size()); ++i) {
        w.showStage(i);
        // the Layer view computes once it is shown: its figures, not its "Computing…"
        for (auto* view : w.stageView()->findChildren<gui::LayerView*>())
            for (int waited = 0; (!view->figures() || view->computing()) && waited < 30000; waited += 50)
                tools::WindowDriver::pump(50);
        tour.save(&w, QStringLiteral("stage-%1-%2.png").arg(i + 1).arg(QLatin1String(all[std::size_t(i)].id)));
    }
}

void run(const Options& o) {
    gui::Language language;
    language.apply(o.lang == QLatin1String("en") ? QString() : o.lang);
    tools::WindowDriver driver(&language, o.width, o.height);
    gui::MainWindow& w = driver.window();
    driver.pump(100);
    w.resetLayoutAction()->trigger();  // the default arrangement, whatever an earlier run kept
    driver.openModel(o.model);
    w.session()->controls()->setPrompt(o.prompt);
    driver.step();
    for (int i = 0; i < o.steps; ++i) driver.step();
    widgets::TraceModel* trace = w.session()->model();
    trace->setSelectedQuery(trace->sequenceLength() - 1);

    Tour tour(driver, o.out);
    if (o.hints) return save_hints(tour, w);
    driver.dismissHints();  // the panels and labs as they look once read
    if (o.stage < 0) return save_stages(tour, w);
    if (o.stage > 0) w.showStage(o.stage - 1);
    tour.save(&w, QStringLiteral("window.png"));
    if (o.window_only) return;
    save_panels(tour, w);
    save_layer(tour, w);
    if (o.labs) tools::lab_tour(w, o.out);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lmscope"));
    QApplication::setApplicationName(QStringLiteral("lmscope-screenshots"));  // its own settings
    app::register_compiled_backends();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Saves pictures of the window and each panel."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("model"), QStringLiteral("GGUF model (default: the sample model)."), QStringLiteral("path")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Folder for the pictures (default docs/screenshots)."), QStringLiteral("dir"), QStringLiteral("docs/screenshots")});
    parser.addOption({QStringLiteral("prompt"), QStringLiteral("The prompt typed."), QStringLiteral("text"), QStringLiteral("The capital of France is")});
    parser.addOption({QStringLiteral("steps"), QStringLiteral("Decode steps after the prefill (default 8)."), QStringLiteral("n"), QStringLiteral("8")});
    parser.addOption({QStringLiteral("no-labs"), QStringLiteral("Only the window and its panels.")});
    parser.addOption({QStringLiteral("lang"), QStringLiteral("Interface language (en, zh_CN)."), QStringLiteral("code"), QStringLiteral("en")});
    parser.addOption({QStringLiteral("size"), QStringLiteral("Window size (default 1600x1000)."), QStringLiteral("WxH"), QStringLiteral("1600x1000")});
    parser.addOption({QStringLiteral("stage"), QStringLiteral("Stage mode at stage N (1-based), or every stage (all)."), QStringLiteral("N|all")});
    parser.addOption({QStringLiteral("window-only"), QStringLiteral("Only window.png: no panels, no labs.")});
    parser.addOption({QStringLiteral("hints"), QStringLiteral("The first-run hints and \"?\" explanations: window.png, attention-explained.png, lab-explained.png.")});
    parser.process(app);

    try {
        run(read_options(parser));
        return 0;
    } catch (const std::exception& e) {
        QTextStream(stderr) << "lmscope-screenshots: " << e.what() << "\n";
        return 1;
    }
}
