#include "tokenizer/lab.h"

#include "tokenizer/spm_tokenizer.h"
#include "tokenizer/utf8.h"
#include "util/error.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace lmscope::tok {

namespace {

// Splits text into UTF-8 characters (an invalid byte is a character of its own).
std::vector<std::string> chars_of(std::string_view s) {
    std::vector<std::string> out;
    for (size_t i = 0; i < s.size();) {
        uint32_t cp = 0;
        size_t n = decode_utf8(s, i, &cp);
        if (n == 0) n = 1;
        out.emplace_back(s.substr(i, n));
        i += n;
    }
    return out;
}

std::vector<Merge> merges_of_byte_bpe(const Vocab& v) {
    std::vector<Merge> out;
    out.reserve(v.merges.size());
    for (const std::string& m : v.merges) {
        const size_t sp = m.find(' ', 1);
        Merge g{m.substr(0, sp), m.substr(sp + 1), -1};
        g.result = v.find(g.left + g.right).value_or(-1);
        out.push_back(std::move(g));
    }
    return out;
}

// The merges of a vocabulary ranked by score (SentencePiece BPE; tiktoken, whose scores are
// minus the ranks): each multi-character piece is split as the encoder builds it.
std::vector<Merge> merges_of_ranked_pieces(const Vocab& v) {
    // Rank of each multi-character mergeable piece: higher score first, then lower id.
    std::vector<int32_t> order;
    for (int32_t id = 0; id < v.size(); ++id)
        if ((v.types[id] == TokenType::Normal || v.types[id] == TokenType::Unused) && chars_of(v.pieces[id]).size() >= 2)
            order.push_back(id);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return v.scores[a] > v.scores[b]; });
    std::unordered_map<std::string, size_t> rank;
    for (size_t r = 0; r < order.size(); ++r) rank.emplace(v.pieces[order[r]], r);

    std::vector<Merge> out;
    for (size_t r = 0; r < order.size(); ++r) {
        // Encode the piece with the pieces ranked above it, as the BPE encoder would.
        std::vector<std::string> syms = chars_of(v.pieces[order[r]]);
        while (syms.size() > 2) {
            size_t best = syms.size();
            size_t best_rank = r;
            for (size_t i = 0; i + 1 < syms.size(); ++i) {
                auto it = rank.find(syms[i] + syms[i + 1]);
                if (it != rank.end() && it->second < best_rank) {
                    best_rank = it->second;
                    best = i;
                }
            }
            if (best == syms.size()) break;
            syms[best] += syms[best + 1];
            syms.erase(syms.begin() + static_cast<std::ptrdiff_t>(best) + 1);
        }
        if (syms.size() == 2) out.push_back({syms[0], syms[1], order[r]});
    }
    return out;
}

bool is_byte_piece(const Tokenizer& t, const Token& k, std::string_view text) {
    if (t.type(k.id) == TokenType::Byte) return true;
    // A byte-level BPE token that covers part of a character.
    return k.end > k.begin && !is_valid_utf8(text.substr(k.begin, k.end - k.begin)) &&
           is_valid_utf8(text);
}

}  // namespace

std::vector<Merge> list_merges(const Tokenizer& t) {
    if (t.family() == Family::WordPiece)
        throw UnsupportedError(t.vocab().source + ": WordPiece has no merges (it matches the longest piece)");
    if (t.vocab().model == "tiktoken") return merges_of_ranked_pieces(t.vocab());
    if (t.family() == Family::ByteLevelBpe) return merges_of_byte_bpe(t.vocab());
    if (const auto* spm = dynamic_cast<const SpmTokenizer*>(&t); spm && spm->model_info().model_type != 2)
        throw UnsupportedError(t.vocab().source + ": a SentencePiece " +
                               std::string(spm_model_type_name(spm->model_info().model_type)) +
                               " model has no merges");
    return merges_of_ranked_pieces(t.vocab());
}

Algorithm algorithm_of(const Tokenizer& t) {
    if (t.vocab().model == "tiktoken") return Algorithm::TiktokenBpe;
    switch (t.family()) {
    case Family::ByteLevelBpe: return Algorithm::ByteLevelBpe;
    case Family::WordPiece: return Algorithm::WordPiece;
    case Family::SentencePiece: break;
    }
    const auto* spm = dynamic_cast<const SpmTokenizer*>(&t);
    return spm && spm->model_info().model_type == 2 ? Algorithm::SentencePieceBpe : Algorithm::SentencePieceUnigram;
}

size_t Comparison::total_tokens(size_t k) const {
    size_t n = 0;
    for (const auto& row : cells) n += row.at(k).ids.size();
    return n;
}

size_t Comparison::total_byte_pieces(size_t k) const {
    size_t n = 0;
    for (const auto& row : cells) n += row.at(k).byte_pieces;
    return n;
}

Comparison compare_tokenizers(std::span<const Tokenizer* const> tokenizers, std::span<const std::string> texts) {
    Comparison c;
    c.texts.assign(texts.begin(), texts.end());
    for (const std::string& text : texts) {
        std::vector<Tokenization> row;
        for (const Tokenizer* t : tokenizers) {
            Tokenization r;
            for (const Token& k : t->encode(text)) {
                r.ids.push_back(k.id);
                r.pieces.emplace_back(k.piece);
                if (is_byte_piece(*t, k, text)) ++r.byte_pieces;
            }
            row.push_back(std::move(r));
        }
        c.cells.push_back(std::move(row));
    }
    return c;
}

std::vector<std::string> misspellings(std::string_view word) {
    const std::vector<std::string> ch = chars_of(word);
    std::vector<std::string> out;
    std::unordered_set<std::string> seen{std::string(word)};
    auto add = [&](std::string s) {
        if (!s.empty() && seen.insert(s).second) out.push_back(std::move(s));
    };
    auto join = [](const std::vector<std::string>& v) {
        return std::accumulate(v.begin(), v.end(), std::string());
    };
    for (size_t i = 0; i + 1 < ch.size(); ++i) {  // swap two adjacent letters
        auto v = ch;
        std::swap(v[i], v[i + 1]);
        add(join(v));
    }
    for (size_t i = 0; i < ch.size(); ++i) {  // drop a letter
        auto v = ch;
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
        add(join(v));
    }
    for (size_t i = 0; i < ch.size(); ++i) {  // double a letter
        auto v = ch;
        v.insert(v.begin() + static_cast<std::ptrdiff_t>(i), ch[i]);
        add(join(v));
    }
    for (size_t i = 0; i + 1 < ch.size(); ++i) {  // ie <-> ei
        const std::string pair = ch[i] + ch[i + 1];
        if (pair == "ie" || pair == "ei" || pair == "IE" || pair == "EI") {
            auto v = ch;
            std::swap(v[i], v[i + 1]);
            add(join(v));
        }
    }
    static const std::unordered_map<char, std::string> kVowels = {
        {'a', "e"}, {'e', "ai"}, {'i', "ey"}, {'o', "u"}, {'u', "o"}, {'y', "i"}};
    for (size_t i = 0; i < ch.size(); ++i) {  // vowel confusions
        if (ch[i].size() != 1) continue;
        const char c = ch[i][0];
        const bool upper = c >= 'A' && c <= 'Z';
        const char lower = upper ? static_cast<char>(c - 'A' + 'a') : c;
        auto it = kVowels.find(lower);
        if (it == kVowels.end()) continue;
        for (char r : it->second) {
            auto v = ch;
            v[i] = std::string(1, upper ? static_cast<char>(r - 'a' + 'A') : r);
            add(join(v));
        }
    }
    return out;
}

}  // namespace lmscope::tok
