#include "tokenizer/wordpiece_trainer.h"

#include "tokenizer/utf8.h"
#include "util/bounded_file.h"
#include "util/error.h"

#include <algorithm>
#include <array>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>

namespace lmscope::tok {

namespace {

constexpr std::array<const char*, 5> kSpecials = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};

std::string corpus_of(const TrainOptions& o) {
    if (o.corpus_file.empty()) return o.corpus_text;
    return read_bounded(o.corpus_file, kMaxCorpusBytes);
}

// Each word's characters as symbol strings ("w", "##o", ...) -> how often the word occurs.
// Words longer than WordPiece takes (they become [UNK]) are left out.
std::map<std::vector<std::string>, int64_t> count_words(std::string_view text, const CancelToken* cancel) {
    const BertPreTokenizer pre(true);
    std::unordered_map<std::string, int64_t> counts;  // word (UTF-8) -> occurrences
    std::vector<BertChar> chars;
    std::vector<std::pair<size_t, size_t>> words;
    for (size_t pos = 0, lines = 0; pos < text.size(); ++lines) {  // words never span a line
        if (lines % 1024 == 0) check_cancel(cancel);
        const size_t nl = std::min(text.find('\n', pos), text.size());
        pre.split(text.substr(pos, nl - pos), chars, words);
        pos = nl + 1;
        for (auto [first, last] : words) {
            if (last - first > WordPieceTokenizer::kMaxWordChars) continue;
            std::string w;
            for (size_t i = first; i < last; ++i) append_utf8(w, chars[i].cp);
            ++counts[w];
        }
    }
    std::map<std::vector<std::string>, int64_t> out;
    for (const auto& [w, n] : counts) {
        std::vector<std::string> syms;
        uint32_t cp = 0;
        for (size_t i = 0; i < w.size();) {  // valid UTF-8: made by append_utf8
            const size_t len = decode_utf8(w, i, &cp);
            syms.push_back((i == 0 ? "" : "##") + w.substr(i, len));
            i += len;
        }
        out.emplace(std::move(syms), n);
    }
    return out;
}

// The alphabet (every symbol of every word), sorted by bytes. When it has more than `room`
// symbols (a Chinese text and a small vocabulary), only the `room` most frequent are kept and the
// words holding any other are dropped: WordPiece makes them [UNK] anyway.
std::vector<std::string> limit_alphabet(std::map<std::vector<std::string>, int64_t>& words, size_t room) {
    std::map<std::string, int64_t> freq;  // symbol -> occurrences
    for (const auto& [syms, n] : words)
        for (const std::string& s : syms) freq[s] += n;
    std::set<std::string> keep;
    if (freq.size() <= room) {
        for (const auto& [s, n] : freq) keep.insert(s);
    } else {
        std::vector<std::pair<int64_t, std::string>> by_freq;  // (-count, symbol): most frequent first
        for (const auto& [s, n] : freq) by_freq.emplace_back(-n, s);
        std::sort(by_freq.begin(), by_freq.end());
        for (size_t i = 0; i < room; ++i) keep.insert(by_freq[i].second);
        std::erase_if(words, [&](const auto& w) {
            return std::any_of(w.first.begin(), w.first.end(), [&](const std::string& s) { return !keep.count(s); });
        });
    }
    return std::vector<std::string>(keep.begin(), keep.end());
}

// The merge loop over symbol ids; symbol i is the piece strings_[i].
class Merger {
public:
    Merger(const std::map<std::vector<std::string>, int64_t>& words, std::vector<std::string> alphabet);
    // Merges until `target` distinct pieces exist or no pair is left.
    void run(size_t target, const CancelToken* cancel);
    const std::vector<std::string>& pieces() const { return strings_; }

private:
    struct Word {
        std::vector<int32_t> syms;
        int64_t count;
    };
    struct Pair {
        int32_t a, b;
        int64_t freq = 0;
        std::vector<int32_t> words;  // words that held the pair when it was counted (may repeat)
    };
    struct Candidate {
        double score;
        int64_t freq;
        int32_t a, b, pair;
        bool operator<(const Candidate& o) const {  // priority_queue keeps the greatest on top
            if (score != o.score) return score < o.score;
            if (freq != o.freq) return freq < o.freq;
            return a != o.a ? a > o.a : b > o.b;
        }
    };

