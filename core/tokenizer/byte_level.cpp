#include "tokenizer/byte_level.h"

#include "tokenizer/utf8.h"

namespace lmscope::tok {

ByteLevel::ByteLevel() {
    cp_to_byte_.fill(-1);
    auto printable = [](int b) {
        return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    };
    uint32_t next = 256;  // the non-printable bytes take U+0100, U+0101, ... in byte order
    for (int b = 0; b < 256; ++b) {
        const uint32_t cp = printable(b) ? static_cast<uint32_t>(b) : next++;
        append_utf8(byte_to_text_[b], cp);
        cp_to_byte_[cp] = static_cast<int16_t>(b);
    }
}

const ByteLevel& ByteLevel::instance() {
    static const ByteLevel table;
    return table;
}

void ByteLevel::encode(std::string_view bytes, std::string& out) const {
    for (char c : bytes) out += byte_to_text_[static_cast<uint8_t>(c)];
}

std::optional<uint8_t> ByteLevel::decode(uint32_t cp) const {
    if (cp >= cp_to_byte_.size() || cp_to_byte_[cp] < 0) return std::nullopt;
    return static_cast<uint8_t>(cp_to_byte_[cp]);
}

std::string ByteLevel::decode_text(std::string_view text) const {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        uint32_t cp = 0;
        size_t n = decode_utf8(text, i, &cp);
        if (n == 0) {  // not valid UTF-8: keep the byte
            out += text[i++];
            continue;
        }
        if (auto b = decode(cp)) out += static_cast<char>(*b);
        else out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

}  // namespace lmscope::tok
