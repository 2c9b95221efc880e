// lmscope-walk: the project's own walk through the window, as a teacher goes through a lesson.
// For each language it opens the real window on the sample model and goes through the states
// of a lesson: start (model open, labs run), one step, Play to 100 tokens, a 2,000-token prompt,
// Reset, a model change (the second model, labs run again) and a language change. In each state,
// at each size, it shows the docked window (each dock behind a tab raised in turn, each tab of
// the Layer view) and every lab page, saves each screen as a PNG and
// checks it (tools/layout_check.h): texts cut off or overlapping (in charts too), data areas too
// small, the newest token's chip out of view, panels showing another step than the session's,
// and after the language change interface text left in the other language. It writes
// OUT/manifest.json (one entry per screen: state, size, mode, lang, png, violations) and one
// contact sheet of thumbnails per size and mode (OUT/contact-MODE-WxH.png), and exits 1 when a
// screen has a violation. scripts/walk.sh runs it under Xvfb.
// The mode is an axis of the walk: "normal" (the docked window: its docks, the Layer view's tabs
// and every lab page) and "stage" (Stage mode: each stage of the registry in turn).
// Usage: lmscope-walk --out DIR --ts resources/translations/lmscope_zh_CN.ts
//        [--model PATH] [--second-model PATH] [--sizes 1280x720,1920x1080] [--langs en,zh_CN]
//        [--states start,step,...] [--no-labs]
#include "backend_factory.h"
#include "gui/language.h"
#include "gui/layer_view.h"
#include "gui/labs/lab_window.h"
#include "gui/main_window.h"
#include "gui/sample_model.h"
#include "gui/stage_registry.h"
#include "gui/session_controller.h"
#include "gui/step_controls.h"
#include "tools/lab_tour.h"
#include "tools/layout_check.h"
#include "tools/window_driver.h"
#include "util/error.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QSaveFile>
#include <QTextStream>

#include <exception>

using namespace lmscope;

