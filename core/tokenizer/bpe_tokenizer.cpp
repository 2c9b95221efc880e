#include "tokenizer/bpe_tokenizer.h"

#include "tokenizer/byte_level.h"
#include "util/error.h"

#include <algorithm>
#include <cstdio>
#include <queue>

namespace lmscope::tok {

BpeTokenizer::BpeTokenizer(Vocab vocab) : Tokenizer(std::move(vocab), true), pre_(vocab_.pre) {
    ignore_merges_ = vocab_.pre == "llama-bpe" || vocab_.pre == "llama3" || vocab_.pre == "llama-v3";
    n_symbols_ = vocab_.size();
    symbols_.reserve(vocab_.pieces.size() * 2);
    // Tokens first so that a symbol id below n_vocab is its token id (the last id of a
    // duplicated piece, like the vocabulary index).
    for (const auto& [piece, id] : vocab_.index) symbols_.emplace(piece, id);
    const ByteLevel& bl = ByteLevel::instance();
    auto byte_name = [&bl](int b) {  // 0xC3 ('Ã')
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", unsigned(b));
        return std::string(hex) + " ('" + bl.encode(uint8_t(b)) + "')";
    };
    // The bytes of text (tab, newline, carriage return, printable ASCII, and every character up
    // to U+3FFFF: lead bytes 0xC2..0xF0, continuation bytes) must have their tokens, or text
    // holding them would lose characters. Real vocabularies lack some others (SmolLM2's, Falcon's
    // and StarCoder's: rare C0 controls, 0xF1, 0xF2, bytes no UTF-8 holds); a byte without a
    // token gets U+FFFD's tokens (bpe_word).
    auto required = [](int b) {
        return b == '\t' || b == '\n' || b == '\r' || (b >= 0x20 && b <= 0x7E) || (b >= 0x80 && b <= 0xBF) ||
               (b >= 0xC2 && b <= 0xF0);
    };
    for (int b = 0; b < 256; ++b) {
        auto it = symbols_.find(bl.encode(static_cast<uint8_t>(b)));
        byte_symbol_[b] = it == symbols_.end() ? -1 : it->second;
        if (byte_symbol_[b] < 0 && required(b))
            throw FormatError(vocab_.source, "tokenizer.ggml.tokens",
                              "has no token for byte " + byte_name(b) +
                                  ": a byte-level BPE vocabulary needs the symbols of the bytes of text (or its characters are lost)");
    }
    merges_.reserve(vocab_.merges.size());
    for (size_t rank = 0; rank < vocab_.merges.size(); ++rank) {
        const std::string& m = vocab_.merges[rank];
        const size_t sp = m.find(' ', 1);  // validated by read_vocab
        const std::string left = m.substr(0, sp), right = m.substr(sp + 1);
        const int32_t l = intern(left), r = intern(right), res = intern(left + right);
        const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(l)) << 32) | static_cast<uint32_t>(r);
        merges_.emplace(key, Merge{static_cast<int32_t>(rank), res});  // the first rank wins
    }
    symbols_.clear();
    symbols_.rehash(0);
    const int32_t unk = vocab_.special.unk;
    usable_unk_ = unk >= 0 && vocab_.types[unk] != TokenType::Control ? unk : -1;
    std::vector<BpePiece> replacement;
    bpe_word("\xEF\xBF\xBD", replacement);  // U+FFFD, with replacement_ still empty
    const bool clean = std::none_of(replacement.begin(), replacement.end(), [this](const BpePiece& p) {
        return p.id < 0 || vocab_.types[p.id] == TokenType::Control;
    });
    if (clean)
        for (const BpePiece& p : replacement) replacement_.push_back(p.id);
    // A byte without a token needs something to stand for it, or it would be dropped.
    const auto missing = std::find(byte_symbol_.begin(), byte_symbol_.end(), -1);
    if (missing != byte_symbol_.end() && replacement_.empty() && usable_unk_ < 0)
        throw FormatError(vocab_.source, "tokenizer.ggml.tokens",
                          "has no token for byte " + byte_name(int(missing - byte_symbol_.begin())) +
                              ", nor U+FFFD's tokens or an unknown token to stand for it");
}

int32_t BpeTokenizer::intern(const std::string& s) {
    auto [it, inserted] = symbols_.emplace(s, n_symbols_);
    if (inserted) ++n_symbols_;
    return it->second;
}

