// Byte-level BPE (GGUF tokenizer.ggml.model = "gpt2"): the text is split by the family's
// pre-tokenizer, each piece's bytes become characters of the byte-level alphabet, and adjacent
// symbols are merged by rank (the index in tokenizer.ggml.merges, lowest first; ties go to the
// leftmost pair) until no ranked pair is left. Results are cached per piece.
#pragma once

#include "tokenizer/pretokenizer.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/word_cache.h"

#include <array>
#include <unordered_map>

namespace lmscope::tok {

class BpeTokenizer final : public Tokenizer {
public:
    // Throws UnsupportedError for an unknown pre-tokenizer family.
    explicit BpeTokenizer(Vocab vocab);
    Family family() const override { return Family::ByteLevelBpe; }
    std::string describe() const override;

    // One merge as the tokenizer uses it (for the lab): symbols are vocabulary strings.
    size_t merge_count() const { return vocab_.merges.size(); }

protected:
    void encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const override;

private:
    // BPE of one pre-tokenized word (raw bytes).
    void bpe_word(std::string_view word, std::vector<BpePiece>& out) const;
    int32_t intern(const std::string& s);

    PreTokenizer pre_;
    bool ignore_merges_ = false;   // a word that is a token is taken whole (Llama 3)
    // Symbols: ids [0, n_vocab) are tokens; ids above are merge results that are no token.
    std::unordered_map<std::string, int32_t> symbols_;  // used while building only
    int32_t n_symbols_ = 0;
    std::array<int32_t, 256> byte_symbol_{};            // [byte] -> symbol of its character, -1
    struct Merge {
        int32_t rank;
        int32_t result;
    };
    std::unordered_map<uint64_t, Merge> merges_;        // (left << 32 | right) -> merge
    // For a byte no token holds: the tokens of U+FFFD's bytes, else the unknown token when it
    // is no control token, else -1 (the byte gives no token).
    std::vector<int32_t> replacement_;
    int32_t usable_unk_ = -1;
    WordCache cache_;
};

}  // namespace lmscope::tok
