// A thread-safe cache of pre-tokenized words -> their BPE pieces, for the BPE encoders
// (byte-level merges and tiktoken ranks): natural text repeats the same words, and a word's
// pieces depend on nothing but its bytes. Long words are not cached; the cache is emptied
// when it holds too many words, so its memory stays bounded whatever the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lmscope::tok {

// One piece of a BPE-encoded word.
struct BpePiece {
    int32_t id;      // token id, or -1 for a byte without a token
    uint32_t bytes;  // how many bytes of the word it covers
};

class WordCache {
public:
    static constexpr size_t kWordLimit = 1u << 16;  // words kept before the cache is emptied
    static constexpr size_t kLongWord = 256;        // longer words (bytes) are not cached

    // The pieces of `word`: from the cache, or from encode(word, out), which appends them.
    template <class Encode>
    const std::vector<BpePiece>& get(std::string_view word, std::vector<BpePiece>& scratch,
                                      Encode&& encode) const {
        if (word.size() <= kLongWord) {
            std::lock_guard lock(mutex_);
            if (auto it = words_.find(word); it != words_.end()) {
                scratch = it->second;
                return scratch;
            }
        }
        scratch.clear();
        encode(word, scratch);
        if (word.size() <= kLongWord) {
            std::lock_guard lock(mutex_);
            if (words_.size() >= kWordLimit) words_.clear();
            words_.emplace(std::string(word), scratch);
        }
        return scratch;
    }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    mutable std::mutex mutex_;
    mutable std::unordered_map<std::string, std::vector<BpePiece>, Hash, std::equal_to<>> words_;
};

}  // namespace lmscope::tok
