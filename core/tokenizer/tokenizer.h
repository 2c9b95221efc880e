// The Tokenizer interface: text -> token ids (each with its piece and the byte span of the
// input it covers) and ids -> text. Two families implement it:
//   - SentencePiece (GGUF tokenizer.ggml.model = "llama", and .model files): spm_tokenizer.h
//   - byte-level BPE (GGUF tokenizer.ggml.model = "gpt2"): bpe_tokenizer.h
//   - WordPiece, BERT's (GGUF tokenizer.ggml.model = "bert", HF vocab.txt): wordpiece_tokenizer.h
//   - tiktoken rank files (GPT-4's cl100k_base, GPT-4o's o200k_base): tiktoken_tokenizer.h
// load_tokenizer() picks the right one from a file.
#pragma once

#include "tokenizer/special_split.h"
#include "tokenizer/vocab.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lmscope::gguf {
class File;
}

namespace lmscope::tok {

// One token of an encoded text. [begin, end) is the byte range of the input it stands for;
// added BOS/EOS tokens cover an empty range. A character split into byte-fallback tokens gives
// each byte token the one byte it encodes.
struct Token {
    int32_t id = 0;
    // The vocabulary entry ("▁Hello", "Ġworld", "<0xE6>", "<|im_end|>"); it points into the
    // tokenizer's vocabulary and is valid while the tokenizer lives.
    std::string_view piece;
    size_t begin = 0;
    size_t end = 0;
};

enum class Family { SentencePiece, ByteLevelBpe, WordPiece };

class Tokenizer {
public:
    virtual ~Tokenizer() = default;

    // add_special: prepend BOS / append EOS as the vocabulary asks (add_bos / add_eos).
    // parse_special: text equal to a control token ("<|im_start|>") becomes that token.
    // User-defined tokens are always matched as whole tokens (as llama.cpp does).
    // Invalid UTF-8 never throws: its bytes become byte tokens where the vocabulary has them,
    // else U+FFFD's tokens (as reference tokenizers see the text decoded with replacement);
    // never a control token.
    std::vector<Token> encode(std::string_view text, bool add_special = false,
                              bool parse_special = false) const;
    std::vector<int32_t> encode_ids(std::string_view text, bool add_special = false,
                                    bool parse_special = false) const;

    // The bytes a token stands for (byte-level mapping undone, "▁" -> space, <0xHH> -> byte).
    // Control tokens give their text when render_special, else nothing. Throws UsageError
    // for an id outside the vocabulary.
    std::string token_bytes(int32_t id, bool render_special = false) const;
    // WordPiece: "##llo" gives "llo", any other piece " " + its text (rendered specials too).
    // Concatenated token_bytes; a SentencePiece vocabulary with a space prefix, and WordPiece,
    // drop the one space at the start. Throws UsageError for an id outside the vocabulary.
    std::string decode(std::span<const int32_t> ids, bool render_special = false) const;

    int32_t vocab_size() const { return static_cast<int32_t>(vocab_.pieces.size()); }
    const std::string& piece(int32_t id) const;  // throws UsageError when out of range
    TokenType type(int32_t id) const;            // throws UsageError when out of range
    std::optional<int32_t> find_piece(std::string_view piece) const;
    const SpecialTokens& special() const { return vocab_.special; }
    const Vocab& vocab() const { return vocab_; }
    virtual Family family() const = 0;
    // "SentencePiece BPE, 32000 tokens" / "byte-level BPE (smollm), 49152 tokens"
    virtual std::string describe() const = 0;

    Tokenizer(const Tokenizer&) = delete;
    Tokenizer& operator=(const Tokenizer&) = delete;

protected:
    // split_user_defined: user-defined tokens are cut out of the text before encode_text
    // (GGUF vocabularies, as llama.cpp does); otherwise the encoder handles them itself.
    Tokenizer(Vocab vocab, bool split_user_defined)
        : vocab_(std::move(vocab)), splitter_(vocab_, split_user_defined) {}
    // Encodes one piece of plain text (no special tokens in it) at byte offset `offset` of the
    // whole input, appending to `out`.
    virtual void encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const = 0;

    void check_id(int32_t id) const;

    Vocab vocab_;

private:
    SpecialSplitter splitter_;  // refers to vocab_.pieces
};

// Decodes a stream of generated ids into text, holding back the bytes of a UTF-8 character
// until all of its bytes have arrived (byte-fallback tokens split characters). Bytes that can
// never become valid UTF-8 are passed through as they are.
class StreamDecoder {
public:
    explicit StreamDecoder(const Tokenizer& tokenizer, bool render_special = false)
        : tokenizer_(tokenizer), render_special_(render_special) {}
    // The text that is complete after this token (possibly empty).
    std::string push(int32_t id);
    // Whatever is still held back (an incomplete character at the end of the stream).
    std::string flush();
    size_t pending_bytes() const { return pending_.size(); }

private:
    const Tokenizer& tokenizer_;
    bool render_special_;
    std::string pending_;
};

// Loads the tokenizer of a GGUF model or vocabulary (by its content), of a tiktoken rank file
// (by its name: NAME.tiktoken[.gz]), of an HF WordPiece vocab.txt (by its name: *.txt),
// or of a SentencePiece .model file. Throws IoError, FormatError (naming the file and field) or UnsupportedError.
std::unique_ptr<Tokenizer> load_tokenizer(const std::string& path);
std::unique_ptr<Tokenizer> load_tokenizer(const gguf::File& file);
// The largest .model file load_tokenizer reads (Gemma 3's 262,144 pieces take 4.5 MiB).
inline constexpr size_t kMaxSentencePieceModelBytes = size_t(64) << 20;
// A serialized SentencePiece ModelProto (a .model file's content); `name` names it in errors.
std::unique_ptr<Tokenizer> load_sentencepiece_model(std::string serialized, const std::string& name);

}  // namespace lmscope::tok
