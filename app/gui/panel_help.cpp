#include "gui/panel_help.h"

#include <QCoreApplication>
#include <QtGlobal>

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace lmscope::gui {

namespace {

struct Row {
    Panel panel;
    const char* object_name;
    const char* title;
    const char* explanation;
    const char* hint;
};

// What a teacher would say pointing at each panel on the projector. Rich text: <b> marks the
// terms the glossary explains.
constexpr Row kRows[] = {
    {Panel::Tokens, "tokenDock", QT_TRANSLATE_NOOP("PanelHelp", "Tokens"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "The model never reads letters or words: the tokenizer cuts the text into <b>tokens</b>, pieces of "
                       "words that each have a number (an id) in a fixed vocabulary. Each chip is one token, prompt and "
                       "generated tokens in different colours, spaces and newlines drawn so you can see them. Press Step "
                       "to run the model one token at a time, and click a chip to pick the row the attention views show."),
     QT_TRANSLATE_NOOP("PanelHelp", "Each chip is one token, a piece the model really reads. Click one to see what it attends to.")},
    {Panel::Attention, "heatmapDock", QT_TRANSLATE_NOOP("PanelHelp", "Attention"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "Attention is how a token gathers information from the tokens before it. Each token asks a question "
                       "(its <b>query</b>), every earlier token offers a label (its <b>key</b>) and content (its <b>value</b>): "
                       "the query is compared with every key, <b>softmax</b> turns the scores into weights that add up to 1, "
                       "and the token takes that mix of values. A row is the token asking, a column the token looked at, "
                       "darker means more weight; the upper triangle is the future, masked because a token may not look ahead."),
     QT_TRANSLATE_NOOP("PanelHelp", "Row: the token asking; column: the token it looks at; darker: more attention.")},
    {Panel::AttentionGrid, "gridDock", QT_TRANSLATE_NOOP("PanelHelp", "Attention Grid"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "Every layer has several attention <b>heads</b> working side by side, each with its own queries and "
                       "keys, so each can look for something different: the previous token, the first token, a matching "
                       "word. The grid shows every layer (rows) and head (columns) as a small heatmap; click one to open it "
                       "in the Attention panel. Heads marked in the same colour share one key/value head (<b>GQA</b>), "
                       "which makes the KV cache smaller. Right-click a head to switch it off: the next steps run without it "
                       "(its output is zero) and the grid crosses it out, so you can watch the prediction change."),
     QT_TRANSLATE_NOOP("PanelHelp", "Every layer and head at once. Click a thumbnail to open it in the Attention panel.")},
    {Panel::Layer, "layerDock", QT_TRANSLATE_NOOP("PanelHelp", "Layer"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "What one layer does to the selected token, with the model's real numbers: from the token's vector "
                       "each head makes a <b>query</b> (what it is looking for), a <b>key</b> (what it offers) and a "
                       "<b>value</b> (what it carries). The query is multiplied with every key, scaled, the future is "
                       "masked and <b>softmax</b> turns the scores into weights that mix the values; <b>RoPE</b> first "
                       "turns q and k by their positions, so the score depends on the distance between tokens. Then the "
                       "<b>feed-forward network</b> works on the token alone, and both parts add their results to the "
                       "<b>residual stream</b>. Pick the token, layer and head in the other panels."),
     QT_TRANSLATE_NOOP("PanelHelp", "Query, key, value, scores, RoPE and the FFN of the selected layer, head and token.")},
    {Panel::Logits, "logitsDock", QT_TRANSLATE_NOOP("PanelHelp", "Logits"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "After the last layer the model gives every token of its vocabulary a score, a <b>logit</b>; softmax "
                       "turns the scores into the probabilities of the next token. The sampling settings then reshape or cut "
                       "that list and one token is drawn from what is left. The bars show the best candidates before and "
                       "after the filters; click one to force that token and see where the text goes instead."),
     QT_TRANSLATE_NOOP("PanelHelp", "The candidates for the next token and their chances. Click one to force it.")},
    {Panel::KvCache, "kvDock", QT_TRANSLATE_NOOP("PanelHelp", "KV Cache"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "So that it does not recompute the past at every step, the model keeps the keys and values of every "
                       "token it has seen: the <b>KV cache</b>. The prompt fills it in one go (prefill), then each new token "
                       "adds one entry per layer (decode). The chart shows the bytes it holds as the tokens grow, measured "
                       "and from the formula 2 × layers × KV heads × head size × tokens × bytes."),
     QT_TRANSLATE_NOOP("PanelHelp", "The memory holding the keys and values of every token so far: it grows with each step.")},
    {Panel::Timeline, "timelineDock", QT_TRANSLATE_NOOP("PanelHelp", "Timeline"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "Each step of the loop is one bar. The first, <b>prefill</b>, reads the whole prompt at once; every "
                       "<b>decode</b> step after it adds one token, reusing the KV cache. Hover a bar for its time, and "
                       "click one to go back to that step and try something else."),
     QT_TRANSLATE_NOOP("PanelHelp", "One bar per step: the prefill, then one decode step per token. Click a step to go back.")},
    {Panel::Model, "specDock", QT_TRANSLATE_NOOP("PanelHelp", "Model"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "The shape of the loaded model: how many layers, how many attention heads and KV heads, how long each "
                       "token's vector is, the vocabulary size and how the weights are stored. These numbers decide how much "
                       "work each token costs and how fast the KV cache grows."),
     QT_TRANSLATE_NOOP("PanelHelp", "The model's size and shape: layers, heads, vocabulary.")},
    {Panel::Sampling, "samplingDock", QT_TRANSLATE_NOOP("PanelHelp", "Sampling"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "These settings decide how the next token is picked from the probabilities. A <b>temperature</b> "
                       "below 1 makes the likely tokens even likelier, above 1 flattens the odds; <b>top-k</b> keeps the k "
                       "best, <b>top-p</b> the fewest whose chances add up to p, <b>min-p</b> drops tokens far less likely "
                       "than the best. The seed fixes the random draw, so a run can be repeated."),
     QT_TRANSLATE_NOOP("PanelHelp", "How the next token is picked. Change the temperature and watch the Logits panel.")},
    {Panel::Tables, "workspace", QT_TRANSLATE_NOOP("PanelHelp", "Tensors and Metadata"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "A model file is a set of named weight matrices (<b>tensors</b>) and settings (<b>metadata</b>). Each "
                       "tensor shows its name, shape and storage type; quantized types such as Q4_1 keep each number in "
                       "about 5 bits to save memory. The metadata holds what the engine reads to run the model: the layer "
                       "and head counts, the tokenizer's vocabulary, the chat template."),
     QT_TRANSLATE_NOOP("PanelHelp", "What the model file holds: its weight matrices and its settings.")},
    {Panel::TokenizerLab, "tokenizerLab", QT_TRANSLATE_NOOP("PanelHelp", "Tokenizer lab"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "Each tokenizer learned its own vocabulary of pieces (<b>BPE</b> merges frequent pairs, Unigram keeps "
                       "likely pieces, WordPiece builds words from parts), so the same text splits differently. Compare the "
                       "splits side by side, train a tokenizer yourself at a chosen vocabulary size, and see how a "
                       "misspelling breaks a word into more, rarer pieces and changes what the model predicts next."),
     QT_TRANSLATE_NOOP("PanelHelp", "One text, several tokenizers: compare how many pieces each one makes.")},
    {Panel::KvLab, "kvLab", QT_TRANSLATE_NOOP("PanelHelp", "KV cache lab"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "The KV cache keeps a key and a value for every layer, KV head and token, so it takes 2 × layers × KV "
                       "heads × head size × tokens × bytes per number. Try real models, long contexts, fewer KV heads (GQA, "
                       "MQA) and smaller number formats, and see what fits in a memory budget. The experiment measures what "
                       "a smaller cache changes in the model's predictions."),
     QT_TRANSLATE_NOOP("PanelHelp", "How large the KV cache gets: pick a model and a context length.")},
    {Panel::ChatLab, "chatLab", QT_TRANSLATE_NOOP("PanelHelp", "Chat lab"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "The model remembers nothing between turns: each reply is computed from the whole conversation, which "
                       "is sent again every turn through the chat template. The highlighted tokens were already sent before; "
                       "the chart shows how many tokens each turn had to prefill, with and without reusing the cached prefix."),
     QT_TRANSLATE_NOOP("PanelHelp", "Every turn sends the whole conversation again: watch the prefill grow.")},
    {Panel::ContextCompareLab, "contextCompareLab", QT_TRANSLATE_NOOP("PanelHelp", "Context compare lab"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "A word takes its meaning from its neighbours: \"bank\" by a river and \"bank\" in an account start as "
                       "the same token, but attention mixes different context into each. Compare that token's attention "
                       "layer by layer and head by head, and how far apart the two next-token predictions are (<b>KL</b>)."),
     QT_TRANSLATE_NOOP("PanelHelp", "One word in two sentences: see how the context changes what it attends to.")},
    {Panel::LogitLensLab, "logitLensLab", QT_TRANSLATE_NOOP("PanelHelp", "Logit lens lab"),
     QT_TRANSLATE_NOOP("PanelHelp",
                       "The prediction is built up layer by layer. The <b>logit lens</b> reads the token's vector after every "
                       "layer as if it were the last one and shows the tokens it would predict there: early layers guess "
                       "vaguely, and you can watch the final answer climb to the top."),
     QT_TRANSLATE_NOOP("PanelHelp", "What would the model say if it stopped at this layer?")},
};

const Row& row(Panel panel) {
    const auto it = std::find_if(std::begin(kRows), std::end(kRows), [panel](const Row& r) { return r.panel == panel; });
    if (it == std::end(kRows)) throw std::logic_error("panel_help: a panel without a row");
    return *it;
}

QString tr(const char* text) { return QCoreApplication::translate("PanelHelp", text); }

}  // namespace

QList<Panel> all_panels() {
    QList<Panel> out;
    for (const Row& r : kRows) out << r.panel;
    return out;
}

bool is_lab(Panel panel) { return panel >= Panel::TokenizerLab; }

QString panel_object_name(Panel panel) { return QLatin1String(row(panel).object_name); }

std::optional<Panel> panel_named(const QString& object_name) {
    for (const Row& r : kRows)
        if (object_name == QLatin1String(r.object_name)) return r.panel;
    return std::nullopt;
}

PanelHelp panel_help(Panel panel) {
    const Row& r = row(panel);
    return {tr(r.title), tr(r.explanation), tr(r.hint)};
}

}  // namespace lmscope::gui
