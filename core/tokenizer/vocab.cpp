#include "tokenizer/vocab.h"

#include "gguf/gguf.h"
#include "tokenizer/pretokenizer.h"
#include "tokenizer/wordpiece_vocab.h"
#include "util/error.h"

#include <array>

namespace lmscope::tok {

std::string_view token_type_name(TokenType t) {
    switch (t) {
    case TokenType::Normal: return "normal";
    case TokenType::Unknown: return "unknown";
    case TokenType::Control: return "control";
    case TokenType::UserDefined: return "user-defined";
    case TokenType::Unused: return "unused";
    case TokenType::Byte: return "byte";
    }
    return "?";
}

std::optional<int32_t> Vocab::find(std::string_view piece) const {
    auto it = index.find(std::string(piece));
    if (it == index.end()) return std::nullopt;
    return it->second;
}

void Vocab::build_index() {
    index.clear();
    index.reserve(pieces.size());
    for (size_t i = 0; i < pieces.size(); ++i) index[pieces[i]] = static_cast<int32_t>(i);
    if (special.eot < 0) {
        // The end-of-turn pieces of common chat formats (ChatML, Llama 3, Phi-3, Gemma, DeepSeek).
        static constexpr std::array<std::string_view, 6> kEot = {
            "<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|EOT|>", "<|endoftext|>"};
        for (std::string_view p : kEot) {
            auto id = find(p);
            if (id && (types[*id] == TokenType::Control || types[*id] == TokenType::UserDefined)) {
                special.eot = *id;
                break;
            }
        }
    }
}

std::optional<uint8_t> parse_byte_piece(std::string_view p) {
    if (p.size() != 6 || p.substr(0, 3) != "<0x" || p[5] != '>') return std::nullopt;
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    };
    int hi = hex(p[3]), lo = hex(p[4]);
    if (hi < 0 || lo < 0) return std::nullopt;
    return static_cast<uint8_t>(hi * 16 + lo);
}

