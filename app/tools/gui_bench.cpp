// lmscope-gui-bench: measures the GUI's two performance targets on the real window.
//   1. Play: the event loop's longest gaps (maximum, 99th percentile) while the engine plays
//      N decode steps with every panel visible (target: no stall over 50 ms).
//   2. Render at T tokens: a prompt of about T tokens is prefilled and decoded up to T, then
//      each of the last steps is made current and the whole window repainted synchronously
//      (every panel updates its data and paints): the time per step and per panel
//      (target: under 50 ms at 512 tokens for SmolLM2's 30 x 9 head grid).
//   3. The Layer view at T tokens (its dock floated beside the window, layer 3 head 2): the
//      first probe of the layer over the whole sequence; then, for one more decode step and
//      for another head, the time until its figures are drawn (the probe feeds one row, or
//      none) and each tab's repaint (target: under 50 ms); and decode speed over D steps with
//      the view shown against hidden (the view's probe shares the cores: target under 5%).
//   4. A long prefill: a prompt of about P tokens (default 2,000) prefilled with full capture
//      in one step: its time, the progress reports the status bar showed, the attention
//      planes the trace's budget kept, and the process's peak RSS afterwards.
//   5. The labs: each lab's engine job (the KV experiment and offload measurement, three chat
//      turns, the context comparison and its head sweep, the logit lens) started as its button
//      starts it, timed until the lab shows the result; the median of R runs.
// Usage: lmscope-gui-bench [--model PATH] [--steps N] [--tokens T] [--prefill P] [--labs R]
//                          [--lab-jobs chat,...] [--measures play,render,layer,prefill,labs] [--json]
// Runs on any Qt platform; QT_QPA_PLATFORM=offscreen needs no display.
#include "backend_factory.h"
#include "gui/labs/lab_window.h"
#include "gui/language.h"
#include "gui/layer_view.h"
#include "gui/main_window.h"
#include "gui/sample_model.h"
#include "gui/session_controller.h"
#include "gui/step_controls.h"
#include "tokenizer/tokenizer.h"
#include "tools/lab_tour.h"
#include "tools/latency_probe.h"
#include "tools/window_driver.h"
#include "util/error.h"
#include "util/name_table.h"
#include "widgets/trace_model.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include <QTextStream>

#include <sys/resource.h>

#include <array>
#include <cstdio>
#include <exception>
#include <string>

using namespace lmscope;

