// The one table of an enumeration's names (a value's name is names[value]; the values are
// 0 .. N-1): its name, its parsing, and the list a help text, a menu or an error message shows
// all come from it, so a name is typed once. An unknown name is an error naming the value and
// the accepted ones, never a silent default.
#pragma once

#include "util/error.h"

#include <array>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lmscope {

enum class NameCase { Exact, Any };  // how parse() compares: names typed by users read in any case

template <typename E, size_t N>
class NameTable {
public:
    constexpr NameTable(std::array<std::string_view, N> names, NameCase match) : names_(names), match_(match) {}

    const std::array<std::string_view, N>& names() const { return names_; }
    // The name of e; "?" for a value outside the enum.
    std::string_view name(E e) const {
        const size_t i = size_t(e);
        return i < N ? names_[i] : std::string_view("?");
    }
    std::optional<E> parse(std::string_view text) const {
        for (size_t i = 0; i < N; ++i)
            if (same(names_[i], text)) return E(i);
        return std::nullopt;
    }
    // The value named `text`; UsageError "FIELD: 'TEXT' is not one of a, b, c" otherwise.
    E parse_or_throw(std::string_view text, std::string_view field) const {
        if (const std::optional<E> e = parse(text)) return *e;
        throw UsageError(std::string(field) + ": '" + std::string(text) + "' is not one of " + list());
    }
    // "a, b, c": every name in order.
    std::string list() const {
        std::string out;
        for (size_t i = 0; i < N; ++i) out += (i ? ", " : "") + std::string(names_[i]);
        return out;
    }

private:
    bool same(std::string_view a, std::string_view b) const {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i) {
            const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
            if (match_ == NameCase::Any ? std::tolower(x) != std::tolower(y) : x != y) return false;
        }
        return true;
    }

    std::array<std::string_view, N> names_;
    NameCase match_;
};

}  // namespace lmscope