namespace {

const QStringList kModes{QStringLiteral("normal"), QStringLiteral("stage")};
const QStringList kLangs{QStringLiteral("en"), QStringLiteral("zh_CN")};
// The states of the lesson, in the order the walk reaches them.
const QStringList kStates{QStringLiteral("start"), QStringLiteral("step"),  QStringLiteral("play-100"),
                          QStringLiteral("prompt-2000"), QStringLiteral("reset"), QStringLiteral("model"),
                          QStringLiteral("language")};
constexpr int kPlayTokens = 100;
constexpr int kLongPromptLines = 100;  // about 20 tokens each: a 2,000-token prompt

struct Options {
    QString out, ts, model, second_model;
    QList<QSize> sizes;
    QStringList langs, modes, states;
    bool labs = true;
};

struct Screen {
    QString state, size, mode, lang, name, png;  // png: relative to the output folder
    QStringList violations;
};

QStringList list_option(const QCommandLineParser& parser, const QString& name, const QStringList& allowed) {
    const QStringList values = parser.value(name).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (values.isEmpty()) throw UsageError(QStringLiteral("--%1: expected one or more of %2").arg(name, allowed.join(QLatin1Char(','))).toStdString());
    for (const QString& v : values)
        if (!allowed.contains(v))
            throw UsageError(QStringLiteral("--%1: '%2' is not one of %3").arg(name, v, allowed.join(QLatin1Char(','))).toStdString());
    return values;
}

Options read_options(const QCommandLineParser& parser) {
    Options o;
    o.out = parser.value(QStringLiteral("out"));
    if (o.out.isEmpty()) throw UsageError("--out: the folder for the screens is needed");
    if (!QDir().mkpath(o.out)) throw IoError(o.out.toStdString() + ": cannot create the folder");
    o.ts = parser.value(QStringLiteral("ts"));
    if (!QFileInfo(o.ts).isFile()) throw UsageError("--ts: " + o.ts.toStdString() + " is not a file (resources/translations/lmscope_zh_CN.ts)");
    o.model = parser.isSet(QStringLiteral("model")) ? parser.value(QStringLiteral("model")) : gui::find_sample_model();
    if (o.model.isEmpty()) throw UsageError("no model: pass --model or run sample_models/fetch.sh");
    o.second_model = parser.value(QStringLiteral("second-model"));
    for (const QString& s : parser.value(QStringLiteral("sizes")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList wh = s.split(QLatin1Char('x'));
        bool ok_w = false, ok_h = false;
        const QSize size(wh.size() == 2 ? wh[0].toInt(&ok_w) : 0, wh.size() == 2 ? wh[1].toInt(&ok_h) : 0);
        if (!ok_w || !ok_h || size.width() < 640 || size.height() < 480 || size.width() > 7680 || size.height() > 4320)
            throw UsageError("--sizes: '" + s.toStdString() + "': expected WxH from 640x480 to 7680x4320");
        o.sizes << size;
    }
    if (o.sizes.isEmpty()) throw UsageError("--sizes: expected one or more WxH");
    o.langs = list_option(parser, QStringLiteral("langs"), kLangs);
    o.modes = list_option(parser, QStringLiteral("modes"), kModes);
    o.states = list_option(parser, QStringLiteral("states"), kStates);
    if (o.states.contains(QStringLiteral("model")) && !QFileInfo(o.second_model).isFile())
        throw UsageError("--second-model: '" + o.second_model.toStdString() + "' is not a file (the model change needs it)");
    o.labs = !parser.isSet(QStringLiteral("no-labs"));
    return o;
}

QString size_name(QSize s) { return QStringLiteral("%1x%2").arg(s.width()).arg(s.height()); }

// A prompt of about 2,000 tokens: numbered lines of a short story, so no two lines are alike.
QString long_prompt() {
    const QStringList lines{QStringLiteral("The river bank was quiet in the early morning, and the boats waited for the tide."),
                            QStringLiteral("A teacher wrote the word bank on the board and asked what it meant."),
                            QStringLiteral("Some students thought of money, others of water, grass and fishing."),
                            QStringLiteral("The model reads every word of this story before it writes its first token.")};
    QStringList out;
    for (int i = 0; i < kLongPromptLines; ++i) out << QStringLiteral("%1. %2").arg(i + 1).arg(lines[i % lines.size()]);
    return out.join(QLatin1Char('\n'));
}

// Puts the window in `mode`: the docks ("normal") or Stage mode ("stage").
void apply_mode(gui::MainWindow& w, const QString& mode) { w.setStageMode(mode == QLatin1String("stage")); }

class Walk {
public:
    Walk(Options o, tools::TranslationCatalogue english) : o_(std::move(o)), english_(std::move(english)) {}

    void walkLanguage(const QString& lang);
    void writeManifest() const;
    void writeContactSheets() const;
    int violations() const {
        int n = 0;
        for (const Screen& s : screens_) n += s.violations.isEmpty() ? 0 : 1;
        return n;
    }
    qsizetype screenCount() const { return screens_.size(); }

private:
    bool wants(const QString& state) const { return o_.states.contains(state); }
    // Every screen of `state`: the window and each lab page, at each size and mode.
    void visitState(gui::MainWindow& w, const QString& state, const QString& lang, bool language_changed);
    void record(QWidget* screen, Screen s, QStringList violations, bool language_changed, const QString& lang);
    // The docks behind another's tab, each raised in turn ("window-logitsDock"), and each tab
    // of the Layer view ("window-layer-rope"); then the docks shown before.
    void visitDocks(gui::MainWindow& w, const Screen& base, bool language_changed);

    Options o_;
    tools::TranslationCatalogue english_;
    QVector<Screen> screens_;
};

void Walk::record(QWidget* screen, Screen s, QStringList violations, bool language_changed, const QString& lang) {
    violations << tools::clipped_texts(screen);
    if (language_changed) violations << tools::stale_language(screen, english_, lang == QLatin1String("zh_CN"));
    s.png = QStringLiteral("%1/%2/%3/%4-%5.png").arg(s.mode, s.size, s.lang, s.state, s.name);
    const QString path = QDir(o_.out).filePath(s.png);
    QDir().mkpath(QFileInfo(path).absolutePath());
    if (!screen->grab().save(path)) throw IoError(path.toStdString() + ": cannot write the picture");
    s.violations = violations;
    QTextStream(stdout) << s.png << ": " << (violations.isEmpty() ? QStringLiteral("ok") : QStringLiteral("%1 violation(s)").arg(violations.size())) << "\n";
    for (const QString& v : violations) QTextStream(stdout) << "  " << v << "\n";
    screens_.push_back(std::move(s));
}

void Walk::visitDocks(gui::MainWindow& w, const Screen& base, bool language_changed) {
    const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
    QList<QDockWidget*> front;
    for (QDockWidget* d : docks)
        if (d->isVisible() && !d->visibleRegion().isEmpty()) front << d;
    auto screen = [&](const QString& name) {
        tools::WindowDriver::pump(300);
        Screen s = base;
        s.name = QStringLiteral("window-") + name;
        record(&w, s, tools::hidden_newest_token(&w) << tools::stale_steps(&w, *w.session()->model()), language_changed, base.lang);
    };
    for (QDockWidget* d : docks) {
        if (!d->isVisible() || front.contains(d) || w.tabifiedDockWidgets(d).isEmpty()) continue;
        d->raise();
        screen(d->objectName());
    }
    QDockWidget* layer_dock = w.dock(gui::Panel::Layer);
    auto* layer = layer_dock ? layer_dock->findChild<gui::LayerView*>() : nullptr;
    if (layer && layer_dock->isVisible() && w.session()->model()->currentStep() >= 0) {
        layer_dock->raise();
        const std::pair<gui::LayerView::Tab, const char*> tabs[] = {
            {gui::LayerView::Tab::Vectors, "layer-qkv"}, {gui::LayerView::Tab::Scores, "layer-scores"},
            {gui::LayerView::Tab::Mix, "layer-mix"},     {gui::LayerView::Tab::Rope, "layer-rope"},
            {gui::LayerView::Tab::Ffn, "layer-ffn"},     {gui::LayerView::Tab::Stream, "layer-stream"}};
        for (const auto& [tab, name] : tabs) {
            layer->setTab(tab);
            // Its figures come once the engine is idle; a session with no current step has none.
            for (int waited = 0; (layer->computing() || (!layer->figures() && waited < 2000)) && waited < 60000; waited += 50)
                tools::WindowDriver::pump(50);
            screen(QString::fromLatin1(name));
        }
        layer->setTab(gui::LayerView::Tab::Vectors);
    }
    for (QDockWidget* d : front) d->raise();
    tools::WindowDriver::pump(200);
}

void Walk::visitState(gui::MainWindow& w, const QString& state, const QString& lang, bool language_changed) {
    for (const QString& mode : o_.modes) {
        apply_mode(w, mode);
        for (QSize size : o_.sizes) {
            w.resize(size);
            // The docks as a window opened at this size has them (the wide arrangement from
            // 1500x900); resizing an arrangement is test_gui_layout's.
            if (mode == QLatin1String("normal")) w.resetLayoutAction()->trigger();
            tools::WindowDriver::pump(600);  // the docks settle, queued replots and paints
            const Screen base{state, size_name(size), mode, lang, QString(), QString(), {}};
            QStringList own;
            if (w.size() != size)
                own << QStringLiteral("the window is %1x%2, asked for %3 (its minimum: %4x%5)")
                           .arg(w.width()).arg(w.height()).arg(size_name(size))
                           .arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height());
            own << tools::hidden_newest_token(&w) << tools::stale_steps(&w, *w.session()->model());
            if (mode == QLatin1String("stage")) {  // every stage, on the live session
                const std::vector<gui::StageSpec>& stages = gui::stages();
                for (size_t i = 0; i < stages.size(); ++i) {
                    w.showStage(int(i));
                    tools::WindowDriver::pump(600);
                    Screen s = base;
                    s.name = QStringLiteral("stage-%1-%2").arg(i + 1).arg(QLatin1String(stages[i].id));
                    record(&w, s, own + tools::stale_steps(&w, *w.session()->model()), language_changed, lang);
                }
                continue;
            }
            Screen window = base;
            window.name = QStringLiteral("window");
            record(&w, window, own, language_changed, lang);
            visitDocks(w, base, language_changed);
            if (!o_.labs) continue;
            w.labWindow()->resize(size);
            tools::visit_labs(w, [&](QWidget* labs, const QString& name) {
                tools::WindowDriver::pump(500);
                QStringList lab_own;
                if (labs->size() != size)
                    lab_own << QStringLiteral("the Labs window is %1x%2, asked for %3").arg(labs->width()).arg(labs->height()).arg(size_name(size));
                Screen s = base;
                s.name = name;
                record(labs, s, lab_own, language_changed, lang);
            });
        }
    }
    apply_mode(w, QStringLiteral("normal"));  // the next state is reached from the docked window
}

void Walk::walkLanguage(const QString& lang) {
    gui::Language language;
    language.apply(lang == QLatin1String("en") ? QString() : lang);
    QSize first = o_.sizes.front();
    tools::WindowDriver driver(&language, first.width(), first.height());
    gui::MainWindow& w = driver.window();
    driver.pump(100);
    w.resetLayoutAction()->trigger();  // the default arrangement, whatever an earlier run kept
    driver.openModel(o_.model);
    driver.dismissHints();
    if (o_.labs) tools::prepare_labs(w);
    if (wants(QStringLiteral("start"))) visitState(w, QStringLiteral("start"), lang, false);
    driver.step();
    if (wants(QStringLiteral("step"))) visitState(w, QStringLiteral("step"), lang, false);
    if (wants(QStringLiteral("play-100"))) {
        driver.playTo(kPlayTokens);
        visitState(w, QStringLiteral("play-100"), lang, false);
    }
    if (wants(QStringLiteral("prompt-2000"))) {
        driver.reset();
        w.session()->controls()->setPrompt(long_prompt());
        driver.step();
        visitState(w, QStringLiteral("prompt-2000"), lang, false);
    }
    driver.reset();
    if (wants(QStringLiteral("reset"))) visitState(w, QStringLiteral("reset"), lang, false);
    if (wants(QStringLiteral("model"))) {
        driver.openModel(o_.second_model);
        if (o_.labs) tools::prepare_labs(w);
        driver.step();
        visitState(w, QStringLiteral("model"), lang, false);
    }
    if (wants(QStringLiteral("language"))) {
        const QString other = lang == QLatin1String("en") ? QStringLiteral("zh_CN") : QStringLiteral("en");
        language.apply(other);  // what View > Language does
        driver.pump(300);
        visitState(w, QStringLiteral("language"), other, true);
    }
}

void Walk::writeManifest() const {
    QJsonArray list;
    for (const Screen& s : screens_)
        list.append(QJsonObject{{QStringLiteral("state"), s.state}, {QStringLiteral("size"), s.size},
                                {QStringLiteral("mode"), s.mode},   {QStringLiteral("lang"), s.lang},
                                {QStringLiteral("screen"), s.name}, {QStringLiteral("png"), s.png},
                                {QStringLiteral("violations"), QJsonArray::fromStringList(s.violations)}});
    const QString path = QDir(o_.out).filePath(QStringLiteral("manifest.json"));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(list).toJson()) < 0 || !file.commit())
        throw IoError(path.toStdString() + ": cannot write the manifest");
}

