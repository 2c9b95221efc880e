// The lesson as stages, for a projector (View > Stage Mode, F11): one idea each, in the order
// of docs/lesson.md. One table (stage_registry.cpp): each stage's id, title, the lesson's two to
// four sentences for it (translated, context "Stage"), which of the layer / head / token pickers
// it offers, and the factory of its one or two panels. The panels are the window's own (its
// docks' panels and its labs), lent to the stage while it shows (StageView): the stage shows
// the live session, never a copy of it.
#pragma once

#include "gui/panel_help.h"

#include <QList>
#include <QString>

#include <functional>
#include <vector>

class QWidget;

namespace lmscope::gui {

namespace labs {
class Lab;
}

// Where a stage's panels come from: the window's panel or lab `panel`, or a pane `w` of one of
// its labs, taken from its place until the stage changes or is left (null when the window has
// no such panel).
class StagePanels {
public:
    virtual ~StagePanels() = default;
    virtual QWidget* lend(Panel panel) = 0;
    virtual QWidget* lend(QWidget* w) = 0;
    virtual labs::Lab* lab(Panel panel) const = 0;  // the lab itself, left where it is
};

// The selection controls a stage offers (the TraceModel's layer, head and query token).
enum StagePicker : unsigned { kPickNone = 0, kPickLayer = 1, kPickHead = 2, kPickToken = 4 };

// Where a stage puts its sentences and panels.
enum class StageArrangement {
    Stacked,     // the sentences in a column on the left, the panels one above the other
    SideBySide,  // the sentences in a column on the left, the panels side by side
    Wide,        // the sentences above, the panels one above the other across the whole width
};

struct StageSpec {
    const char* id;         // "tokens", "prefill", ... (stable: settings and the screenshot tool)
    const char* title;      // QT_TRANSLATE_NOOP("Stage", ...)
    const char* sentences;  // QT_TRANSLATE_NOOP("Stage", ...): two to four sentences, plain text
    StageArrangement arrangement;
    unsigned pickers;       // StagePicker flags
    std::function<QList<QWidget*>(StagePanels&)> panels;  // one or two, top to bottom
};

// Every stage, in the lesson's order.
const std::vector<StageSpec>& stages();
// Its title and sentences in the language installed now.
QString stage_title(const StageSpec& stage);
QString stage_sentences(const StageSpec& stage);

}  // namespace lmscope::gui
