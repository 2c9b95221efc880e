// SentencePiece tokenizers, encoded by libsentencepiece itself. For a GGUF vocabulary
// (tokenizer.ggml.model = "llama") the ModelProto is built from the GGUF arrays (spm_proto.h):
// no normalization, spaces kept, a space prefix before each piece of plain text. A .model file
// brings its own normalizer (NFKC, whitespace collapsing) and model type.
#pragma once

#include "tokenizer/spm_proto.h"
#include "tokenizer/tokenizer.h"

#include <memory>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace lmscope::tok {

class SpmTokenizer final : public Tokenizer {
public:
    // `serialized`: the ModelProto to load; from_gguf selects llama.cpp's handling of
    // user-defined tokens. Throws FormatError(vocab.source, ...) when the library refuses it.
    SpmTokenizer(Vocab vocab, const std::string& serialized, bool from_gguf, SpmModelInfo info);
    ~SpmTokenizer() override;
    Family family() const override { return Family::SentencePiece; }
    std::string describe() const override;
    const SpmModelInfo& model_info() const { return info_; }
    // The serialized ModelProto the library runs (a valid .model file's content).
    const std::string& serialized_model() const { return serialized_; }

protected:
    void encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const override;

private:
    std::unique_ptr<sentencepiece::SentencePieceProcessor> sp_;
    SpmModelInfo info_;
    std::string serialized_;
};

}  // namespace lmscope::tok