namespace {

QJsonObject to_json(const tools::GapStats& s) {
    return {{"ticks", qint64(s.ticks)}, {"max_ms", s.max_ms}, {"p99_ms", s.p99_ms}, {"p50_ms", s.p50_ms}};
}

// Words repeated until the model's tokenizer makes `tokens` of them (with BOS when it adds one).
QString prompt_of_tokens(const QString& model, int tokens) {
    const auto tokenizer = tok::load_tokenizer(model.toStdString());
    const std::string text_unit =
        " The teacher pressed Step, and the class watched the attention light up across every layer.";
    std::string text = "Once upon a time.";
    while (true) {
        const std::string next = text + text_unit;
        if (int(tokenizer->encode_ids(next, true, false).size()) > tokens) break;
        text = next;
    }
    return QString::fromStdString(text);
}

struct PlayResult {
    int steps = 0;
    double seconds = 0.0;
    tools::GapStats gaps;
};

PlayResult measure_play(tools::WindowDriver& driver, int steps) {
    gui::SessionController* session = driver.window().session();
    widgets::TraceModel* trace = session->model();
    session->controls()->setPrompt(QStringLiteral("Once upon a time, in a small village by the sea,"));
    session->controls()->setSpeed(20);  // the slider's fastest: the engine sets the pace
    tools::LatencyProbe probe;
    QElapsedTimer clock;
    probe.start();
    clock.start();
    session->setPlaying(true);
    while (trace->stepCount() < steps + 1) {
        tools::WindowDriver::pump(50);
        if (clock.elapsed() > 600000) throw Error("play: the steps did not come in 10 minutes");
        if (!session->isPlaying()) throw Error("play: stopped early (an engine error?)");
    }
    session->setPlaying(false);
    PlayResult r;
    r.seconds = double(clock.elapsed()) / 1000.0;
    while (session->inFlight()) tools::WindowDriver::pump(20);
    probe.stop();
    r.steps = trace->stepCount() - 1;
    r.gaps = probe.stats();
    return r;
}

struct RenderResult {
    int tokens = 0;
    std::vector<double> step_ms;         // [repetition] select a step + repaint the window
    std::vector<double> select_ms;       // [repetition] of which: the panels' data updates
    std::vector<double> paint_ms;        // [repetition] of which: queued replots and the paint
    QJsonObject panel_ms;                // the slowest repaint of each dock
    tools::GapStats gaps_while_decoding; // the event loop while decoding up to `tokens`
};

RenderResult measure_render(tools::WindowDriver& driver, const QString& model, int tokens, int reps) {
    gui::MainWindow& w = driver.window();
    gui::SessionController* session = w.session();
    widgets::TraceModel* trace = session->model();
    session->reset();
    tools::WindowDriver::pump(200);
    session->controls()->setPrompt(prompt_of_tokens(model, tokens - reps));
    tools::LatencyProbe probe;
    probe.start();
    driver.step();  // the prefill
    while (trace->sequenceLength() < tokens) driver.step();
    probe.stop();

    RenderResult r;
    r.tokens = trace->sequenceLength();
    r.gaps_while_decoding = probe.stats();
    const qint32 last = trace->stepCount() - 1;
    for (int i = 0; i < reps; ++i) {
        const qint32 index = std::max<qint32>(0, last - (i % std::max(1, reps / 2)));
        QElapsedTimer clock;
        clock.start();
        trace->setCurrentStep(index == trace->currentStep() && index > 0 ? index - 1 : index);
        const double selected = double(clock.nsecsElapsed()) / 1e6;
        QApplication::processEvents();  // queued replots
        w.repaint();
        r.step_ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        r.select_ms.push_back(selected);
        r.paint_ms.push_back(r.step_ms.back() - selected);
    }
    for (gui::Panel panel : session->panels()) {
        QDockWidget* dock = session->dock(panel);
        if (!dock->isVisible()) continue;
        double worst = 0.0;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer clock;
            clock.start();
            dock->repaint();
            worst = std::max(worst, double(clock.nsecsElapsed()) / 1e6);
        }
        r.panel_ms.insert(dock->objectName(), worst);
    }
    return r;
}

struct LayerResult {
    int tokens = 0;
    double first_probe_ms = 0.0;      // selection of a layer not probed yet: every row
    double next_step_ms = 0.0;        // a decode step shown until its figures are drawn (the step excluded)
    double other_head_ms = 0.0;       // another head of the same layer until drawn
    QJsonObject tab_ms;               // the slowest repaint of each tab
    double decode_hidden_tok_s = 0.0, decode_shown_tok_s = 0.0;
};

// Waits until the view shows the figures of the current selection; the time it took.
double until_shown(gui::LayerView* view) {
    QElapsedTimer clock;
    clock.start();
    while (!view->figures()) {
        QApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
        if (clock.elapsed() > 120000) throw Error("layer view: no figures within 2 minutes");
    }
    return double(clock.nsecsElapsed()) / 1e6;
}

double decode_tok_s(tools::WindowDriver& driver, int steps) {
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < steps; ++i) driver.step();
    return steps / std::max(1e-9, double(clock.nsecsElapsed()) / 1e9);
}

LayerResult measure_layer(tools::WindowDriver& driver, int decode_steps) {
    gui::MainWindow& w = driver.window();
    widgets::TraceModel* trace = w.session()->model();
    QDockWidget* dock = w.dock(gui::Panel::Layer);
    auto* view = dock->findChild<gui::LayerView*>();
    LayerResult r;
    r.decode_hidden_tok_s = decode_tok_s(driver, decode_steps);  // the dock behind the heatmap
    dock->setFloating(true);
    dock->resize(1280, 820);
    dock->show();
    dock->raise();
    trace->setSelectedHead(std::min(3, trace->model().n_layer - 1), std::min(2, trace->model().n_head - 1));
    r.first_probe_ms = until_shown(view);
    r.decode_shown_tok_s = decode_tok_s(driver, decode_steps);
    until_shown(view);
    QElapsedTimer clock;
    driver.step();
    clock.start();
    until_shown(view);
    dock->repaint();
    r.next_step_ms = double(clock.nsecsElapsed()) / 1e6;
    r.tokens = trace->sequenceLength();
    clock.restart();
    trace->setSelectedHead(trace->selectedLayer(), (trace->selectedHead() + 1) % trace->model().n_head);
    until_shown(view);
    dock->repaint();
    r.other_head_ms = double(clock.nsecsElapsed()) / 1e6;
    const char* names[] = {"qkv", "scores", "mix", "rope", "ffn", "stream"};
    for (int t = 0; t < 6; ++t) {
        view->setTab(gui::LayerView::Tab(t));
        QApplication::processEvents();
        double worst = 0.0;
        for (int i = 0; i < 3; ++i) {
            clock.restart();
            dock->repaint();
            worst = std::max(worst, double(clock.nsecsElapsed()) / 1e6);
        }
        r.tab_ms.insert(QLatin1String(names[t]), worst);
    }
    view->setTab(gui::LayerView::Tab::Vectors);
    dock->setFloating(false);
    return r;
}

