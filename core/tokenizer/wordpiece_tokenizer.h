// WordPiece, BERT's tokenizer (GGUF tokenizer.ggml.model = "bert", and HF vocab.txt files),
// as HF's BertTokenizer does it:
//   1. normalise (BertNormalizer): drop U+0000, U+FFFD and "other" characters (Cc, Cf, Cn,
//      Co; not \t \n \r), map whitespace to a space, put spaces around CJK ideographs, and for
//      an uncased vocabulary strip accents (NFD, drop Mn) and lower-case;
//   2. pre-tokenize (BertPreTokenizer): split at whitespace, every punctuation character a
//      word of its own;
//   3. WordPiece each word: greedy longest match first, "##" marking a continuation; a word of
//      more than 100 characters, or one that cannot be covered, is one [UNK].
// Pieces are kept in HF's form ("hello", "##llo", "[CLS]"). Every token carries the byte span
// of the original input its characters came from. Unicode data comes from libutf8proc.
#pragma once

#include "tokenizer/tokenizer.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lmscope::tok {

// One character of normalised text and the byte range [begin, end) of the input character it
// came from (several normalised characters share one range after NFD or CJK padding).
struct BertChar {
    char32_t cp = 0;
    size_t begin = 0;
    size_t end = 0;
};

// Steps 1 and 2 above. Invalid UTF-8 bytes count as U+FFFD, so they are dropped.
class BertPreTokenizer {
public:
    explicit BertPreTokenizer(bool lower_case) : lower_case_(lower_case) {}
    // chars: the normalised characters of `text` (ranges relative to `text`); words: [first,
    // last) index ranges into chars, in order. Both are cleared first.
    void split(std::string_view text, std::vector<BertChar>& chars,
               std::vector<std::pair<size_t, size_t>>& words) const;

private:
    void normalize(std::string_view text, std::vector<BertChar>& out) const;
    bool lower_case_;  // also strips accents (BERT's default for uncased vocabularies)
};

class WordPieceTokenizer final : public Tokenizer {
public:
    static constexpr size_t kMaxWordChars = 100;  // longer words become [UNK] (BERT's limit)

    // `vocab`: HF piece forms, special.unk set (read_vocab and read_wordpiece_vocab ensure
    // it; UsageError otherwise). Lower-casing follows wordpiece_uncased(vocab).
    explicit WordPieceTokenizer(Vocab vocab);
    Family family() const override { return Family::WordPiece; }
    std::string describe() const override;  // "WordPiece (BERT, uncased), 30522 tokens"
    bool lower_case() const { return lower_case_; }

protected:
    void encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const override;

private:
    // WordPiece of one word, chars [first, last); appends the tokens with input spans.
    void encode_word(const std::vector<BertChar>& chars, size_t first, size_t last, size_t offset,
                     std::vector<Token>& out) const;

    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    using PieceMap = std::unordered_map<std::string, int32_t, Hash, std::equal_to<>>;
    PieceMap initial_;       // word-initial piece text -> id
    PieceMap continuation_;  // continuation text without its "##" -> id
    size_t max_initial_ = 0;       // longest key of initial_ (bytes)
    size_t max_continuation_ = 0;  // longest key of continuation_ (bytes)
    bool lower_case_ = true;
    BertPreTokenizer pre_;
};

}  // namespace lmscope::tok
