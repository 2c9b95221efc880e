// Checks on option values shared by the commands. Strict numbers for every numeric option
// and --ids. CLI11's own conversion (strtoull with
// base 0) takes " 1", "+5", "010" (octal), "0x10" and "-1" for an unsigned option, and
// saturates out-of-range values; here a number is decimal (std::from_chars: an optional '-'
// for signed and floating types, no space, '+', base prefix or trailing text), within the
// type's range and, for floating types, finite. A rejected value is a usage error (exit 2)
// naming the option.
#pragma once

#include "trace/capture.h"
#include "util/types.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace lmscope::cli {

// Why `text` is not a valid T ("" when it is).
template <class T>
std::string number_error(std::string_view text) {
    T v{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    const bool negative_integer =
        text.size() > 1 && text.front() == '-' && text.find_first_not_of("0123456789", 1) == std::string_view::npos;
    if (ec == std::errc::result_out_of_range || (std::is_unsigned_v<T> && negative_integer)) {
        std::string range;
        if constexpr (std::is_integral_v<T>)
            range = " (" + std::to_string(std::numeric_limits<T>::min()) + " to " +
                    std::to_string(std::numeric_limits<T>::max()) + ")";
        return "'" + std::string(text) + "' is out of range" + range;
    }
    if (text.empty() || ec != std::errc() || ptr != end)
        return "'" + std::string(text) + "' is not a " +
               (std::is_floating_point_v<T> ? "decimal number" : "decimal integer");
    if constexpr (std::is_floating_point_v<T>)
        if (!std::isfinite(v)) return "'" + std::string(text) + "' is not a finite number";
    return {};
}

template <class T>
std::optional<T> parse_number(std::string_view text) {
    if (!number_error<T>(text).empty()) return std::nullopt;
    T v{};
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

template <class T>
struct NumberOf {
    using type = T;
};
template <class T>
struct NumberOf<std::optional<T>> {
    using type = T;
};

// Adds the option `name` bound to `value` (a number, or an optional one), accepting only
// what parse_number accepts.
template <class T>
CLI::Option* add_number(CLI::App* cmd, const std::string& name, T& value, const std::string& help) {
    using N = typename NumberOf<T>::type;
    const CLI::Validator strict([](std::string& text) { return number_error<N>(text); }, "", "strict number");
    return cmd->add_option(name, value, help)->check(strict);
}

// The option `flag` NAME into `value` (whose value is the default) through `parse(NAME, flag)`,
// which throws a UsageError naming the flag, NAME and the names accepted; the help lists
// `names` (an enumeration's table: util/name_table.h).
template <class E, class Parse>
CLI::Option* add_name_option(CLI::App* cmd, const std::string& flag, E& value, Parse parse, const std::string& names,
                             std::string_view default_name, const std::string& help) {
    return cmd->add_option_function<std::string>(
        flag, [&value, parse, flag](const std::string& name) { value = parse(name, flag); },
        help + ": " + names + " (default " + std::string(default_name) + ")");
}

// --kv-type NAME (any case): util/types.h's KV types.
inline CLI::Option* add_kv_type_option(CLI::App* cmd, KvType& type, const std::string& help) {
    return add_name_option(
        cmd, "--kv-type", type, [](std::string_view name, std::string_view flag) { return parse_kv_type(name, flag); },
        kv_type_list(), kv_type_name(type), help);
}

// --capture NAME: trace/capture.h's capture modes.
inline CLI::Option* add_capture_option(CLI::App* cmd, trace::CaptureMode& mode, const std::string& help) {
    return add_name_option(
        cmd, "--capture", mode,
        [](std::string_view name, std::string_view flag) { return trace::parse_capture_mode(name, flag); },
        trace::capture_mode_list(), trace::capture_mode_name(mode), help);
}

// For file options: an empty path (`--trace ""`) is a usage error, not "no file".
inline CLI::Validator non_empty_path() {
    return CLI::Validator([](std::string& text) { return text.empty() ? std::string("the path is empty") : std::string(); },
                          "", "non-empty path");
}

inline CLI::Validator non_empty_list() {
    return CLI::Validator([](std::string& text) { return text.empty() ? std::string("the list is empty") : std::string(); },
                          "", "non-empty list");
}

}  // namespace lmscope::cli
