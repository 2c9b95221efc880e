#include "tokenizer/tokenizer.h"

#include "gguf/gguf.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/spm_tokenizer.h"
#include "tokenizer/tiktoken_tokenizer.h"
#include "tokenizer/utf8.h"
#include "tokenizer/wordpiece_tokenizer.h"
#include "tokenizer/wordpiece_vocab.h"
#include "util/bounded_file.h"
#include "util/error.h"
#include "util/file_kind.h"

#include <cstring>
#include <fstream>

namespace lmscope::tok {

void Tokenizer::check_id(int32_t id) const {
    if (id < 0 || id >= vocab_size())
        throw UsageError("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                         std::to_string(vocab_size() - 1) + ")");
}

const std::string& Tokenizer::piece(int32_t id) const {
    check_id(id);
    return vocab_.pieces[id];
}

TokenType Tokenizer::type(int32_t id) const {
    check_id(id);
    return vocab_.types[id];
}

std::optional<int32_t> Tokenizer::find_piece(std::string_view p) const { return vocab_.find(p); }

std::vector<Token> Tokenizer::encode(std::string_view text, bool add_special, bool parse_special) const {
    std::vector<Token> out;
    const SpecialTokens& sp = vocab_.special;
    if (add_special && sp.add_bos && sp.bos >= 0) out.push_back({sp.bos, vocab_.pieces[sp.bos], 0, 0});
    for (const Fragment& f : splitter_.split(text, parse_special)) {
        if (f.token >= 0) out.push_back({f.token, vocab_.pieces[f.token], f.begin, f.end});
        else encode_text(text.substr(f.begin, f.end - f.begin), f.begin, out);
    }
    if (add_special && sp.add_eos && sp.eos >= 0)
        out.push_back({sp.eos, vocab_.pieces[sp.eos], text.size(), text.size()});
    return out;
}

std::vector<int32_t> Tokenizer::encode_ids(std::string_view text, bool add_special, bool parse_special) const {
    std::vector<int32_t> ids;
    for (const Token& t : encode(text, add_special, parse_special)) ids.push_back(t.id);
    return ids;
}

std::string Tokenizer::token_bytes(int32_t id, bool render_special) const {
    check_id(id);
    const std::string& p = vocab_.pieces[id];
    if (family() == Family::WordPiece) {  // "##" continues a word, any other piece starts one
        if (vocab_.types[id] == TokenType::Control && !render_special) return {};
        return p.size() > 2 && p.starts_with("##") ? p.substr(2) : " " + p;
    }
    switch (vocab_.types[id]) {
    case TokenType::Control: return render_special ? p : std::string();
    case TokenType::UserDefined: return p;
    case TokenType::Byte: return std::string(1, static_cast<char>(*parse_byte_piece(p)));
    case TokenType::Unknown:
        if (render_special) return p;
        return family() == Family::SentencePiece ? std::string(" \xE2\x81\x87 ") : ByteLevel::instance().decode_text(p);
    case TokenType::Normal:
    case TokenType::Unused: break;
    }
    if (family() == Family::ByteLevelBpe) return ByteLevel::instance().decode_text(p);
    std::string out;  // SentencePiece: "▁" (U+2581) stands for a space
    out.reserve(p.size());
    for (size_t i = 0; i < p.size();) {
        if (p.compare(i, 3, "\xE2\x96\x81") == 0) {
            out += ' ';
            i += 3;
        } else {
            out += p[i++];
        }
    }
    return out;
}

std::string Tokenizer::decode(std::span<const int32_t> ids, bool render_special) const {
    std::string out;
    bool at_start = true;
    const bool wordpiece = family() == Family::WordPiece;
    const bool strip = wordpiece || (family() == Family::SentencePiece && vocab_.add_space_prefix);
    for (int32_t id : ids) {
        std::string s = token_bytes(id, render_special);
        if (at_start && !s.empty()) {
            if (strip && (wordpiece || vocab_.types[id] == TokenType::Normal) && s[0] == ' ') s.erase(0, 1);
            at_start = false;
        }
        out += s;
    }
    return out;
}

std::string StreamDecoder::push(int32_t id) {
    pending_ += tokenizer_.token_bytes(id, render_special_);
    const size_t hold = incomplete_utf8_tail(pending_);
    std::string ready = pending_.substr(0, pending_.size() - hold);
    pending_.erase(0, pending_.size() - hold);
    return ready;
}

std::string StreamDecoder::flush() {
    std::string out;
    out.swap(pending_);
    return out;
}

std::unique_ptr<Tokenizer> load_sentencepiece_model(std::string serialized, const std::string& name) {
    SpmModelInfo info;
    Vocab v = vocab_from_model_proto(serialized, name, &info);
    return std::make_unique<SpmTokenizer>(std::move(v), serialized, false, info);
}

std::unique_ptr<Tokenizer> load_tokenizer(const gguf::File& file) {
    Vocab v = read_vocab(file);
    if (v.model == "gpt2") return std::make_unique<BpeTokenizer>(std::move(v));
    if (v.model == "bert") return std::make_unique<WordPieceTokenizer>(std::move(v));
    const std::string proto = model_proto_from_vocab(v);
    SpmModelInfo info;
    info.model_type = 2;
    info.normalizer = "identity";
    info.byte_fallback = proto.find("<0x00>") != std::string::npos;
    return std::make_unique<SpmTokenizer>(std::move(v), proto, true, info);
}

std::unique_ptr<Tokenizer> load_tokenizer(const std::string& path) {
    if (is_tiktoken_path(path)) return std::make_unique<TiktokenTokenizer>(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path + ": cannot open: " + std::strerror(errno));
    char magic[4] = {};
    in.read(magic, 4);
    if (in.gcount() == 4 && std::memcmp(magic, "GGUF", 4) == 0) {
        in.close();
        const gguf::File file = gguf::File::open(path);
        return load_tokenizer(file);
    }
    if (is_wordpiece_vocab_name(path)) return std::make_unique<WordPieceTokenizer>(read_wordpiece_vocab(path));
    in.close();
    // The last kind left: an error in its first message says which kinds were expected.
    const std::string expected = "expected a GGUF model or vocabulary, a SentencePiece .model, a tiktoken rank file "
                                 "(NAME.tiktoken[.gz]) or a WordPiece vocab.txt";
    std::string bytes = read_bounded(path, kMaxSentencePieceModelBytes);
    if (const std::string_view kind = file_kind(std::string_view(bytes).substr(0, 64)); !kind.empty())
        throw FormatError(path, "", "the file is " + std::string(kind) + ": " + expected);
    try {
        return load_sentencepiece_model(std::move(bytes), path);
    } catch (const FormatError& e) {
        if (e.field() != "ModelProto") throw;
        throw FormatError(path, e.field(), e.reason() + " (not a SentencePiece .model file: " + expected + ")");
    }
}

}  // namespace lmscope::tok
