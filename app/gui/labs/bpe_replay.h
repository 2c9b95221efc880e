// Tokenizer lab: replays the merges of a BPE tokenizer on one word, step by step, as the
// encoder applies them: start from the word's characters (byte-level characters for byte-level
// BPE, "▁" for the space of SentencePiece), then repeatedly merge the adjacent pair that ranks
// first (lowest merge rank; the leftmost on ties) until no ranked pair is left.
// Byte-level BPE ranks a pair (left, right) by tokenizer.ggml.merges; SentencePiece BPE ranks
// the piece left+right by its score (tok::list_merges order), whichever pair forms it.
#pragma once

#include "tokenizer/lab.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lmscope::gui::labs {

struct ReplayStep {
    std::vector<std::string> pieces;  // vocabulary strings after this step
    int32_t rank = -1;                // the merge applied (its index in the merge list); -1 at the start
    size_t at = 0;                    // index in `pieces` of the piece the merge made
};

// The text the replay starts from for `word` (as word_in_context writes it), as symbols.
std::vector<std::string> initial_symbols(const tok::Tokenizer& tokenizer, const std::string& word);

// steps[0] is the start; every later step applies one merge. `merges` is list_merges(tokenizer).
std::vector<ReplayStep> replay_merges(const tok::Tokenizer& tokenizer, std::span<const tok::Merge> merges,
                                      const std::string& word);

}  // namespace lmscope::gui::labs
