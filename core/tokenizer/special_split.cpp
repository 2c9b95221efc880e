#include "tokenizer/special_split.h"

#include <algorithm>

namespace lmscope::tok {

SpecialSplitter::SpecialSplitter(const Vocab& vocab, bool user_defined_always) {
    for (int32_t id = 0; id < vocab.size(); ++id) {
        const TokenType t = vocab.types[id];
        const std::string& text = vocab.pieces[id];
        if (text.empty()) continue;
        if (t == TokenType::Control || t == TokenType::Unknown)
            entries_.push_back({text, id, false});
        else if (t == TokenType::UserDefined)
            entries_.push_back({text, id, user_defined_always});
    }
    std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
        return a.text.size() > b.text.size();
    });
}

std::vector<Fragment> SpecialSplitter::split(std::string_view text, bool parse_special) const {
    std::vector<Fragment> frags;
    if (text.empty()) return frags;
    frags.push_back({0, text.size(), -1});
    std::vector<Fragment> next;
    for (const Entry& e : entries_) {
        if (!parse_special && !e.always) continue;
        if (text.find(e.text) == std::string_view::npos) continue;  // cheap test on the whole text
        next.clear();
        for (const Fragment& f : frags) {
            if (f.token >= 0) {
                next.push_back(f);
                continue;
            }
            size_t pos = f.begin;
            while (pos < f.end) {
                size_t hit = text.substr(0, f.end).find(e.text, pos);
                if (hit == std::string_view::npos) break;
                if (hit > pos) next.push_back({pos, hit, -1});
                next.push_back({hit, hit + e.text.size(), e.id});
                pos = hit + e.text.size();
            }
            if (pos < f.end) next.push_back({pos, f.end, -1});
        }
        frags.swap(next);
    }
    return frags;
}

}  // namespace lmscope::tok
