// Lists a user types: "1,2,3", "blk.0.q,logits", "1:0,2:3". One splitter for every such list
// (the CLI's --ids, --hooks, --ablate and --skip, the labs' head fields), so they all read alike.
#pragma once

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

namespace lmscope {

enum class Repeats { Keep, Drop };  // Drop: an item given twice is kept once, where it came first

// The items of a comma-separated list in order, each parsed by `parse(std::string_view)` (which
// throws for a bad one). An empty text is one empty item: `parse` says what it wants instead.
template <typename T, typename Parse>
std::vector<T> parse_list(std::string_view text, Parse parse, Repeats repeats) {
    std::vector<T> out;
    for (size_t i = 0; i <= text.size();) {
        const size_t comma = std::min(text.find(',', i), text.size());
        T item = parse(text.substr(i, comma - i));
        if (repeats == Repeats::Keep || std::find(out.begin(), out.end(), item) == out.end()) out.push_back(std::move(item));
        i = comma + 1;
    }
    return out;
}

// A decimal integer and nothing else ("12", "-3" for a signed T): no space, '+', base prefix or
// trailing text; nullopt otherwise or out of T's range.
template <typename T>
std::optional<T> parse_integer(std::string_view text) {
    T v{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
    return v;
}

}  // namespace lmscope
