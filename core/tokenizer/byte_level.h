// The byte-level BPE alphabet: every byte 0..255 stands for one printable Unicode character
// (printable Latin-1 bytes stand for themselves, the others for U+0100 upwards in byte order),
// so that a vocabulary of strings can hold arbitrary bytes ("Ġ" is the space byte 0x20).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lmscope::tok {

class ByteLevel {
public:
    ByteLevel();
    // The UTF-8 text of the character that stands for byte b.
    const std::string& encode(uint8_t b) const { return byte_to_text_[b]; }
    // Appends the mapped characters of raw bytes.
    void encode(std::string_view bytes, std::string& out) const;
    // The byte a code point stands for, or nullopt when it stands for none.
    std::optional<uint8_t> decode(uint32_t cp) const;
    // Undoes the mapping of a vocabulary string; characters outside the alphabet are kept as
    // their UTF-8 bytes.
    std::string decode_text(std::string_view text) const;

    static const ByteLevel& instance();

private:
    std::array<std::string, 256> byte_to_text_;  // [byte] -> UTF-8 of its character
    std::array<int16_t, 324> cp_to_byte_;        // [code point < 324] -> byte or -1
};

}  // namespace lmscope::tok
