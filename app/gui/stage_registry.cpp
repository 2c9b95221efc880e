#include "gui/stage_registry.h"

#include "gui/labs/tokenizer_compare_view.h"
#include "gui/labs/tokenizer_lab.h"

#include <QCoreApplication>

namespace lmscope::gui {

namespace {

// A factory that lends `panels`, in this order.
std::function<QList<QWidget*>(StagePanels&)> lend(std::initializer_list<Panel> panels) {
    return [list = QList<Panel>(panels)](StagePanels& from) {
        QList<QWidget*> out;
        for (Panel p : list)
            if (QWidget* w = from.lend(p)) out << w;
        return out;
    };
}

// The session's tokens (the prompt typed, its chips), then the tokenizer lab's comparison: a
// text in every tokenizer side by side, where a misspelling typed shows its extra pieces (the
// lab's other controls stay in it).
QList<QWidget*> tokens_and_tokenizers(StagePanels& from) {
    QList<QWidget*> out{from.lend(Panel::Tokens)};
    if (auto* lab = qobject_cast<labs::TokenizerLab*>(from.lab(Panel::TokenizerLab))) out << from.lend(lab->compareView());
    out.removeAll(nullptr);
    return out;
}

}  // namespace

const std::vector<StageSpec>& stages() {
    static const std::vector<StageSpec> table = {
        {"tokens", QT_TRANSLATE_NOOP("Stage", "Text becomes tokens"),
         QT_TRANSLATE_NOOP("Stage",
                           "The model never sees letters: the text is split into tokens, and each token is a number "
                           "(hover a chip for its id). ␣ marks a space that belongs to the token after it. Other "
                           "tokenizers split the same text differently; type a misspelling such as “definately” and "
                           "it breaks into more, rarer pieces."),
         StageArrangement::Wide, kPickNone, tokens_and_tokenizers},
        {"prefill", QT_TRANSLATE_NOOP("Stage", "Prefill: the prompt goes in"),
         QT_TRANSLATE_NOOP("Stage",
                           "The first Step (Space) feeds the whole prompt at once: every token goes through every "
                           "layer together, and the status bar counts the layers. Each layer keeps the keys and "
                           "values of every token it has seen: the KV cache fills, by the same number of bytes for "
                           "every token."),
         StageArrangement::Stacked, kPickNone, lend({Panel::Tokens, Panel::KvCache})},
        {"attention", QT_TRANSLATE_NOOP("Stage", "Attention"),
         QT_TRANSLATE_NOOP("Stage",
                           "Each head of each layer decides, for every token, how much it reads each earlier token: "
                           "one row of the heatmap. The hatched triangle is the future, which the model may not see. "
                           "The grid shows every layer and head at once; heads coloured alike share one KV head "
                           "(grouped-query attention)."),
         StageArrangement::SideBySide, kPickLayer | kPickHead | kPickToken, lend({Panel::Attention, Panel::AttentionGrid})},
        {"layer", QT_TRANSLATE_NOOP("Stage", "Inside one layer"),
         QT_TRANSLATE_NOOP("Stage",
                           "From the token's vector each head makes a query (what it looks for), a key (what it "
                           "offers) and a value (what it carries). q · k for every key, scaled, masked and turned "
                           "by softmax into weights that add up to 1: the heatmap's row. RoPE turns q and k by "
                           "their position; the FFN works on each token alone, and both add their output to the "
                           "residual stream."),
         StageArrangement::Stacked, kPickLayer | kPickHead | kPickToken, lend({Panel::Layer})},
        {"next-token", QT_TRANSLATE_NOOP("Stage", "The next token"),
         QT_TRANSLATE_NOOP("Stage",
                           "After the last layer every token of the vocabulary gets a score, and softmax turns the "
                           "scores into probabilities. Temperature, top-k and top-p reshape and cut the list before "
                           "one token is drawn; at temperature 0 the top one is always taken. Click another "
                           "candidate to force it: the story branches."),
         StageArrangement::SideBySide, kPickNone, lend({Panel::Logits, Panel::Sampling})},
        {"decode", QT_TRANSLATE_NOOP("Stage", "Decode: one token at a time"),
         QT_TRANSLATE_NOOP("Stage",
                           "Each Step now feeds one token: it reads the keys and values of every earlier token from "
                           "the cache instead of computing them again. The new token is appended and the loop "
                           "starts again. Compare the long prefill with the short decode steps on the timeline."),
         StageArrangement::Stacked, kPickNone, lend({Panel::Timeline, Panel::Tokens})},
        {"kv-cost", QT_TRANSLATE_NOOP("Stage", "What the KV cache costs"),
         QT_TRANSLATE_NOOP("Stage",
                           "The cache takes 2 × layers × KV heads × head size × tokens × bytes. Sharing KV heads "
                           "(GQA), storing them in 8 or 4 bits, or keeping the oldest in host memory (offload) makes "
                           "it smaller or cheaper. Gemma's local layers keep only the last 512 tokens (a sliding "
                           "window): past it, only its global layers grow."),
         StageArrangement::Wide, kPickNone, lend({Panel::KvLab})},
        {"chat", QT_TRANSLATE_NOOP("Stage", "The model remembers nothing"),
         QT_TRANSLATE_NOOP("Stage",
                           "A chat is the same loop: after each turn the whole conversation is sent again, through "
                           "the chat template. The model keeps nothing between turns; its “memory” is the re-sent "
                           "text, which grows with every turn. The cache can reuse what it has seen, but the model "
                           "still reads all of it."),
         StageArrangement::Wide, kPickNone, lend({Panel::ChatLab})},
    };
    return table;
}

QString stage_title(const StageSpec& stage) { return QCoreApplication::translate("Stage", stage.title); }

QString stage_sentences(const StageSpec& stage) { return QCoreApplication::translate("Stage", stage.sentences); }

}  // namespace lmscope::gui
