#include "tokenizer/utf8.h"

namespace lmscope::tok {

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

size_t decode_utf8(std::string_view s, size_t pos, uint32_t* cp) {
    if (pos >= s.size()) return 0;
    const auto b = [&](size_t i) { return static_cast<uint8_t>(s[pos + i]); };
    const uint8_t lead = b(0);
    if (lead < 0x80) {
        *cp = lead;
        return 1;
    }
    size_t n;
    uint32_t v, min;
    if ((lead & 0xE0) == 0xC0) { n = 2; v = lead & 0x1F; min = 0x80; }
    else if ((lead & 0xF0) == 0xE0) { n = 3; v = lead & 0x0F; min = 0x800; }
    else if ((lead & 0xF8) == 0xF0) { n = 4; v = lead & 0x07; min = 0x10000; }
    else return 0;
    if (pos + n > s.size()) return 0;
    for (size_t i = 1; i < n; ++i) {
        if ((b(i) & 0xC0) != 0x80) return 0;
        v = (v << 6) | (b(i) & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return n;
}

size_t incomplete_utf8_tail(std::string_view s) {
    // Look back at most 3 bytes for a lead byte whose sequence runs past the end.
    const size_t n = s.size();
    for (size_t back = 1; back <= 3 && back <= n; ++back) {
        const uint8_t c = static_cast<uint8_t>(s[n - back]);
        if ((c & 0xC0) == 0x80) continue;  // continuation byte: keep looking for the lead
        const size_t need = utf8_len(c);
        if (need <= back || c < 0xC0) return 0;  // complete, ASCII or invalid lead
        // Every byte after the lead must be a continuation byte (checked by the loop above).
        return back;
    }
    return 0;
}

bool is_valid_utf8(std::string_view s) {
    uint32_t cp;
    for (size_t i = 0; i < s.size();) {
        size_t n = decode_utf8(s, i, &cp);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

}  // namespace lmscope::tok
