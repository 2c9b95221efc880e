#include "tokenizer/wordpiece_tokenizer.h"

#include "tokenizer/utf8.h"
#include "tokenizer/wordpiece_vocab.h"
#include "util/error.h"

#include <algorithm>

#include <utf8proc.h>

namespace lmscope::tok {

namespace {

utf8proc_category_t category(char32_t cp) {
    return static_cast<utf8proc_category_t>(utf8proc_category(static_cast<utf8proc_int32_t>(cp)));
}

// Unicode's White_Space property (what BERT's Rust normaliser and pre-tokenizer test).
bool is_whitespace(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// Dropped by the cleaning step: categories Cc, Cf, Cs, Co, Cn, except \t \n \r (whitespace).
bool is_other(char32_t c) {
    if (c == '\t' || c == '\n' || c == '\r') return false;
    switch (category(c)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CN: return true;
    default: return false;
    }
}

// BERT's punctuation: the ASCII non-alphanumeric symbols and every Unicode P* category.
bool is_punctuation(char32_t c) {
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
    const utf8proc_category_t k = category(c);
    return k >= UTF8PROC_CATEGORY_PC && k <= UTF8PROC_CATEGORY_PO;
}

// The CJK ideograph blocks BERT pads with spaces.
bool is_cjk(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

}  // namespace

void BertPreTokenizer::normalize(std::string_view text, std::vector<BertChar>& out) const {
    utf8proc_int32_t nfd[8];  // one character's canonical decomposition (at most 4 code points)
    for (size_t i = 0; i < text.size();) {
        uint32_t cp = 0;
        size_t n = decode_utf8(text, i, &cp);
        if (n == 0) {  // an invalid byte reads as U+FFFD, which cleaning drops
            cp = 0xFFFD;
            n = 1;
        }
        const size_t b = i, e = i + n;
        i = e;
        if (cp == 0 || cp == 0xFFFD || is_other(cp)) continue;
        if (is_whitespace(cp)) {
            out.push_back({U' ', b, e});
            continue;
        }
        const bool cjk = is_cjk(cp);
        if (cjk) out.push_back({U' ', b, e});
        if (!lower_case_) {
            out.push_back({cp, b, e});
        } else {
            // Strip accents (NFD, drop Mn), then lower-case, as BertNormalizer orders them.
            // (Canonical reordering is left out: it only moves marks, and marks are dropped.)
            const utf8proc_ssize_t k = utf8proc_decompose_char(static_cast<utf8proc_int32_t>(cp), nfd, 8,
                                                               UTF8PROC_DECOMPOSE, nullptr);
            for (utf8proc_ssize_t j = 0; j < std::min<utf8proc_ssize_t>(k, 8); ++j) {
                if (category(static_cast<char32_t>(nfd[j])) == UTF8PROC_CATEGORY_MN) continue;
                out.push_back({static_cast<char32_t>(utf8proc_tolower(nfd[j])), b, e});
            }
            if (k <= 0) out.push_back({cp, b, e});  // utf8proc refused it: keep it as it is
        }
        if (cjk) out.push_back({U' ', b, e});
    }
}

void BertPreTokenizer::split(std::string_view text, std::vector<BertChar>& chars,
                             std::vector<std::pair<size_t, size_t>>& words) const {
    chars.clear();
    words.clear();
    normalize(text, chars);
    size_t start = 0;  // first character of the word being collected
    for (size_t i = 0; i < chars.size(); ++i) {
        const char32_t c = chars[i].cp;
        if (!is_whitespace(c) && !is_punctuation(c)) continue;
        if (i > start) words.emplace_back(start, i);
        if (!is_whitespace(c)) words.emplace_back(i, i + 1);
        start = i + 1;
    }
    if (chars.size() > start) words.emplace_back(start, chars.size());
}

WordPieceTokenizer::WordPieceTokenizer(Vocab vocab)
    : Tokenizer(std::move(vocab), false), lower_case_(wordpiece_uncased(vocab_)), pre_(lower_case_) {
    if (vocab_.special.unk < 0 || vocab_.special.unk >= vocab_.size())
        throw UsageError(vocab_.source + ": a WordPiece vocabulary needs an [UNK] token");
    for (int32_t id = 0; id < vocab_.size(); ++id) {
        const std::string& p = vocab_.pieces[id];
        const bool cont = p.size() > 2 && p.starts_with("##");
        PieceMap& map = cont ? continuation_ : initial_;
        const std::string key = cont ? p.substr(2) : p;
        size_t& longest = cont ? max_continuation_ : max_initial_;
        longest = std::max(longest, key.size());
        map.emplace(key, id);  // the first id of a repeated piece (vocabularies here have none)
    }
}

std::string WordPieceTokenizer::describe() const {
    return std::string("WordPiece (BERT, ") + (lower_case_ ? "uncased" : "cased") + "), " +
           std::to_string(vocab_.size()) + " tokens";
}

void WordPieceTokenizer::encode_word(const std::vector<BertChar>& chars, size_t first, size_t last, size_t offset,
                                     std::vector<Token>& out) const {
    const int32_t unk = vocab_.special.unk;
    auto token = [&](int32_t id, size_t a, size_t b) {  // characters [a, b) of chars
        return Token{id, vocab_.pieces[id], offset + chars[a].begin, offset + chars[b - 1].end};
    };
    if (last - first > kMaxWordChars) {
        out.push_back(token(unk, first, last));
        return;
    }
    std::string word;                // the word's UTF-8
    std::vector<size_t> at;          // [chars + 1] byte offset of each character in `word`
    for (size_t i = first; i < last; ++i) {
        at.push_back(word.size());
        append_utf8(word, chars[i].cp);
    }
    at.push_back(word.size());
    const size_t n = last - first, before = out.size();
    for (size_t s = 0; s < n;) {
        const PieceMap& map = s == 0 ? initial_ : continuation_;
        const size_t max_len = s == 0 ? max_initial_ : max_continuation_;
        size_t e = n;
        while (e > s && at[e] - at[s] > max_len) --e;
        int32_t id = -1;
        for (; e > s; --e) {  // longest match first
            auto it = map.find(std::string_view(word).substr(at[s], at[e] - at[s]));
            if (it != map.end()) {
                id = it->second;
                break;
            }
        }
        if (id < 0) {  // a part no piece covers: the whole word is unknown
            out.erase(out.begin() + static_cast<std::ptrdiff_t>(before), out.end());
            out.push_back(token(unk, first, last));
            return;
        }
        out.push_back(token(id, first + s, first + e));
        s = e;
    }
}

void WordPieceTokenizer::encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const {
    std::vector<BertChar> chars;
    std::vector<std::pair<size_t, size_t>> words;
    pre_.split(text, chars, words);
    for (auto [first, last] : words) encode_word(chars, first, last, offset, out);
}

}  // namespace lmscope::tok
