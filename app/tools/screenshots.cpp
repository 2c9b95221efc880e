// lmscope-screenshots: the picture tour for docs/. Opens the real window on a model (the
// sample model by default), types a prompt, steps, and saves what a user sees: the whole
// window and each panel on its own (docs/screenshots/panel-*.png), then each lab
// (lab-*.png, app/tools/lab_tour.cpp); the first-run hints are dismissed first. With --hints it
// keeps them and saves the window with its hints (window.png), with the Attention panel's "?"
// explanation open over it (attention-explained.png), and the lab window at the KV cache lab
// with its hint and explanation (lab-explained.png). scripts/screenshots.sh runs
// it under Xvfb. Each picture is the widget's own rendering (QWidget::grab), at the size the
// window gives it.
// Usage: lmscope-screenshots [--model PATH] [--out DIR] [--prompt TEXT] [--steps N] [--no-labs]
//        [--lang CODE] [--size WxH] [--presenter] [--window-only] [--hints]
#include "backend_factory.h"
#include "gui/language.h"
#include "gui/labs/lab_window.h"
#include "gui/main_window.h"
#include "gui/panel_guide.h"
#include "gui/sample_model.h"
#include "gui/session_view.h"
#include "gui/step_controls.h"
#include "tools/lab_tour.h"
#include "tools/window_driver.h"
#include "util/error.h"
#include "widgets/help_popover.h"
#include "widgets/hint_bar.h"
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
    parser.addOption({QStringLiteral("presenter"), QStringLiteral("Presenter mode (large fonts, high contrast).")});
    parser.addOption({QStringLiteral("window-only"), QStringLiteral("Only window.png: no panels, no labs.")});
    parser.addOption({QStringLiteral("hints"), QStringLiteral("The first-run hints and \"?\" explanations: window.png, attention-explained.png, lab-explained.png.")});
    parser.process(app);

    QTextStream err(stderr);
    try {
        const QString model = parser.isSet(QStringLiteral("model")) ? parser.value(QStringLiteral("model"))
                                                                   : gui::find_sample_model();
        if (model.isEmpty()) throw UsageError("no model: pass --model or run sample_models/fetch.sh");
        bool ok = false;
        const int steps = parser.value(QStringLiteral("steps")).toInt(&ok);
        if (!ok || steps < 0 || steps > 1000) throw UsageError("--steps: expected 0..1000");
        const QString out = parser.value(QStringLiteral("out"));
        if (!QDir().mkpath(out)) throw IoError(out.toStdString() + ": cannot create the folder");

        gui::Language language;
        const QString lang = parser.value(QStringLiteral("lang"));
        language.apply(lang == QLatin1String("en") ? QString() : lang);
        const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
        bool ok_w = false, ok_h = false;
        const int width = size.size() == 2 ? size[0].toInt(&ok_w) : 0, height = size.size() == 2 ? size[1].toInt(&ok_h) : 0;
        if (!ok_w || !ok_h || width < 640 || height < 480 || width > 7680 || height > 4320)
            throw UsageError("--size: expected WxH from 640x480 to 7680x4320");
        tools::WindowDriver driver(&language, width, height);
        gui::MainWindow& w = driver.window();
        if (parser.isSet(QStringLiteral("presenter"))) w.setPresenterMode(true);
        driver.pump(100);
        w.resetLayoutAction()->trigger();  // the default arrangement, whatever an earlier run kept
        driver.openModel(model);
        gui::SessionView* session = w.session();
        session->controls()->setPrompt(parser.value(QStringLiteral("prompt")));
        driver.step();
        for (int i = 0; i < steps; ++i) driver.step();
        widgets::TraceModel* trace = session->model();
        trace->setSelectedQuery(trace->sequenceLength() - 1);

        Tour tour(driver, out);
        gui::PanelGuide* guide = w.panelGuide();
        if (parser.isSet(QStringLiteral("hints"))) {
            tour.save(&w, QStringLiteral("window.png"));
            guide->explain(gui::Panel::Attention);
            tour.saveWithPopup(&w, guide->popover(), QStringLiteral("attention-explained.png"));
            guide->popover()->hide();
            gui::labs::LabWindow* labs = w.labWindow();
            labs->resize(1600, 1000);
            guide->explain(gui::Panel::KvLab);  // shows the lab window at the lab
            tour.saveWithPopup(labs, guide->popover(), QStringLiteral("lab-explained.png"));
            return 0;
        }
        // The panels and labs as they look once their hints are dismissed (each "×" clicked; the
        // lab window's hint is the one of the lab shown).
        for (gui::Panel p : gui::all_panels()) {
            if (gui::is_lab(p)) {
                QTabWidget* tabs = w.labWindow()->tabs();
                tabs->setCurrentIndex(tabs->indexOf(w.labWindow()->findChild<QWidget*>(gui::panel_object_name(p))));
            }
            guide->hintBar(p)->closeButton()->click();
        }
        tour.save(&w, QStringLiteral("window.png"));
        if (parser.isSet(QStringLiteral("window-only"))) return 0;
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
        if (!parser.isSet(QStringLiteral("no-labs"))) tools::lab_tour(w, out);
        return 0;
    } catch (const std::exception& e) {
        err << "lmscope-screenshots: " << e.what() << "\n";
        return 1;
    }
}
