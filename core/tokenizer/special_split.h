// Splits text at the occurrences of special tokens before the tokenizer sees it.
// Longer tokens are matched first; each occurrence (leftmost first, not overlapping) becomes a
// token fragment and the text around it stays plain. Control and unknown tokens are matched
// only when parse_special is set; user-defined tokens always (when the family asks for it).
#pragma once

#include "tokenizer/vocab.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lmscope::tok {

struct Fragment {
    size_t begin = 0;
    size_t end = 0;
    int32_t token = -1;  // >= 0: the special token that covers [begin, end); -1: plain text
};

class SpecialSplitter {
public:
    SpecialSplitter(const Vocab& vocab, bool user_defined_always);
    std::vector<Fragment> split(std::string_view text, bool parse_special) const;

private:
    struct Entry {
        std::string_view text;  // points into the vocabulary (which outlives the splitter)
        int32_t id;
        bool always;            // matched even without parse_special
    };
    std::vector<Entry> entries_;  // longest first
};

}  // namespace lmscope::tok