namespace {

constexpr const char* kTokens = "tokenizer.ggml.tokens";
constexpr const char* kScores = "tokenizer.ggml.scores";
constexpr const char* kTypes = "tokenizer.ggml.token_type";
constexpr const char* kMerges = "tokenizer.ggml.merges";

std::string count_mismatch(size_t got, size_t n) {
    return "has " + std::to_string(got) + " entries, but " + kTokens + " has " + std::to_string(n);
}

int32_t read_special_id(const gguf::File& f, const char* key, size_t n) {
    std::optional<int64_t> v = f.opt_int(key);
    // -1 (or its unsigned 32-bit form, which some converters write) marks "none".
    if (!v || *v == -1 || *v == 0xFFFFFFFFll) return -1;
    if (*v < 0 || static_cast<uint64_t>(*v) >= n)
        throw FormatError(f.path(), key,
                          "is " + std::to_string(*v) + ", outside the vocabulary of " +
                              std::to_string(n) + " tokens");
    return static_cast<int32_t>(*v);
}

// Scores (SentencePiece needs them; BPE and WordPiece get zeros) and token types (Normal
// when absent), both as long as the piece list; byte tokens must read <0xHH>.
void read_scores_and_types(const gguf::File& f, Vocab& v) {
    const size_t n = v.pieces.size();
    if (f.has(kScores)) {
        v.scores = f.get_float_array(kScores);
        if (v.scores.size() != n) throw FormatError(f.path(), kScores, count_mismatch(v.scores.size(), n));
    } else if (v.model == "llama") {
        throw FormatError(f.path(), kScores, "missing (a SentencePiece vocabulary needs scores)");
    } else {
        v.scores.assign(n, 0.0f);
    }

    if (f.has(kTypes)) {
        std::vector<int64_t> t = f.get_int_array(kTypes);
        if (t.size() != n) throw FormatError(f.path(), kTypes, count_mismatch(t.size(), n));
        v.types.resize(n);
        for (size_t i = 0; i < n; ++i) {
            if (t[i] < 1 || t[i] > 6)
                throw FormatError(f.path(), kTypes,
                                  "entry " + std::to_string(i) + " is " + std::to_string(t[i]) +
                                      ", expected 1..6");
            v.types[i] = static_cast<TokenType>(t[i]);
        }
    } else {
        v.types.assign(n, TokenType::Normal);
    }

    for (size_t i = 0; i < n; ++i) {
        if (v.types[i] == TokenType::Byte && !parse_byte_piece(v.pieces[i]))
            throw FormatError(f.path(), kTokens,
                              "token " + std::to_string(i) + " has type byte but reads '" +
                                  v.pieces[i].substr(0, 32) + "', expected <0xHH>");
    }
}

// SentencePiece and WordPiece pieces: no NUL, no duplicates (the library refuses these with a
// vaguer message).
void check_unique_pieces(const gguf::File& f, const Vocab& v) {
    std::unordered_map<std::string_view, size_t> seen;
    for (size_t i = 0; i < v.pieces.size(); ++i) {
        if (v.pieces[i].find('\0') != std::string::npos)
            throw FormatError(f.path(), kTokens, "token " + std::to_string(i) + " contains a NUL byte");
        if (auto [it, fresh] = seen.emplace(v.pieces[i], i); !fresh)
            throw FormatError(f.path(), kTokens,
                              "token " + std::to_string(i) + " '" + v.pieces[i].substr(0, 32) +
                                  "' is a duplicate of token " + std::to_string(it->second));
    }
}

// Byte-level BPE: a pre-tokenizer family lmscope has, and merges of the form "left right".
void read_merges(const gguf::File& f, Vocab& v) {
    if (PreTokenizer::expressions(v.pre).empty())
        throw UnsupportedError(f.path() + ": tokenizer.ggml.pre: pre-tokenizer family '" + v.pre +
                               "' is not supported");
    v.merges = f.get_string_array(kMerges);
    for (size_t i = 0; i < v.merges.size(); ++i) {
        const std::string& m = v.merges[i];
        size_t sp = m.size() > 1 ? m.find(' ', 1) : std::string::npos;
        if (sp == std::string::npos || sp + 1 >= m.size())
            throw FormatError(f.path(), kMerges,
                              "entry " + std::to_string(i) + " '" + m.substr(0, 32) +
                                  "' is not 'left right'");
    }
}

// BOS/EOS/EOT/UNK/PAD ids and whether BOS/EOS are added, with each family's defaults; a
// SentencePiece vocabulary without an unknown id takes its first token of type unknown.
void read_specials(const gguf::File& f, Vocab& v) {
    const size_t n = v.pieces.size();
    const bool bert = v.model == "bert";  // [CLS] and [SEP] play BOS and EOS
    const char* bos_key = bert ? "tokenizer.ggml.cls_token_id" : "tokenizer.ggml.bos_token_id";
    const char* eos_key = bert ? "tokenizer.ggml.seperator_token_id" : "tokenizer.ggml.eos_token_id";
    v.special.bos = read_special_id(f, bos_key, n);
    v.special.eos = read_special_id(f, eos_key, n);
    v.special.eot = read_special_id(f, "tokenizer.ggml.eot_token_id", n);
    v.special.unk = read_special_id(f, "tokenizer.ggml.unknown_token_id", n);
    v.special.pad = read_special_id(f, "tokenizer.ggml.padding_token_id", n);
    const bool spm = v.model == "llama";
    // Without the key, SentencePiece vocabularies and Llama 3's byte-level BPE start with BOS.
    const bool llama3 = v.pre == "llama-bpe" || v.pre == "llama3" || v.pre == "llama-v3";
    v.special.add_bos = f.opt_bool("tokenizer.ggml.add_bos_token").value_or(spm || llama3 || bert);
    v.special.add_eos = f.opt_bool("tokenizer.ggml.add_eos_token").value_or(bert);
    v.add_space_prefix = f.opt_bool("tokenizer.ggml.add_space_prefix").value_or(spm);
    if (bert)
        complete_wordpiece_specials(v, {"tokenizer.ggml.unknown_token_id", bos_key, eos_key});
    if (v.special.add_bos && v.special.bos < 0)
        throw FormatError(f.path(), bos_key, "missing, but tokenizer.ggml.add_bos_token is true");
    if (v.special.add_eos && v.special.eos < 0)
        throw FormatError(f.path(), eos_key, "missing, but tokenizer.ggml.add_eos_token is true");
    if (spm && v.special.unk < 0) {
        for (size_t i = 0; i < n; ++i)
            if (v.types[i] == TokenType::Unknown) {
                v.special.unk = static_cast<int32_t>(i);
                break;
            }
        if (v.special.unk < 0)
            throw FormatError(f.path(), "tokenizer.ggml.unknown_token_id",
                              "missing, and no token has type unknown (SentencePiece needs one)");
    }
}

// Every merge joins two tokens into a token (true of every real BPE vocabulary); needs the index.
void check_merges_join_tokens(const gguf::File& f, const Vocab& v) {
    for (size_t i = 0; i < v.merges.size(); ++i) {
        const std::string& m = v.merges[i];
        const size_t sp = m.find(' ', 1);
        for (const std::string& part : {m.substr(0, sp), m.substr(sp + 1), m.substr(0, sp) + m.substr(sp + 1)})
            if (!v.find(part))
                throw FormatError(f.path(), kMerges,
                                  "entry " + std::to_string(i) + " '" + m.substr(0, 32) + "' needs '" +
                                      part.substr(0, 32) + "', which is not a token");
    }
}

}  // namespace

Vocab read_vocab(const gguf::File& f) {
    Vocab v;
    v.source = f.path();
    v.model = f.get_string("tokenizer.ggml.model");
    if (v.model != "llama" && v.model != "gpt2" && v.model != "bert")
        throw UnsupportedError(f.path() + ": tokenizer.ggml.model: '" + v.model +
                               "' is not supported (supported: llama, gpt2, bert)");
    v.pre = f.opt_string("tokenizer.ggml.pre").value_or("default");

    v.pieces = f.get_string_array(kTokens);
    if (v.pieces.empty()) throw FormatError(f.path(), kTokens, "is empty");
    if (v.pieces.size() > static_cast<size_t>(INT32_MAX)) throw FormatError(f.path(), kTokens, "too many tokens");

    read_scores_and_types(f, v);
    if (v.model == "bert")  // back to HF's piece form, which the duplicate check sees
        for (std::string& p : v.pieces) p = wordpiece_piece_from_gguf(p);
    if (v.model == "llama" || v.model == "bert") check_unique_pieces(f, v);
    if (v.model == "gpt2") read_merges(f, v);
    read_specials(f, v);
    v.build_index();
    check_merges_join_tokens(f, v);
    return v;
}

}  // namespace lmscope::tok
