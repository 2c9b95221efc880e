// Text from files and arguments shown to a person (error messages, names and paths printed to
// a terminal or a message box): one line, printable, bounded. Control characters (C0, DEL and
// C1, which terminals read as escape sequences) become \n, \t, \r or \xHH; bytes that are not
// UTF-8 become \xHH; the result is cut, at a character boundary, to at most `max_bytes` bytes
// of text plus " [... N more bytes]".
#pragma once

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>

namespace lmscope {

inline constexpr size_t kMaxMessageBytes = 512;

std::string sanitize_message(std::string_view text, size_t max_bytes = kMaxMessageBytes);

// Longer text printed as text (a model's generated reply): the same escapes, but newlines and
// tabs kept as they are and no bound.
std::string sanitize_text(std::string_view text);

// The message of an exception as it should be shown: lmscope::Error's whole text (what()
// stops at a NUL byte a file put in a name), sanitized.
std::string error_message(const std::exception& e);

// The message of a caught exception as a boundary (a CLI command, a GUI job) reports it:
// "out of memory" for std::bad_alloc (whose what() says nothing), error_message() for other
// standard exceptions, "unknown error" for anything else. Use it inside catch (...) as
// exception_message(std::current_exception()).
std::string exception_message(const std::exception_ptr& error);

}  // namespace lmscope