struct PrefillResult {
    int tokens = 0;
    double seconds = 0.0;
    int progress_reports = 0;   // the status bar's progress updates during the prefill
    qint64 planes_kept = 0;     // attention planes the window holds for the prefill step
    qint64 planes_total = 0;    // layers x heads
    double peak_rss_mib = 0.0;  // of the whole process, at the end
};

double peak_rss_mib() {
    struct rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

PrefillResult measure_prefill(tools::WindowDriver& driver, const QString& model, int tokens) {
    gui::SessionController* session = driver.window().session();
    widgets::TraceModel* trace = session->model();
    session->reset();
    tools::WindowDriver::pump(200);
    session->controls()->setPrompt(prompt_of_tokens(model, tokens));
    PrefillResult r;
    const QMetaObject::Connection counter = QObject::connect(
        session->prefillProgress(), &QProgressBar::valueChanged, [&r](int) { ++r.progress_reports; });
    QElapsedTimer clock;
    clock.start();
    driver.step();
    r.seconds = double(clock.elapsed()) / 1000.0;
    QObject::disconnect(counter);
    r.tokens = trace->sequenceLength();
    const widgets::StepView* s = trace->current();
    if (s) r.planes_kept = s->planes.size();
    r.planes_total = qint64(trace->model().n_layer) * trace->model().n_head;
    r.peak_rss_mib = peak_rss_mib();
    return r;
}

struct LabTime {
    QString job;
    std::vector<double> ms;  // [run] from the start until the lab shows the result
    long long tokens = 0;    // fed and decoded by one run, 0 where the lab does not count them
};

std::vector<LabTime> measure_labs(tools::WindowDriver& driver, int runs, const QStringList& only) {
    std::vector<LabTime> times;
    for (const tools::LabJob& job : tools::lab_engine_jobs(driver.window())) {
        if (!only.isEmpty() && !only.contains(QLatin1String(job.name))) continue;
        LabTime t{QString::fromLatin1(job.name), {}, 0};
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer clock;
            clock.start();
            t.tokens = job.run();
            t.ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        }
        times.push_back(std::move(t));
    }
    driver.window().labWindow()->hide();
    return times;
}

// What --measures picks, each named once.
enum class Measure { Play, Render, Layer, Prefill, Labs };
constexpr size_t kMeasures = 5;
constexpr NameTable<Measure, kMeasures> kMeasureNames({"play", "render", "layer", "prefill", "labs"}, NameCase::Exact);

struct Results {
    QString model;
    std::array<bool, kMeasures> measured{};  // [Measure]
    bool has(Measure m) const { return measured[size_t(m)]; }
    PlayResult play;
    RenderResult render;
    LayerResult layer;
    PrefillResult prefill;
    std::vector<LabTime> labs;
    double render_med = 0.0, render_max = 0.0;  // ms
};

