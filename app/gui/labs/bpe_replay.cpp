#include "gui/labs/bpe_replay.h"

#include "gui/labs/tokenizer_chips.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/utf8.h"

#include <limits>
#include <unordered_map>

namespace lmscope::gui::labs {

namespace {

const std::string kSpaceMark = "\xE2\x96\x81";  // U+2581, SentencePiece's space

std::vector<std::string> utf8_chars(std::string_view s) {
    std::vector<std::string> out;
    for (size_t i = 0; i < s.size();) {
        uint32_t cp = 0;
        size_t n = tok::decode_utf8(s, i, &cp);
        if (n == 0) n = 1;
        out.emplace_back(s.substr(i, n));
        i += n;
    }
    return out;
}

}  // namespace

std::vector<std::string> initial_symbols(const tok::Tokenizer& tokenizer, const std::string& word) {
    const std::string text = word_in_context(tokenizer, word);
    std::string mapped;
    if (tokenizer.family() == tok::Family::ByteLevelBpe) {
        tok::ByteLevel::instance().encode(text, mapped);
    } else {
        mapped = kSpaceMark;  // the space prefix SentencePiece adds before the text
        for (const char c : text) mapped += c == ' ' ? kSpaceMark : std::string(1, c);
    }
    return utf8_chars(mapped);
}

std::vector<ReplayStep> replay_merges(const tok::Tokenizer& tokenizer, std::span<const tok::Merge> merges,
                                      const std::string& word) {
    const bool byte_level = tokenizer.family() == tok::Family::ByteLevelBpe;
    // Byte-level: rank of the pair "left right"; SentencePiece: rank of the piece left+right.
    std::unordered_map<std::string, int32_t> rank;
    for (size_t r = 0; r < merges.size(); ++r) {
        const tok::Merge& m = merges[r];
        rank.emplace(byte_level ? m.left + " " + m.right : m.left + m.right, static_cast<int32_t>(r));
    }
    std::vector<ReplayStep> steps;
    steps.push_back({initial_symbols(tokenizer, word), -1, 0});
    for (;;) {
        const std::vector<std::string>& cur = steps.back().pieces;
        int32_t best_rank = std::numeric_limits<int32_t>::max();
        size_t best = cur.size();
        for (size_t i = 0; i + 1 < cur.size(); ++i) {
            auto it = rank.find(byte_level ? cur[i] + " " + cur[i + 1] : cur[i] + cur[i + 1]);
            if (it != rank.end() && it->second < best_rank) {
                best_rank = it->second;
                best = i;
            }
        }
        if (best == cur.size()) break;
        ReplayStep next{cur, best_rank, best};
        next.pieces[best] += next.pieces[best + 1];
        next.pieces.erase(next.pieces.begin() + static_cast<std::ptrdiff_t>(best) + 1);
        steps.push_back(std::move(next));
    }
    return steps;
}

}  // namespace lmscope::gui::labs
