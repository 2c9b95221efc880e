// WordPiece training: BERT's pre-tokenization (uncased: lower-cased, accents stripped) gives
// word counts; every word starts as its characters ("w", "##o", "##r", "##d"); then, until the
// vocabulary has the size asked for, the adjacent pair (a, b) with the highest likelihood
// score freq(ab) / (freq(a) * freq(b)) is merged into one piece everywhere (ties: the higher
// pair count, then the pair of lower symbol ids, so the result depends on the text only).
// Pair counts and scores are updated incrementally: a merge touches only the words that hold
// the pair and the pairs next to it, and rescoring only the pairs of a and b.
#pragma once

#include "tokenizer/trainer.h"
#include "tokenizer/wordpiece_tokenizer.h"
#include "util/cancel.h"

#include <cstddef>
#include <memory>

namespace lmscope::tok {

// Reads options.corpus_file (or corpus_text) and options.vocab_size; the other options are
// SentencePiece's. Ids 0-4 are [PAD] [UNK] [CLS] [SEP] [MASK], then the alphabet (sorted by
// bytes; only its vocab_size - 5 most frequent characters when it has more, the words with
// any other left out), then the merged pieces in the order they were made; fewer than
// vocab_size pieces when the corpus has no pairs left to merge. Throws UsageError (a size
// outside 8..1000000, a corpus without words), IoError, FormatError (a corpus file over
// kMaxCorpusBytes), or CancelledError once *cancel is cancelled (checked between merges and
// while counting words).
inline constexpr size_t kMaxCorpusBytes = size_t(256) << 20;
std::unique_ptr<WordPieceTokenizer> train_wordpiece(const TrainOptions& options,
                                                    const CancelToken* cancel = nullptr);

}  // namespace lmscope::tok
