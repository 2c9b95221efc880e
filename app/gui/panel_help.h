// "What am I looking at?": for every panel of the step-through window and every lab, a title,
// an explanation of two or three sentences (the concept it shows, in plain words, for a class)
// and a one-line hint for the first run. One table (panel_help.cpp); the texts are translated
// (context "PanelHelp") into the language installed when they are asked for.
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace lmscope::gui {

enum class Panel {
    // the step-through window: its docks and the central Tensors | Metadata tables
    Tokens,
    Attention,
    AttentionGrid,
    Layer,
    Logits,
    KvCache,
    Timeline,
    Model,
    Sampling,
    Tables,
    // the labs, in the order of the lab window's tabs
    TokenizerLab,
    KvLab,
    ChatLab,
    ContextCompareLab,
    LogitLensLab,
};

struct PanelHelp {
    QString title;        // plain text
    QString explanation;  // rich text, two or three sentences
    QString hint;         // plain text, one line
};

// Every panel and lab, in table order.
QList<Panel> all_panels();
bool is_lab(Panel panel);
// The object name of the widget a panel is (its dock, the central tables or the lab tab):
// "tokenDock", "workspace", "tokenizerLab", ...
QString panel_object_name(Panel panel);
std::optional<Panel> panel_named(const QString& object_name);
// The texts in the language installed now.
PanelHelp panel_help(Panel panel);

}  // namespace lmscope::gui
