#include "tokenizer/wordpiece_vocab.h"

#include "tokenizer/utf8.h"
#include "util/error.h"
#include "util/gzip.h"

#include <algorithm>
#include <unordered_map>

#include <utf8proc.h>

namespace lmscope::tok {

namespace {

constexpr std::string_view kSpace = "\xE2\x96\x81";  // U+2581, llama.cpp's word-start mark
constexpr std::array<std::string_view, 5> kSpecials = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};

bool bracketed(std::string_view p) { return p.size() >= 2 && p.front() == '[' && p.back() == ']'; }

int32_t find_linear(const Vocab& v, std::string_view piece) {
    auto it = std::find(v.pieces.begin(), v.pieces.end(), piece);
    return it == v.pieces.end() ? -1 : static_cast<int32_t>(it - v.pieces.begin());
}

std::string line_field(size_t line) { return "line " + std::to_string(line); }

// Checks one line (number `line`, from 1) and returns its piece; `seen` maps pieces to lines.
std::string_view checked_piece(const std::string& path, std::string_view text, size_t line,
                               std::unordered_map<std::string_view, size_t>& seen) {
    if (text.size() > kMaxVocabTxtLine)
        throw FormatError(path, line_field(line), "is " + std::to_string(text.size()) + " bytes long, more than " +
                                                      std::to_string(kMaxVocabTxtLine));
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);  // a CRLF file
    if (text.empty()) throw FormatError(path, line_field(line), "is empty (every line is one piece)");
    if (text.find('\0') != std::string_view::npos) throw FormatError(path, line_field(line), "contains a NUL byte");
    if (!is_valid_utf8(text)) throw FormatError(path, line_field(line), "is not valid UTF-8");
    if (auto [it, fresh] = seen.emplace(text, line); !fresh)
        throw FormatError(path, line_field(line), "'" + std::string(text.substr(0, 32)) + "' repeats line " +
                                                      std::to_string(it->second));
    return text;
}

}  // namespace

std::string wordpiece_piece_from_gguf(std::string_view p) {
    if (p.starts_with(kSpace)) return std::string(p.substr(kSpace.size()));
    if (bracketed(p)) return std::string(p);
    return "##" + std::string(p);
}

void complete_wordpiece_specials(Vocab& v, const std::array<std::string, 3>& field) {
    int32_t* ids[3] = {&v.special.unk, &v.special.bos, &v.special.eos};
    const std::string_view names[3] = {"[UNK]", "[CLS]", "[SEP]"};
    for (size_t i = 0; i < 3; ++i) {
        if (*ids[i] < 0) *ids[i] = find_linear(v, names[i]);
        if (*ids[i] < 0)
            throw FormatError(v.source, field[i],
                              "missing, and no piece reads " + std::string(names[i]) + " (WordPiece needs it)");
    }
}

bool wordpiece_uncased(const Vocab& v) {
    for (const std::string& p : v.pieces) {
        if (bracketed(p)) continue;
        uint32_t cp = 0;
        for (size_t i = 0; i < p.size();) {
            const size_t n = decode_utf8(p, i, &cp);
            if (n == 0) {
                ++i;
                continue;
            }
            if (utf8proc_tolower(static_cast<utf8proc_int32_t>(cp)) != static_cast<utf8proc_int32_t>(cp)) return false;
            i += n;
        }
    }
    return true;
}

bool is_wordpiece_vocab_name(std::string_view path) { return path.ends_with(".txt"); }

Vocab read_wordpiece_vocab(const std::string& path) {
    return parse_wordpiece_vocab(read_maybe_gzip(path, kMaxVocabTxtBytes), path);
}

Vocab parse_wordpiece_vocab(std::string_view bytes, const std::string& path) {
    if (bytes.size() > kMaxVocabTxtBytes)
        throw FormatError(path, "size", std::to_string(bytes.size()) + " bytes, more than the " +
                                            std::to_string(kMaxVocabTxtBytes) + " allowed");
    if (bytes.empty()) throw FormatError(path, line_field(1), "the file is empty");
    Vocab v;
    v.source = path;
    v.model = "bert";
    std::unordered_map<std::string_view, size_t> seen;  // piece -> line, views into `bytes`
    std::vector<std::string_view> lines;
    for (size_t pos = 0; pos < bytes.size();) {
        const size_t nl = std::min(bytes.find('\n', pos), bytes.size());
        if (lines.size() == kMaxVocabTxtLines)
            throw FormatError(path, line_field(lines.size() + 1),
                              "more than " + std::to_string(kMaxVocabTxtLines) + " lines");
        lines.push_back(checked_piece(path, bytes.substr(pos, nl - pos), lines.size() + 1, seen));
        pos = nl + 1;
    }
    for (std::string_view l : lines) {
        v.pieces.emplace_back(l);
        const bool special = std::find(kSpecials.begin(), kSpecials.end(), l) != kSpecials.end();
        v.types.push_back(special ? TokenType::Control : TokenType::Normal);
    }
    v.scores.assign(v.pieces.size(), 0.0f);
    const std::string all = "lines 1-" + std::to_string(lines.size());
    complete_wordpiece_specials(v, {all, all, all});
    v.special.pad = find_linear(v, "[PAD]");
    v.special.add_bos = v.special.add_eos = true;
    v.build_index();
    return v;
}

}  // namespace lmscope::tok
