// The labs' part of the picture tour and of the walk: opens the Labs window, drives each lab
// through the public slots its buttons call, waits for the engine work to finish, then shows
// each lab (and each page of a lab with pages) in turn.
#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace lmscope::gui {
class MainWindow;
}

namespace lmscope::tools {

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