    int32_t symbol(const std::string& s);
    int32_t pair_id(int32_t a, int32_t b);
    double score(const Pair& p) const {
        return static_cast<double>(p.freq) / (static_cast<double>(freq_[p.a]) * static_cast<double>(freq_[p.b]));
    }
    void push(int32_t pid);
    void count_pairs(int32_t w, int64_t sign);  // adds (or takes away) word w's pairs
    void merge(int32_t pid);

    std::vector<std::string> strings_;                 // [symbols] piece text
    std::unordered_map<std::string, int32_t> ids_;     // piece text -> symbol
    std::vector<int64_t> freq_;                        // [symbols] occurrences in the corpus
    std::vector<std::vector<int32_t>> sym_pairs_;      // [symbols] pairs the symbol is part of
    std::vector<Word> words_;
    std::vector<Pair> pairs_;
    std::unordered_map<uint64_t, int32_t> pair_index_;  // (a << 32 | b) -> pair
    std::vector<int32_t> stamp_;                        // [pairs] last merge that queued it
    std::vector<int32_t> word_stamp_;                   // [words] last merge that rewrote it
    int32_t merges_ = 0;
    size_t live_ = 0;                                   // pairs with freq > 0
    std::priority_queue<Candidate> queue_;              // may hold stale candidates
};

Merger::Merger(const std::map<std::vector<std::string>, int64_t>& words, std::vector<std::string> alphabet) {
    for (const std::string& s : alphabet) symbol(s);
    for (const auto& [syms, n] : words) {
        Word w{{}, n};
        for (const std::string& s : syms) {
            w.syms.push_back(ids_.at(s));
            freq_[w.syms.back()] += n;
        }
        words_.push_back(std::move(w));
    }
    word_stamp_.assign(words_.size(), -1);
    for (size_t w = 0; w < words_.size(); ++w) count_pairs(static_cast<int32_t>(w), 1);
    for (size_t p = 0; p < pairs_.size(); ++p) push(static_cast<int32_t>(p));
}

int32_t Merger::symbol(const std::string& s) {
    auto [it, fresh] = ids_.emplace(s, static_cast<int32_t>(strings_.size()));
    if (fresh) {
        strings_.push_back(s);
        freq_.push_back(0);
        sym_pairs_.emplace_back();
    }
    return it->second;
}

int32_t Merger::pair_id(int32_t a, int32_t b) {
    const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
    auto [it, fresh] = pair_index_.emplace(key, static_cast<int32_t>(pairs_.size()));
    if (fresh) {
        pairs_.push_back(Pair{a, b, 0, {}});
        stamp_.push_back(-1);
        sym_pairs_[a].push_back(it->second);
        if (b != a) sym_pairs_[b].push_back(it->second);
    }
    return it->second;
}

void Merger::push(int32_t pid) {
    const Pair& p = pairs_[pid];
    if (p.freq <= 0 || stamp_[pid] == merges_) return;
    stamp_[pid] = merges_;
    queue_.push({score(p), p.freq, p.a, p.b, pid});
}

void Merger::count_pairs(int32_t w, int64_t sign) {
    const Word& word = words_[w];
    for (size_t i = 0; i + 1 < word.syms.size(); ++i) {
        const int32_t pid = pair_id(word.syms[i], word.syms[i + 1]);
        Pair& p = pairs_[pid];
        if (p.freq == 0 && sign > 0) ++live_;
        p.freq += sign * word.count;
        if (p.freq == 0) --live_;
        if (sign > 0 && (p.words.empty() || p.words.back() != w)) p.words.push_back(w);
    }
}

void Merger::merge(int32_t pid) {
    ++merges_;
    const int32_t a = pairs_[pid].a, b = pairs_[pid].b;
    const int32_t c = symbol(strings_[a] + strings_[b].substr(2));  // b continues a word: "##..."
    const std::vector<int32_t> holders = std::move(pairs_[pid].words);
    std::vector<int32_t> touched;  // pairs whose count changed
    for (int32_t w : holders) {
        if (word_stamp_[w] == merges_) continue;
        word_stamp_[w] = merges_;
        std::vector<int32_t>& s = words_[w].syms;
        for (size_t i = 0; i + 1 < s.size(); ++i) touched.push_back(pair_id(s[i], s[i + 1]));
        count_pairs(w, -1);
        size_t out = 0;  // rewrite left to right: "a b" -> "c"
        for (size_t i = 0; i < s.size(); ++i) {
            if (i + 1 < s.size() && s[i] == a && s[i + 1] == b) {
                freq_[a] -= words_[w].count;
                freq_[b] -= words_[w].count;
                freq_[c] += words_[w].count;
                s[out++] = c;
                ++i;
            } else {
                s[out++] = s[i];
            }
        }
        s.resize(out);
        count_pairs(w, 1);
        for (size_t i = 0; i + 1 < s.size(); ++i) touched.push_back(pair_id(s[i], s[i + 1]));
    }
    // Scores move with the counts of a, b and c too, so every pair of theirs is rescored.
    for (int32_t p : touched) push(p);
    for (int32_t sym : {a, b, c})
        for (size_t i = 0; i < sym_pairs_[sym].size(); ++i) push(sym_pairs_[sym][i]);
}

void Merger::run(size_t target, const CancelToken* cancel) {
    while (strings_.size() < target && !queue_.empty()) {
        check_cancel(cancel);
        const Candidate top = queue_.top();
        queue_.pop();
        const Pair& p = pairs_[top.pair];
        if (p.freq <= 0 || p.freq != top.freq || score(p) != top.score) continue;  // stale
        merge(top.pair);
        if (queue_.size() > 4 * live_ + 4096) {  // drop the stale candidates
            queue_ = {};
            ++merges_;
            for (size_t i = 0; i < pairs_.size(); ++i) push(static_cast<int32_t>(i));
        }
    }
}

}  // namespace