void print_json(const Results& r) {
    QJsonObject o{{"model", r.model}, {"platform", QApplication::platformName()}};
    if (r.has(Measure::Play))
        o.insert("play", QJsonObject{{"steps", r.play.steps},
                                     {"tokens_per_s", r.play.steps / std::max(1e-9, r.play.seconds)},
                                     {"event_loop_gaps", to_json(r.play.gaps)}});
    if (r.has(Measure::Render))
        o.insert("render", QJsonObject{{"tokens", r.render.tokens},
                                       {"median_ms", r.render_med},
                                       {"max_ms", r.render_max},
                                       {"median_update_ms", tools::percentile(r.render.select_ms, 50.0)},
                                       {"median_paint_ms", tools::percentile(r.render.paint_ms, 50.0)},
                                       {"panels_ms", r.render.panel_ms},
                                       {"event_loop_gaps_while_decoding", to_json(r.render.gaps_while_decoding)}});
    if (r.has(Measure::Layer))
        o.insert("layer_view", QJsonObject{{"tokens", r.layer.tokens},
                                           {"first_probe_ms", r.layer.first_probe_ms},
                                           {"next_step_ms", r.layer.next_step_ms},
                                           {"other_head_ms", r.layer.other_head_ms},
                                           {"tabs_ms", r.layer.tab_ms},
                                           {"decode_hidden_tok_s", r.layer.decode_hidden_tok_s},
                                           {"decode_shown_tok_s", r.layer.decode_shown_tok_s}});
    if (r.prefill.tokens > 0)
        o.insert("prefill", QJsonObject{{"tokens", r.prefill.tokens},
                                        {"seconds", r.prefill.seconds},
                                        {"progress_reports", r.prefill.progress_reports},
                                        {"planes_kept", r.prefill.planes_kept},
                                        {"planes_total", r.prefill.planes_total},
                                        {"peak_rss_mib", r.prefill.peak_rss_mib}});
    if (!r.labs.empty()) {
        QJsonArray labs;
        for (const LabTime& t : r.labs) {
            QJsonArray runs;
            for (double ms : t.ms) runs.append(ms);
            labs.append(QJsonObject{{"job", t.job}, {"median_ms", tools::percentile(t.ms, 50.0)}, {"runs_ms", runs},
                                    {"tokens", t.tokens}});
        }
        o.insert("labs", labs);
    }
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
}

