// The pre-tokenizer of a byte-level BPE vocabulary (tokenizer.ggml.pre): one or more regular
// expressions applied in sequence. Each expression splits every piece left by the previous
// one into its matches and the gaps between them (both kept), so no byte is ever dropped.
// Expressions run with PCRE2 in UTF + UCP mode (Unicode properties from PCRE2's tables);
// invalid UTF-8 never matches and ends up in the gaps.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lmscope::tok {

class Regex;

class PreTokenizer {
public:
    // Throws UnsupportedError naming the family when it is unknown.
    explicit PreTokenizer(const std::string& family);
    ~PreTokenizer();
    PreTokenizer(const PreTokenizer&) = delete;
    PreTokenizer& operator=(const PreTokenizer&) = delete;

    // Byte ranges [begin, end) of `text` in order, covering all of it. Thread-safe.
    std::vector<std::pair<size_t, size_t>> split(std::string_view text) const;

    const std::string& family() const { return family_; }
    // The family names this class knows.
    static std::vector<std::string> families();
    // The expressions of a family (empty when unknown).
    static std::vector<std::string> expressions(const std::string& family);

private:
    std::string family_;
    std::vector<std::unique_ptr<Regex>> regexes_;
};

}  // namespace lmscope::tok
