// Tokenizer lab helpers: the merges of a BPE model in order, a side-by-side comparison of
// several tokenizers on the same strings, and a misspelling generator.
#pragma once

#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lmscope::tok {

struct Merge {
    std::string left, right;  // vocabulary strings (byte-level characters / "▁" as stored)
    int32_t result = -1;      // the token left + right, -1 when it is not in the vocabulary
};

// The merges of a BPE model, first applied first. Byte-level BPE: tokenizer.ggml.merges.
// SentencePiece BPE (GGUF "llama" vocabularies and BPE .model files): derived from the pieces
// by score: each multi-character piece is split the way the encoder would build it from
// the pieces ranked above it; pieces that cannot be built that way are left out. tiktoken
// encodings: the same, by rank (each token's bytes merged with the lower ranks only).
// Throws UnsupportedError for a unigram (or word/char) model: it has no merges.
std::vector<Merge> list_merges(const Tokenizer& tokenizer);

// How a tokenizer splits words, for the lab's labels.
enum class Algorithm {
    ByteLevelBpe,          // GGUF "gpt2" vocabularies: merges by their list's rank
    TiktokenBpe,           // tiktoken rank files: merges by the rank of the merged bytes
    SentencePieceBpe,
    SentencePieceUnigram,  // also SentencePiece's word and char models (no merges either)
    WordPiece,             // BERT: the longest piece first, "##" continues a word
};
Algorithm algorithm_of(const Tokenizer& tokenizer);

// One tokenizer's result on one string.
struct Tokenization {
    std::vector<int32_t> ids;
    std::vector<std::string> pieces;
    size_t byte_pieces = 0;  // tokens that stand for part of a character (byte fallback)
};

struct Comparison {
    std::vector<std::string> texts;
    std::vector<std::vector<Tokenization>> cells;  // [text][tokenizer]
    // Tokens over all texts for one tokenizer.
    size_t total_tokens(size_t tokenizer) const;
    size_t total_byte_pieces(size_t tokenizer) const;
};

Comparison compare_tokenizers(std::span<const Tokenizer* const> tokenizers,
                              std::span<const std::string> texts);

// Plausible misspellings of a word: two adjacent letters swapped, a letter dropped, a letter
// doubled, ie <-> ei, and common vowel confusions (a/e, e/i, o/u, i/y), case kept.
// Deterministic order, no duplicates, never the word itself. Works on UTF-8 characters.
std::vector<std::string> misspellings(std::string_view word);

}  // namespace lmscope::tok