// One picture per size and mode: every screen of it as a thumbnail with its state, language and
// name under it, framed in red with the number of violations when it has any.
void Walk::writeContactSheets() const {
    constexpr int kThumbW = 384, kCaptionH = 34, kColumns = 7, kGap = 8;
    for (const QString& mode : o_.modes)
        for (QSize size : o_.sizes) {
            QVector<const Screen*> shown;
            for (const Screen& s : screens_)
                if (s.mode == mode && s.size == size_name(size)) shown.push_back(&s);
            if (shown.isEmpty()) continue;
            const int thumb_h = kThumbW * size.height() / size.width();
            const int rows = int((shown.size() + kColumns - 1) / kColumns);
            QImage sheet(kColumns * (kThumbW + kGap) + kGap, rows * (thumb_h + kCaptionH + kGap) + kGap, QImage::Format_RGB32);
            sheet.fill(QColor(0x30, 0x30, 0x30));
            QPainter p(&sheet);
            QFont font = p.font();
            font.setPixelSize(12);
            p.setFont(font);
            for (qsizetype i = 0; i < shown.size(); ++i) {
                const Screen& s = *shown[i];
                const QPoint at(kGap + int(i % kColumns) * (kThumbW + kGap), kGap + int(i / kColumns) * (thumb_h + kCaptionH + kGap));
                const QImage picture(QDir(o_.out).filePath(s.png));
                const QRect box(at, QSize(kThumbW, thumb_h));
                p.drawImage(box, picture.scaled(box.size(), Qt::KeepAspectRatio, Qt::SmoothTransformation));
                const bool bad = !s.violations.isEmpty();
                p.setPen(QPen(bad ? QColor(0xff, 0x40, 0x40) : QColor(0x80, 0x80, 0x80), bad ? 3 : 1));
                p.drawRect(box.adjusted(0, 0, -1, -1));
                p.setPen(bad ? QColor(0xff, 0x80, 0x80) : QColor(Qt::white));
                const QString caption = QStringLiteral("%1 · %2 · %3%4").arg(s.state, s.lang, s.name,
                                                                           bad ? QStringLiteral(" · %1 violation(s)").arg(s.violations.size()) : QString());
                p.drawText(QRect(at.x(), at.y() + thumb_h + 2, kThumbW, kCaptionH - 4), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption);
            }
            p.end();
            const QString path = QDir(o_.out).filePath(QStringLiteral("contact-%1-%2.png").arg(mode, size_name(size)));
            if (!sheet.save(path)) throw IoError(path.toStdString() + ": cannot write the contact sheet");
            QTextStream(stdout) << "wrote " << path << "\n";
        }
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lmscope"));
    QApplication::setApplicationName(QStringLiteral("lmscope-walk"));  // its own settings
    app::register_compiled_backends();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Walks the window through a lesson, checks every screen and saves it."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("out"), QStringLiteral("Folder for the screens, manifest.json and the contact sheets."), QStringLiteral("dir")});
    parser.addOption({QStringLiteral("ts"), QStringLiteral("The Chinese translation (lmscope_zh_CN.ts): the English texts it translates."), QStringLiteral("path")});
    parser.addOption({QStringLiteral("model"), QStringLiteral("GGUF model (default: the sample model)."), QStringLiteral("path")});
    parser.addOption({QStringLiteral("second-model"), QStringLiteral("The model the walk changes to."), QStringLiteral("path")});
    parser.addOption({QStringLiteral("sizes"), QStringLiteral("Window sizes."), QStringLiteral("WxH,..."), QStringLiteral("1280x720,1920x1080")});
    parser.addOption({QStringLiteral("langs"), QStringLiteral("Languages to start in."), QStringLiteral("codes"), kLangs.join(QLatin1Char(','))});
    parser.addOption({QStringLiteral("modes"), QStringLiteral("Window modes."), QStringLiteral("modes"), kModes.join(QLatin1Char(','))});
    parser.addOption({QStringLiteral("states"), QStringLiteral("The lesson's states to check."), QStringLiteral("states"), kStates.join(QLatin1Char(','))});
    parser.addOption({QStringLiteral("no-labs"), QStringLiteral("Only the docked window.")});
    parser.process(app);

    try {
        const Options o = read_options(parser);
        Walk walk(o, tools::TranslationCatalogue::read(o.ts));
        for (const QString& lang : o.langs) walk.walkLanguage(lang);
        walk.writeManifest();
        walk.writeContactSheets();
        QTextStream(stdout) << walk.screenCount() << " screens, " << walk.violations() << " with violations\n";
        return walk.violations() ? 1 : 0;
    } catch (const std::exception& e) {
        QTextStream(stderr) << "lmscope-walk: " << e.what() << "\n";
        return 2;
    }
}
