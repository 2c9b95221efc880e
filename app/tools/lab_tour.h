// The labs' part of the picture tour and of the walk: opens the Labs window, drives each lab
// through the public slots its buttons call, waits for the engine work to finish, then shows
// each lab (and each page of a lab with pages) in turn.
#pragma once

#include <QString>

#include <functional>
#include <vector>

class QWidget;

namespace lmscope::gui {
class MainWindow;
}

namespace lmscope::tools {

// One of the labs' engine jobs, started as its button starts it; run() returns once the lab
// shows the result, with the tokens the job fed and decoded (0 where the lab does not count them).
struct LabJob {
    const char* name;  // "kv-experiment", "chat", ...
    std::function<long long()> run;
    bool in_tour = true;  // prepare_labs runs it (the offload measurement, half a minute: the bench only)
};

// Waits until the labs have the window's model; then the labs' engine jobs, in the tour's order:
// the KV experiment and offload measurement, three chat turns from a new conversation, the context
// comparison and its head sweep, the logit lens. Each may run again.
std::vector<LabJob> lab_engine_jobs(gui::MainWindow& window);

// Runs each lab's experiment on the window's model: trains a WordPiece tokenizer, compares a
// misspelling, replays merges, runs the KV experiment, three chat turns, the context comparison
// and its head sweep, the logit lens. Throws lmscope::Error when a lab fails or does not
// finish in time.
void prepare_labs(gui::MainWindow& window);

// Called with the Labs window and the screen's name ("lab-kv-offload") once it shows.
using LabScreen = std::function<void(QWidget* labs, const QString& name)>;
// Shows each lab and page as it is now, calling `screen` for each, then hides the Labs window.
void visit_labs(gui::MainWindow& window, const LabScreen& screen);

// prepare_labs, then saves each screen as OUT/<name>.png with the Labs window at 1600x1000.
void lab_tour(gui::MainWindow& window, const QString& out);

}  // namespace lmscope::tools
