// Fuzzes tokenizer encode/decode on hostile text for every tokenizer family, with the fixture
// vocabularies (../shared/testdata): the six vocab/ggml-vocab-*.gguf files (SentencePiece and
// byte-level BPE with each pre-tokenizer family) and tokenizer/fx-spm-1024.model.
//
// Input: byte 0 picks the tokenizer (modulo the count) and, in its high bits, add_special and
// parse_special; the rest is the text. Each run encodes, checks the token spans, decodes the
// ids (whole and streamed) and re-encodes the decoded text.
#include "fuzz_common.h"

#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<std::unique_ptr<lmscope::tok::Tokenizer>> load_fixture_tokenizers() {
    const std::string dir = lmscope::fuzz::testdata_dir();
    const char* files[] = {
        "vocab/ggml-vocab-llama-spm.gguf", "vocab/ggml-vocab-phi-3.gguf",
        "vocab/ggml-vocab-gpt-2.gguf", "vocab/ggml-vocab-deepseek-coder.gguf",
        "vocab/ggml-vocab-falcon.gguf", "vocab/ggml-vocab-starcoder.gguf",
        "tokenizer/fx-spm-1024.model",
    };
    std::vector<std::unique_ptr<lmscope::tok::Tokenizer>> out;
    for (const char* f : files) {
        try {
            out.push_back(lmscope::tok::load_tokenizer(dir + "/" + f));
        } catch (const lmscope::IoError& e) {
            std::fprintf(stderr, "fuzz tokenizer: %s (skipped)\n", e.what());
        }
    }
    return out;
}

const std::vector<std::unique_ptr<lmscope::tok::Tokenizer>>& tokenizers() {
    static const std::vector<std::unique_ptr<lmscope::tok::Tokenizer>> all = load_fixture_tokenizers();
    return all;
}

void check(bool ok) {
    if (!ok) __builtin_trap();
}

}  // namespace

// libFuzzer calls this once before the first input (outside the per-input timeout): loading
// the seven vocabularies under ASan takes a while. The replay runner loads them lazily.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    (void)tokenizers();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto& all = tokenizers();
    if (all.empty() || size == 0) return 0;
    const lmscope::tok::Tokenizer& tok = *all[(data[0] & 0x3f) % all.size()];
    const bool add_special = (data[0] & 0x40) != 0;
    const bool parse_special = (data[0] & 0x80) != 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    const std::vector<lmscope::tok::Token> tokens = tok.encode(text, add_special, parse_special);
    std::vector<int32_t> ids;  // [n_tokens]
    ids.reserve(tokens.size());
    for (const lmscope::tok::Token& t : tokens) {
        // Every token lies in the vocabulary and covers a span inside the text.
        check(t.id >= 0 && t.id < tok.vocab_size());
        check(t.begin <= t.end && t.end <= text.size());
        check(t.piece == tok.piece(t.id));
        ids.push_back(t.id);
    }
    const std::string decoded = tok.decode(ids, true);
    lmscope::tok::StreamDecoder stream(tok, true);
    std::string streamed;
    for (int32_t id : ids) streamed += stream.push(id);
    streamed += stream.flush();
    (void)tok.encode(decoded, false, parse_special);
    return 0;
}
