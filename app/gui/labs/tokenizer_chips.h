// Tokenizer lab: what one tokenizer makes of a text, as chips (piece text with visible
// whitespace, byte pieces marked, id on hover) and counts. The lab's tables and tests use the
// same functions, so what is shown is exactly the core tokenizer's encode.
#pragma once

#include "widgets/chips_row.h"

#include <QString>
#include <QVector>

#include <string>
#include <string_view>

namespace lmscope::tok {
class Tokenizer;
}

namespace lmscope::gui::labs {

// The text of a word as it stands inside a sentence, after a space: SentencePiece tokenizers
// add the space themselves ("▁word"), byte-level BPE needs it written (" word" -> "Ġword").
std::string word_in_context(const tok::Tokenizer& tokenizer, const std::string& word);

// One chip per token of tokenizer.encode(text) (no BOS/EOS, special-token text not parsed).
// WordPiece chips show the vocabulary piece ("un", "##believ"): its text is normalised (lower
// case, no accents) and its spaces are gone.
QVector<widgets::Chip> token_chips(const tok::Tokenizer& tokenizer, std::string_view text);

// How the tokenizer splits words, for the lab's labels ("byte-level BPE (merge list)", ...).
QString algorithm_name(const tok::Tokenizer& tokenizer);

// Bytes as display text: ␣ for a space, ↵ for a newline, → for a tab; bytes that are not
// valid UTF-8 as <0xHH>.
QString visible_text(std::string_view bytes);

// Unicode characters (code points) in UTF-8 text; invalid bytes count one each.
qsizetype character_count(std::string_view text);

}  // namespace lmscope::gui::labs
