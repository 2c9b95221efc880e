#include "util/message.h"

#include "util/error.h"

#include <cstdint>
#include <cstdio>
#include <new>

namespace lmscope {

namespace {

// The length of the well-formed UTF-8 sequence at the start of `s`, or 0.
size_t utf8_length(std::string_view s) {
    const auto c = uint8_t(s[0]);
    const size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || len > s.size()) return 0;
    uint32_t cp = len == 1 ? c : c & (0x7f >> len);
    for (size_t k = 1; k < len; ++k) {
        const auto cc = uint8_t(s[k]);
        if ((cc & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (cc & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 0;  // C0, DEL, C1: escaped as bytes
    return len;
}

std::string escaped(std::string_view bytes) {
    std::string out;
    for (const char ch : bytes) {
        if (ch == '\n') out += "\\n";
        else if (ch == '\t') out += "\\t";
        else if (ch == '\r') out += "\\r";
        else {
            char buf[5];
            std::snprintf(buf, sizeof(buf), "\\x%02x", unsigned(uint8_t(ch)));
            out += buf;
        }
    }
    return out;
}

// keep_lines: newlines and tabs stay as they are (text that is read as text).
std::string sanitize(std::string_view text, size_t max_bytes, bool keep_lines) {
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
        const size_t len = keep_lines && (text[i] == '\n' || text[i] == '\t') ? 1 : utf8_length(text.substr(i));
        const std::string piece = len ? std::string(text.substr(i, len)) : escaped(text.substr(i, 1));
        if (out.size() + piece.size() > max_bytes) break;
        out += piece;
        i += len ? len : 1;
    }
    if (i < text.size()) out += " [... " + std::to_string(text.size() - i) + " more bytes]";
    return out;
}

}  // namespace

std::string sanitize_message(std::string_view text, size_t max_bytes) { return sanitize(text, max_bytes, false); }

std::string sanitize_text(std::string_view text) { return sanitize(text, SIZE_MAX, true); }

std::string error_message(const std::exception& e) {
    const auto* own = dynamic_cast<const Error*>(&e);
    return sanitize_message(own ? std::string_view(own->message()) : std::string_view(e.what()));
}

std::string exception_message(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const std::bad_alloc&) {
        return "out of memory";
    } catch (const std::exception& e) {
        return error_message(e);
    } catch (...) {
        return "unknown error";
    }
}

}  // namespace lmscope
