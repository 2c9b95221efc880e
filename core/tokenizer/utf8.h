// Small UTF-8 helpers (byte-level work only; Unicode properties come from PCRE2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lmscope::tok {

// Length of the sequence a lead byte announces (1 for ASCII and for invalid lead bytes).
inline size_t utf8_len(uint8_t lead) {
    if (lead < 0x80) return 1;
    if ((lead & 0xE0) == 0xC0) return 2;
    if ((lead & 0xF0) == 0xE0) return 3;
    if ((lead & 0xF8) == 0xF0) return 4;
    return 1;
}

// Appends the UTF-8 encoding of a code point (< 0x110000).
void append_utf8(std::string& out, uint32_t cp);

// Decodes one valid UTF-8 character at s[pos]; returns its length, or 0 when the bytes there
// are not a complete, valid character (truncated, overlong, surrogate, > U+10FFFF, stray).
size_t decode_utf8(std::string_view s, size_t pos, uint32_t* cp);

// How many bytes at the end of `s` are the start of a valid character still missing bytes
// (0..3). Those are the bytes a stream decoder holds back.
size_t incomplete_utf8_tail(std::string_view s);

bool is_valid_utf8(std::string_view s);

}  // namespace lmscope::tok