std::string BpeTokenizer::describe() const {
    return "byte-level BPE (" + vocab_.pre + "), " + std::to_string(vocab_.size()) + " tokens, " +
           std::to_string(vocab_.merges.size()) + " merges";
}

void BpeTokenizer::bpe_word(std::string_view word, std::vector<BpePiece>& out) const {
    if (ignore_merges_) {
        std::string mapped;
        ByteLevel::instance().encode(word, mapped);
        if (auto id = vocab_.find(mapped)) {
            out.push_back({*id, static_cast<uint32_t>(word.size())});
            return;
        }
    }
    struct Sym {
        int32_t id;       // symbol id, -1 when the byte has none
        uint32_t begin;   // first byte in the word
        uint32_t len;     // bytes covered; 0 once merged into its left neighbour
        int32_t prev, next;
    };
    std::vector<Sym> syms(word.size());  // [byte] initially one symbol per byte
    for (size_t i = 0; i < word.size(); ++i)
        syms[i] = {byte_symbol_[static_cast<uint8_t>(word[i])], static_cast<uint32_t>(i), 1,
                   static_cast<int32_t>(i) - 1,
                   i + 1 < word.size() ? static_cast<int32_t>(i + 1) : -1};

    struct Cand {
        int32_t rank, left, right, left_id, right_id;
    };
    auto worse = [](const Cand& a, const Cand& b) {
        return a.rank > b.rank || (a.rank == b.rank && a.left > b.left);
    };
    std::priority_queue<Cand, std::vector<Cand>, decltype(worse)> queue(worse);
    auto try_pair = [&](int32_t l, int32_t r) {
        if (l < 0 || r < 0 || syms[l].id < 0 || syms[r].id < 0) return;
        const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(syms[l].id)) << 32) |
                             static_cast<uint32_t>(syms[r].id);
        auto it = merges_.find(key);
        if (it != merges_.end()) queue.push({it->second.rank, l, r, syms[l].id, syms[r].id});
    };
    for (size_t i = 1; i < syms.size(); ++i) try_pair(static_cast<int32_t>(i - 1), static_cast<int32_t>(i));

    while (!queue.empty()) {
        const Cand c = queue.top();
        queue.pop();
        Sym& l = syms[c.left];
        Sym& r = syms[c.right];
        if (l.len == 0 || r.len == 0 || l.next != c.right || l.id != c.left_id || r.id != c.right_id)
            continue;  // stale: one side has changed since the pair was queued
        const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(l.id)) << 32) |
                             static_cast<uint32_t>(r.id);
        l.id = merges_.at(key).result;
        l.len += r.len;
        r.len = 0;
        l.next = r.next;
        if (r.next >= 0) syms[r.next].prev = c.left;
        try_pair(l.prev, c.left);
        try_pair(c.left, l.next);
    }

    const int32_t n_vocab = vocab_.size();
    for (const Sym& s : syms) {
        if (s.len == 0) continue;
        if (s.id >= 0 && s.id < n_vocab) {
            out.push_back({s.id, s.len});
            continue;
        }
        // A merge result that is no token (or a byte without one): fall back to the bytes.
        for (uint32_t i = 0; i < s.len; ++i) {
            const int32_t b = byte_symbol_[static_cast<uint8_t>(word[s.begin + i])];
            if (b >= 0 && b < n_vocab) {
                out.push_back({b, 1});
                continue;
            }
            // A byte no token holds (invalid UTF-8 where the vocabulary dropped it, as SmolLM2's
            // does 0xF5..0xFF): U+FFFD's tokens, as reference tokenizers see the text after
            // decoding it with replacement; the first covers the byte. Never a control token.
            for (size_t k = 0; k < replacement_.size(); ++k)
                out.push_back({replacement_[k], k == 0 ? 1u : 0u});
            if (replacement_.empty()) out.push_back({usable_unk_, 1});
        }
    }
}

void BpeTokenizer::encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const {
    std::vector<BpePiece> scratch;
    auto encode = [this](std::string_view word, std::vector<BpePiece>& ps) { bpe_word(word, ps); };
    for (auto [b, e] : pre_.split(text)) {
        size_t pos = offset + b;
        for (const BpePiece& p : cache_.get(text.substr(b, e - b), scratch, encode)) {
            if (p.id >= 0) out.push_back({p.id, vocab_.pieces[p.id], pos, pos + p.bytes});
            pos += p.bytes;
        }
    }
}

}  // namespace lmscope::tok
