// WordPiece vocabularies from their two sources, in HF's piece form ("hello", "##llo",
// "[CLS]"):
//   - GGUF (tokenizer.ggml.model = "bert"): read_vocab() reads it and converts llama.cpp's
//     form (word-initial pieces "▁hello", continuations "llo", [..] pieces as they are) with
//     wordpiece_piece_from_gguf();
//   - HF vocab.txt: one piece per line, the line number (from 0) its id.
// Either way [CLS] is BOS and [SEP] is EOS (both added by add_special), [UNK] the unknown token.
#pragma once

#include "tokenizer/vocab.h"

#include <array>
#include <string>
#include <string_view>

namespace lmscope::tok {

// llama.cpp's converter writes "▁" + piece for a word-initial piece, the piece without "##"
// for a continuation, and a piece in brackets ("[CLS]", "[unused0]") as it is.
std::string wordpiece_piece_from_gguf(std::string_view piece);

// Sets special.bos / eos / unk from the pieces [CLS], [SEP], [UNK] where they are unset.
// field[0..2] name where [UNK], [CLS] and [SEP] should have come from: a FormatError(file,
// field[i], ...) says that one is missing.
void complete_wordpiece_specials(Vocab& v, const std::array<std::string, 3>& field);

// True when no piece (outside [..] pieces) has a character that lower-casing changes: the
// vocabulary is uncased, so the text is lower-cased and its accents stripped.
bool wordpiece_uncased(const Vocab& v);

// A name that asks for a vocab.txt reading (ends in ".txt").
bool is_wordpiece_vocab_name(std::string_view path);

// Reads an HF vocab.txt. Bounded: at most kMaxVocabTxtBytes, kMaxVocabTxtLines lines of at most
// kMaxVocabTxtLine bytes each. Throws IoError, or FormatError(path, "line N", reason) for an
// empty line, a NUL, invalid UTF-8, a duplicate piece, a missing [UNK] / [CLS] / [SEP].
inline constexpr size_t kMaxVocabTxtBytes = 64u << 20;
inline constexpr size_t kMaxVocabTxtLines = 1'000'000;
inline constexpr size_t kMaxVocabTxtLine = 1024;
Vocab read_wordpiece_vocab(const std::string& path);
// The same from the file's bytes (`path` names it in errors).
Vocab parse_wordpiece_vocab(std::string_view bytes, const std::string& path);

}  // namespace lmscope::tok
