// tiktoken encodings: OpenAI's cl100k_base (GPT-4, GPT-3.5) and o200k_base (GPT-4o).
// An encoding is a rank file (one "base64(bytes) rank" per line, gzip or plain) plus a
// pre-tokenizer expression and special tokens that tiktoken keeps in code; the file's name says
// which encoding it is ("cl100k_base.tiktoken.gz"). Encoding is byte-level BPE by rank: a word
// that is a token whole is taken whole, otherwise its bytes are merged, repeatedly, at the
// adjacent pair whose concatenation has the lowest rank (the leftmost on ties), until no
// adjacent pair's concatenation is a token. Token ids are the ranks; the special tokens sit
// above them (ids tiktoken leaves unassigned are empty "unused" pieces that encode never gives).
// Pieces are stored in the byte-level alphabet (byte_level.h), as GGUF BPE vocabularies are.
#pragma once

#include "tokenizer/pretokenizer.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/word_cache.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lmscope::tok {

// What tiktoken knows of an encoding besides its rank file.
struct TiktokenEncoding {
    std::string_view name;        // "cl100k_base": the rank file's name without .tiktoken[.gz]
    std::string_view used_by;     // "GPT-4, GPT-3.5"
    int32_t n_ranks;              // mergeable tokens, ranks 0..n_ranks-1
    std::vector<std::pair<std::string_view, int32_t>> specials;  // text -> id
};

// The encodings lmscope knows, and the one a rank file's path names (nullptr when none).
const std::vector<TiktokenEncoding>& tiktoken_encodings();
const TiktokenEncoding* tiktoken_encoding_of(const std::string& path);
// True when the path names a rank file (".tiktoken" or ".tiktoken.gz").
bool is_tiktoken_path(const std::string& path);

// Reads and validates a rank file: the bytes of each rank, [n_ranks]. Every line is
// "BASE64 RANK" (empty lines skipped); lines, ranks and sizes are capped; the ranks must run
// 0..n-1 once each, no two ranks may share bytes, and every single byte must have a rank.
// Throws FormatError(path, "line N" / "ranks", reason) or IoError.
std::vector<std::string> read_tiktoken_ranks(const std::string& path);
// The same from the (decompressed) content; `path` names it in errors.
std::vector<std::string> parse_tiktoken_ranks(std::string_view text, const std::string& path);

class TiktokenTokenizer final : public Tokenizer {
public:
    // Throws UnsupportedError for a file name that names no known encoding, FormatError for
    // a rank file that does not fit its encoding.
    explicit TiktokenTokenizer(const std::string& path);
    Family family() const override { return Family::ByteLevelBpe; }
    // "tiktoken cl100k_base (GPT-4, GPT-3.5): byte-level BPE by rank, 100256 ranks + 5 special"
    std::string describe() const override;
    const TiktokenEncoding& encoding() const { return encoding_; }

protected:
    void encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const override;

private:
    TiktokenTokenizer(const TiktokenEncoding& encoding, std::vector<std::string> ranks, const std::string& path);
    // BPE by rank of one pre-tokenized word (raw bytes).
    void bpe_word(std::string_view word, std::vector<BpePiece>& out) const;
    int32_t rank_of(std::string_view bytes) const;  // -1 when the bytes are no token

    const TiktokenEncoding& encoding_;
    std::vector<std::string> bytes_;  // [rank] -> the token's bytes
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string_view, int32_t, Hash, std::equal_to<>> rank_;  // keys point into bytes_
    PreTokenizer pre_;
    WordCache cache_;
};

}  // namespace lmscope::tok
