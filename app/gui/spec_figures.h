// The spec panel's text for a loaded model: title, subtitle and the key figures (translated).
#pragma once

#include "gui/loaded_model.h"
#include "widgets/spec_panel.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace lmscope::gui {

class SpecText {
    Q_DECLARE_TR_FUNCTIONS(lmscope::gui::SpecText)
public:
    // The file's base name ("SmolLM2-135M-Instruct.Q4_1"): readable, and what the teacher chose.
    static QString title(const LoadedModel& m);
    // "llama · Q4_1 · GGUF v3", the file name, the metadata's general.name when it has one, and
    // a warning when lmscope cannot run the model.
    static QString subtitle(const LoadedModel& m);
    // Ids: layers, embd, heads, kv_heads, attention, head_dim, ff, vocab, context, params,
    // tensors, weights, kv_per_token, rope_base, rms_eps, tokenizer, recipe (runnable models),
    // runnable.
    static QList<widgets::SpecFigure> figures(const LoadedModel& m);
    // The recipe's features in words, one per line ("QK-norm (each q and k head normalized)").
    static QString recipe(const std::vector<model::RecipeFeature>& features);
};

}  // namespace lmscope::gui
