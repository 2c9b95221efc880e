#include "gui/labs/tokenizer_chips.h"

#include "tokenizer/lab.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

#include <QCoreApplication>

namespace lmscope::gui::labs {

namespace {

QString hex_bytes(std::string_view bytes) {
    QString out;
    for (const char c : bytes)
        out += QStringLiteral("<0x%1>").arg(
            QString::number(static_cast<uint8_t>(c), 16).toUpper().rightJustified(2, QLatin1Char('0')));
    return out;
}

// A byte piece: byte fallback, or a byte-level token that holds only part of a character.
bool is_byte_piece(const tok::Tokenizer& t, const tok::Token& k, std::string_view text) {
    if (t.type(k.id) == tok::TokenType::Byte) return true;
    return k.end > k.begin && !tok::is_valid_utf8(text.substr(k.begin, k.end - k.begin));
}

// For a byte piece: "byte 2 of 3 of “数”: chips 4–6 spell it together", from the character of
// the text that holds the piece's first byte and the chips whose spans overlap it.
QString byte_group_note(const std::vector<tok::Token>& tokens, size_t i, std::string_view text) {
    const size_t at = tokens[i].begin;
    size_t start = at;
    while (start > 0 && at - start < 3 && (static_cast<uint8_t>(text[start]) & 0xC0) == 0x80) --start;
    uint32_t cp = 0;
    const size_t len = tok::decode_utf8(text, start, &cp);
    if (len < 2 || at >= start + len) return {};
    size_t first = i, last = i;
    while (first > 0 && tokens[first - 1].end > start) --first;
    while (last + 1 < tokens.size() && tokens[last + 1].begin < start + len) ++last;
    return QCoreApplication::translate("TokenizerLab", "\nbyte %1 of %2 of “%3”: chips %4–%5 spell it together")
        .arg(at - start + 1)
        .arg(len)
        .arg(QString::fromUtf8(text.data() + start, static_cast<qsizetype>(len)))
        .arg(first + 1)
        .arg(last + 1);
}

}  // namespace

std::string word_in_context(const tok::Tokenizer& tokenizer, const std::string& word) {
    return tokenizer.family() == tok::Family::ByteLevelBpe ? " " + word : word;
}

QString algorithm_name(const tok::Tokenizer& tokenizer) {
    switch (tok::algorithm_of(tokenizer)) {
    case tok::Algorithm::ByteLevelBpe: return QCoreApplication::translate("TokenizerLab", "byte-level BPE (merge list)");
    case tok::Algorithm::TiktokenBpe: return QCoreApplication::translate("TokenizerLab", "byte-level BPE (tiktoken ranks)");
    case tok::Algorithm::SentencePieceBpe: return QCoreApplication::translate("TokenizerLab", "SentencePiece BPE");
    case tok::Algorithm::SentencePieceUnigram: return QCoreApplication::translate("TokenizerLab", "SentencePiece Unigram");
    case tok::Algorithm::WordPiece: return QCoreApplication::translate("TokenizerLab", "WordPiece");
    }
    return {};
}

QString visible_text(std::string_view bytes) {
    QString out;
    for (size_t i = 0; i < bytes.size();) {
        uint32_t cp = 0;
        const size_t n = tok::decode_utf8(bytes, i, &cp);
        if (n == 0) {
            out += hex_bytes(bytes.substr(i, 1));
            ++i;
            continue;
        }
        if (cp == ' ') out += QChar(0x2423);
        else if (cp == '\n') out += QChar(0x21B5);
        else if (cp == '\t') out += QChar(0x2192);
        else out += QString::fromUtf8(bytes.data() + i, static_cast<qsizetype>(n));
        i += n;
    }
    return out;
}

qsizetype character_count(std::string_view text) {
    qsizetype n = 0;
    for (size_t i = 0; i < text.size(); ++n) {
        uint32_t cp = 0;
        const size_t len = tok::decode_utf8(text, i, &cp);
        i += len == 0 ? 1 : len;
    }
    return n;
}

QVector<widgets::Chip> token_chips(const tok::Tokenizer& tokenizer, std::string_view text) {
    QVector<widgets::Chip> chips;
    const std::vector<tok::Token> tokens = tokenizer.encode(text);
    for (size_t i = 0; i < tokens.size(); ++i) {
        const tok::Token& k = tokens[i];
        widgets::Chip c;
        c.id = k.id;
        c.byte = is_byte_piece(tokenizer, k, text);
        const std::string bytes = tokenizer.token_bytes(k.id, true);
        if (tokenizer.family() == tok::Family::WordPiece) c.label = visible_text(k.piece);
        else c.label = c.byte ? hex_bytes(bytes) : visible_text(bytes);
        c.tooltip = QCoreApplication::translate("TokenizerLab", "id %1\npiece %2\nbytes %3..%4 of the text%5")
                        .arg(k.id)
                        .arg(QString::fromUtf8(k.piece.data(), static_cast<qsizetype>(k.piece.size())))
                        .arg(k.begin)
                        .arg(k.end)
                        .arg(c.byte ? QCoreApplication::translate("TokenizerLab", "\nbyte piece: part of a character") +
                                          byte_group_note(tokens, i, text)
                                    : QString());
        chips.push_back(std::move(c));
    }
    return chips;
}

}  // namespace lmscope::gui::labs
