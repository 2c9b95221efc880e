#include "tokenizer/spm_tokenizer.h"

#include "util/error.h"

#include <algorithm>

#include <sentencepiece_processor.h>

namespace lmscope::tok {

SpmTokenizer::SpmTokenizer(Vocab vocab, const std::string& serialized, bool from_gguf, SpmModelInfo info)
    : Tokenizer(std::move(vocab), from_gguf),
      sp_(std::make_unique<sentencepiece::SentencePieceProcessor>()),
      info_(std::move(info)),
      serialized_(serialized) {
    const auto status = sp_->LoadFromSerializedProto(serialized);
    if (!status.ok())
        throw FormatError(vocab_.source, from_gguf ? "tokenizer.ggml.tokens" : "ModelProto",
                          "SentencePiece refuses the vocabulary: " + status.ToString());
    if (sp_->GetPieceSize() != vocab_.size())
        throw FormatError(vocab_.source, "tokenizer.ggml.tokens", "SentencePiece sees a different piece count");
    // SentencePiece loads such a vocabulary but cannot encode with it (an internal error).
    if (std::none_of(vocab_.types.begin(), vocab_.types.end(), [](TokenType t) { return t == TokenType::Normal; }))
        throw FormatError(vocab_.source, from_gguf ? "tokenizer.ggml.token_type" : "ModelProto",
                          "no piece is a normal one (all are control, unknown, user-defined, unused or byte), so no text can be encoded");
}

SpmTokenizer::~SpmTokenizer() = default;

std::string SpmTokenizer::describe() const {
    return "SentencePiece " + std::string(spm_model_type_name(info_.model_type)) + ", " +
           std::to_string(vocab_.size()) + " tokens, normalizer " + info_.normalizer;
}

void SpmTokenizer::encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const {
    sentencepiece::ImmutableSentencePieceText spt;
    const auto status = sp_->Encode(absl::string_view(text.data(), text.size()), spt.mutable_proto());
    if (!status.ok()) throw Error("SentencePiece could not encode the text: " + status.ToString());
    const size_t first = out.size();
    for (const auto& p : spt.pieces()) {
        const size_t b = std::min<size_t>(p.begin(), text.size());
        const size_t e = std::min<size_t>(std::max<size_t>(p.end(), b), text.size());
        out.push_back({static_cast<int32_t>(p.id()), vocab_.pieces.at(p.id()), offset + b, offset + e});
    }
    // The library gives every byte-fallback piece of a character the character's span (or an
    // empty one); give each byte its own byte when the counts agree.
    for (size_t i = first; i < out.size();) {
        if (vocab_.types[out[i].id] != TokenType::Byte) {
            ++i;
            continue;
        }
        size_t j = i, lo = out[i].begin, hi = out[i].end;
        while (j < out.size() && vocab_.types[out[j].id] == TokenType::Byte) {
            lo = std::min(lo, out[j].begin);
            hi = std::max(hi, out[j].end);
            ++j;
        }
        if (hi - lo == j - i)
            for (size_t k = i; k < j; ++k) {
                out[k].begin = lo + (k - i);
                out[k].end = out[k].begin + 1;
            }
        i = j;
    }
}

}  // namespace lmscope::tok
