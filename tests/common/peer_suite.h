// The peer tokenizer suites (../shared/testdata/vocab/*.inp / *.out): strings separated by
// __ggml_vocab_test__ lines, and one line of expected ids per string. Shared by the tokenizer
// suites of every family (GGUF vocabularies, tiktoken, WordPiece).
#pragma once

#include "common/testing.h"
#include "tokenizer/batch.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace lmscope::testing {

inline std::string read_text(const std::string& path) {
    const auto b = read_bytes(path);
    return std::string(b.begin(), b.end());
}

inline std::vector<int32_t> parse_ids(const std::string& line) {
    std::vector<int32_t> ids;
    std::istringstream in(line);
    for (int32_t v; in >> v;) ids.push_back(v);
    return ids;
}

inline std::string ids_text(const std::vector<int32_t>& ids) {
    std::string s;
    for (int32_t id : ids) {
        if (!s.empty()) s += ' ';
        s += std::to_string(id);
    }
    return s;
}

// The text with newlines and tabs written as \n and \t, for one-line messages.
inline std::string escaped(const std::string& s) {
    std::string out;
    for (const char c : s) {
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else out += c;
    }
    return out;
}

struct PeerSuite {
    std::vector<std::string> strings;
    std::vector<std::vector<int32_t>> ids;  // [string] the expected ids
};

inline PeerSuite read_peer_suite(const std::string& inp, const std::string& out) {
    PeerSuite s;
    s.strings = tok::parse_batch(read_text(inp));
    std::istringstream lines(read_text(out));
    for (std::string l; std::getline(lines, l);) s.ids.push_back(parse_ids(l));
    return s;
}

// How many strings give exactly their ids; the first that does not, described in `first`.
inline size_t run_peer_suite(const tok::Tokenizer& t, const PeerSuite& s, std::string& first) {
    size_t matched = 0;
    for (size_t i = 0; i < s.strings.size() && i < s.ids.size(); ++i) {
        const auto got = t.encode_ids(s.strings[i]);
        if (got == s.ids[i]) ++matched;
        else if (first.empty())
            first = "string " + std::to_string(i) + " '" + escaped(s.strings[i]) + "': expected [" + ids_text(s.ids[i]) +
                    "], got [" + ids_text(got) + "]";
    }
    return matched;
}

}  // namespace lmscope::testing
