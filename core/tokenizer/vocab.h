// A tokenizer vocabulary as GGUF stores it (tokenizer.ggml.*), validated: every array has one
// entry per token, every special id lies inside the vocabulary, byte pieces read <0xHH>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lmscope::gguf {
class File;
}

namespace lmscope::tok {

// The values of tokenizer.ggml.token_type (the same numbers as SentencePiece's piece types).
enum class TokenType : uint8_t {
    Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6,
};
std::string_view token_type_name(TokenType t);  // "normal", "control", ...

// Special token ids; -1 where the vocabulary has none.
struct SpecialTokens {
    int32_t bos = -1;
    int32_t eos = -1;
    int32_t eot = -1;  // end of turn (chat); from metadata or a well-known piece
    int32_t unk = -1;
    int32_t pad = -1;
    bool add_bos = false;
    bool add_eos = false;
};

struct Vocab {
    std::string source;                // file name, for error messages
    std::string model;                 // "llama" (SentencePiece), "gpt2" (byte-level BPE), "bert" (WordPiece)
    std::string pre;                   // pre-tokenizer family (gpt2 model only)
    std::vector<std::string> pieces;   // [n_vocab]
    std::vector<float> scores;         // [n_vocab] (zeros when the file has none)
    std::vector<TokenType> types;      // [n_vocab]
    std::vector<std::string> merges;   // [n_merges] "left right", rank = index (gpt2 only)
    SpecialTokens special;
    bool add_space_prefix = false;     // SentencePiece: a space is added before the text
    std::unordered_map<std::string, int32_t> index;  // piece -> id (the last id on duplicates)

    int32_t size() const { return static_cast<int32_t>(pieces.size()); }
    std::optional<int32_t> find(std::string_view piece) const;
    // Fills `index` and guesses `special.eot` from well-known chat pieces when unset.
    void build_index();
};

// Reads and validates the vocabulary of a GGUF file. Throws FormatError(file, key, reason)
// or UnsupportedError for a tokenizer model other than "llama", "gpt2" and "bert" (whose pieces
// it converts to HF's form, wordpiece_vocab.h).
Vocab read_vocab(const gguf::File& file);

// Parses "<0xHH>" (upper- or lower-case hex); nullopt for anything else.
std::optional<uint8_t> parse_byte_piece(std::string_view piece);

}  // namespace lmscope::tok
