// The Context compare lab's engine work and arithmetic (no widgets): one prompt through its own
// lab session with every attention plane captured, plus the next-token logits after every
// position, and what the lab derives from them — a token's attention row in a (layer, head), a
// per-head measure of that row over the whole layer x head grid. The next-token distributions
// after two picked positions are compared by analysis::compare_distributions.
#pragma once

#include "util/cancel.h"
#include "util/types.h"
#include "gui/engine_setup.h"


#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lmscope::trace {
class SessionTrace;
}

namespace lmscope::gui::labs::context_compare {

// Longer prompts are refused: the lab keeps every position's logits ([n][n_vocab] floats).
inline constexpr int32_t kMaxPromptTokens = 64;

struct SideRun {
    std::vector<int32_t> ids;                          // [n] the prompt's tokens (with BOS when the vocabulary adds it)
    std::vector<std::string> texts;                    // [n] the bytes each token stands for (special tokens rendered)
    std::shared_ptr<const trace::SessionTrace> trace;  // one prefill step, every (layer, head) plane in full
    std::vector<float> logits;                         // [n][n_vocab] next-token logits after each position
    int32_t n_vocab = 0;
    int32_t n_layer = 0;
    int32_t n_head = 0;
    std::vector<LayerHead> ablated;                    // the heads switched off in the prefill

    int32_t size() const { return int32_t(ids.size()); }
    std::span<const float> logits_at(int32_t pos) const;  // [n_vocab]; throws UsageError when out of range
};

// Tokenizes `text` and prefills it in a fresh lab session (capture: every plane in full), which
// returns the logits of every row in the same pass. Throws UsageError for an
// empty or too long prompt, CancelledError when `token` is cancelled, lmscope::Error otherwise.
// `off`: heads switched off (their z zeroed before Wo) in the prefill.
SideRun run_side(const LabModelPtr& model, const std::string& text, const CancelToken* token,
                 const std::vector<LayerHead>& off = {}, const EngineOptions& chosen = {});

// Which head of a layer makes the two picked tokens differ: the KL divergence KL(A || B) between
// the next-token distributions after the picked tokens (pos_a in ids_a, pos_b in ids_b), each a
// fresh forward of the prefix up to the picked token on a backend of the shared model —
// with every head on, with the heads `off` switched off, and with `off` plus each single head of
// `layer` switched off (n_head + 2 runs of each prefix: one layer, never the whole grid).
struct HeadSweep {
    std::vector<LayerHead> off;       // the heads off in every run but the first
    int32_t layer = 0;
    double kl_on = 0.0;               // every head on
    double kl_off = 0.0;              // `off` switched off
    std::vector<double> kl_head;      // [head] `off` and (layer, head) switched off
};
HeadSweep sweep_layer(const LabModelPtr& model, std::span<const int32_t> ids_a, int32_t pos_a,
                      std::span<const int32_t> ids_b, int32_t pos_b, const std::vector<LayerHead>& off, int32_t layer,
                      const CancelToken* token, const EngineOptions& chosen = {});

// The default positions to compare: the shared word of the two prompts (the longest token text,
// letters only and at least two of them, that both hold, e.g. " bank"; its last occurrence in
// each), else the last token of each. Texts are compared trimmed and case-folded.
std::pair<int32_t, int32_t> default_picks(const std::vector<std::string>& a, const std::vector<std::string>& b);

// Query `pos`'s softmax weights in (layer, head) over keys 0..pos ([pos + 1]), from the stored
// plane (half precision, as the trace holds it). Empty when the plane is absent.
std::vector<float> attention_row(const SideRun& run, int32_t layer, int32_t head, int32_t pos);

enum class HeadMeasure { Entropy, PreviousToken, FirstToken, Self, MaxWeight };
inline constexpr int kHeadMeasureCount = 5;
// The measure of one attention row over keys 0..pos (pos = row.size() - 1): entropy in nats,
// the weight on key pos - 1 (0 at position 0), on key 0, on key pos itself, or the largest weight.
float head_measure(std::span<const float> row, HeadMeasure measure);
// [layer][head] head_measure of query `pos`'s row; NaN where a plane is absent.
std::vector<float> measure_grid(const SideRun& run, int32_t pos, HeadMeasure measure);

}  // namespace lmscope::gui::labs::context_compare
