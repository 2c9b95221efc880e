// JSON from untrusted files, and JSON text for output. nlohmann::json copies, prints and
// compares values recursively, and its destructor allocates a stack to flatten what it frees,
// so a document tens of thousands of levels deep overflows the stack in a copy or a dump, and
// one freed while memory runs out throws from a destructor (std::terminate). Here:
//   - parse_untrusted_json builds the document with a SAX handler (iterative) that refuses
//     nesting deeper than kMaxJsonDepth before it builds it, so every later recursion over the
//     result is bounded, and an object that repeats a key (which of the values counts
//     depends on the reader); running out of memory while parsing becomes one
//     Error "FILE: out of memory while loading", with what was built released first;
//   - release_json frees a document of bounded depth from the leaves up without allocating
//     (JsonDocument does it on destruction), for documents freed while memory may be short;
//   - dump_json prints with invalid UTF-8 replaced by U+FFFD instead of throwing type_error 316.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace lmscope {

inline constexpr int kMaxJsonDepth = 64;

// Throws FormatError(file, field, "is not valid JSON: ...", "nests deeper than 64 levels" or
// "has the key 'K' twice in one object"),
// or Error "FILE: out of memory while loading".
nlohmann::json parse_untrusted_json(std::string_view text, const std::string& file, const std::string& field);

// Empties `j` leaf first; nothing it does allocates. For documents of bounded depth.
void release_json(nlohmann::json& j) noexcept;

// The number of values in `j` (containers and scalars), counting no further than `limit`.
size_t json_values(const nlohmann::json& j, size_t limit);

// A parsed document released with release_json when it goes.
class JsonDocument {
public:
    JsonDocument() = default;
    explicit JsonDocument(nlohmann::json value) : value_(std::move(value)) {}
    ~JsonDocument() { release_json(value_); }
    JsonDocument(const JsonDocument&) = delete;
    JsonDocument& operator=(const JsonDocument&) = delete;

    const nlohmann::json& operator*() const { return value_; }
    const nlohmann::json* operator->() const { return &value_; }

private:
    nlohmann::json value_;
};

// j.dump(indent), invalid UTF-8 in strings replaced by U+FFFD.
std::string dump_json(const nlohmann::json& j, int indent = -1);

}  // namespace lmscope