void print_text(const Results& r) {
    QTextStream out(stdout);
    out << "model: " << r.model << " (platform " << QApplication::platformName() << ")\n";
    if (r.has(Measure::Play))
        out << "play: " << r.play.steps << " steps, " << r.play.steps / std::max(1e-9, r.play.seconds)
            << " tok/s; event-loop gaps: max " << r.play.gaps.max_ms << " ms, p99 " << r.play.gaps.p99_ms
            << " ms, median " << r.play.gaps.p50_ms << " ms over " << qint64(r.play.gaps.ticks) << " ticks\n";
    if (r.has(Measure::Render)) {
        out << "decoding up to " << r.render.tokens << " tokens: event-loop gaps max "
            << r.render.gaps_while_decoding.max_ms << " ms, p99 " << r.render.gaps_while_decoding.p99_ms << " ms\n";
        out << "render at " << r.render.tokens << " tokens (select a step, repaint every panel): median "
            << r.render_med << " ms (data updates " << tools::percentile(r.render.select_ms, 50.0)
            << " ms, replots and paint " << tools::percentile(r.render.paint_ms, 50.0) << " ms), max "
            << r.render_max << " ms\n";
        for (auto it = r.render.panel_ms.begin(); it != r.render.panel_ms.end(); ++it)
            out << "  " << it.key() << ": " << it.value().toDouble() << " ms\n";
    }
    if (r.has(Measure::Layer)) {
        out << "layer view at " << r.layer.tokens << " tokens: first probe of the layer " << r.layer.first_probe_ms
            << " ms; a decode step drawn " << r.layer.next_step_ms << " ms after it; another head "
            << r.layer.other_head_ms << " ms; decode " << r.layer.decode_hidden_tok_s << " tok/s with the view hidden, "
            << r.layer.decode_shown_tok_s << " tok/s shown\n";
        for (auto it = r.layer.tab_ms.begin(); it != r.layer.tab_ms.end(); ++it)
            out << "  tab " << it.key() << ": " << it.value().toDouble() << " ms\n";
    }
    if (r.prefill.tokens > 0)
        out << "prefill of " << r.prefill.tokens << " tokens, full capture: " << r.prefill.seconds << " s, "
            << r.prefill.progress_reports << " progress updates, " << r.prefill.planes_kept << " of "
            << r.prefill.planes_total << " attention planes kept by the trace budget; peak RSS "
            << r.prefill.peak_rss_mib << " MiB\n";
    for (const LabTime& t : r.labs) {
        out << "lab " << t.job << ": median " << tools::percentile(t.ms, 50.0) << " ms of " << qint64(t.ms.size())
            << " runs";
        if (t.tokens > 0) out << ", " << t.tokens << " tokens fed and decoded";
        out << "\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lmscope"));
    QApplication::setApplicationName(QStringLiteral("lmscope-gui-bench"));  // its own settings
    app::register_compiled_backends();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Measures the GUI's event-loop stalls and render time."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("model"), QStringLiteral("GGUF model (default: the sample model)."), QStringLiteral("path")});
    parser.addOption({QStringLiteral("steps"), QStringLiteral("Decode steps to play (default 64)."), QStringLiteral("n"), QStringLiteral("64")});
    parser.addOption({QStringLiteral("tokens"), QStringLiteral("Sequence length for the render measure (default 512)."), QStringLiteral("n"), QStringLiteral("512")});
    parser.addOption({QStringLiteral("prefill"), QStringLiteral("Prompt length for the long prefill (default 2000; 0: skip)."), QStringLiteral("n"), QStringLiteral("2000")});
    parser.addOption({QStringLiteral("labs"), QStringLiteral("Runs of each lab's engine job (default 3)."), QStringLiteral("n"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("lab-jobs"), QStringLiteral("Only these labs' jobs (default: every one)."), QStringLiteral("list")});
    QStringList all_measures;
    for (std::string_view name : kMeasureNames.names()) all_measures << QString::fromUtf8(name.data(), qsizetype(name.size()));
    const QString default_measures = all_measures.join(QLatin1Char(','));
    parser.addOption({QStringLiteral("measures"), QStringLiteral("Which measures to run (default %1).").arg(default_measures),
                      QStringLiteral("list"), default_measures});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object.")});
    parser.process(app);

    QTextStream err(stderr);
    try {
        const QString model = parser.isSet(QStringLiteral("model")) ? parser.value(QStringLiteral("model"))
                                                                   : gui::find_sample_model();
        if (model.isEmpty()) throw UsageError("no model: pass --model or run sample_models/fetch.sh");
        bool ok1 = false, ok2 = false;
        const int steps = parser.value(QStringLiteral("steps")).toInt(&ok1);
        const int tokens = parser.value(QStringLiteral("tokens")).toInt(&ok2);
        if (!ok1 || steps < 1 || steps > 100000) throw UsageError("--steps: expected 1..100000");
        if (!ok2 || tokens < 16 || tokens > 8192) throw UsageError("--tokens: expected 16..8192");
        bool ok3 = false;
        const int prefill_tokens = parser.value(QStringLiteral("prefill")).toInt(&ok3);
        if (!ok3 || prefill_tokens < 0 || prefill_tokens > 8192) throw UsageError("--prefill: expected 0..8192");
        bool ok4 = false;
        const int lab_runs = parser.value(QStringLiteral("labs")).toInt(&ok4);
        if (!ok4 || lab_runs < 1 || lab_runs > 100) throw UsageError("--labs: expected 1..100");
        Results r;
        r.model = model;
        for (const QString& m : parser.value(QStringLiteral("measures")).split(QLatin1Char(','), Qt::SkipEmptyParts))
            r.measured[size_t(kMeasureNames.parse_or_throw(m.toStdString(), "--measures"))] = true;

        gui::Language language;
        tools::WindowDriver driver(&language, 1600, 1000);
        driver.openModel(model);
        if (r.has(Measure::Play)) r.play = measure_play(driver, steps);
        if (r.has(Measure::Render)) {
            r.render = measure_render(driver, model, tokens, 10);
            r.render_med = tools::percentile(r.render.step_ms, 50.0);
            r.render_max = *std::max_element(r.render.step_ms.begin(), r.render.step_ms.end());
        }
        if (r.has(Measure::Layer)) r.layer = measure_layer(driver, 16);
        if (r.has(Measure::Prefill) && prefill_tokens > 0) r.prefill = measure_prefill(driver, model, prefill_tokens);
        if (r.has(Measure::Labs))
            r.labs = measure_labs(driver, lab_runs, parser.value(QStringLiteral("lab-jobs")).split(QLatin1Char(','), Qt::SkipEmptyParts));

        if (parser.isSet(QStringLiteral("json")))
            print_json(r);
        else
            print_text(r);
        return 0;
    } catch (const std::exception& e) {
        err << "lmscope-gui-bench: " << e.what() << "\n";
        return 1;
    }
}