std::unique_ptr<WordPieceTokenizer> train_wordpiece(const TrainOptions& o, const CancelToken* cancel) {
    if (o.vocab_size < 8 || o.vocab_size > 1'000'000)
        throw UsageError("vocabulary size " + std::to_string(o.vocab_size) + " is outside 8..1000000");
    const std::string text = corpus_of(o);
    auto words = count_words(text, cancel);
    if (words.empty()) throw UsageError("the training corpus is empty (it has no words)");
    const std::vector<std::string> alphabet = limit_alphabet(words, static_cast<size_t>(o.vocab_size) - kSpecials.size());
    Merger merger(words, alphabet);
    merger.run(static_cast<size_t>(o.vocab_size) - kSpecials.size(), cancel);

    Vocab v;
    v.source = o.corpus_file.empty() ? "WordPiece trained on the text" : "WordPiece trained on " + o.corpus_file;
    v.model = "bert";
    for (const char* s : kSpecials) {
        v.pieces.emplace_back(s);
        v.types.push_back(TokenType::Control);
    }
    v.pieces.insert(v.pieces.end(), merger.pieces().begin(), merger.pieces().end());
    v.types.resize(v.pieces.size(), TokenType::Normal);
    v.scores.assign(v.pieces.size(), 0.0f);
    v.special = {.bos = 2, .eos = 3, .eot = -1, .unk = 1, .pad = 0, .add_bos = true, .add_eos = true};
    v.build_index();
    return std::make_unique<WordPieceTokenizer>(std::move(v));
}

}  // namespace lmscope::tok
