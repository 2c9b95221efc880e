// Fuzzes SentencePiece .model loading from bytes (tok::load_sentencepiece_model): the
// protobuf reader and the vocabulary checks. A model that loads then encodes and decodes a
// short mixed text, so a vocabulary the checks accept is also usable.
#include "fuzz_common.h"

#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        std::unique_ptr<lmscope::tok::Tokenizer> tok = lmscope::tok::load_sentencepiece_model(
            std::string(reinterpret_cast<const char*>(data), size), "fuzz.model");
        (void)tok->describe();
        const std::vector<int32_t> ids =
            tok->encode_ids("Hello, world! 12 \xe4\xbd\xa0\xe5\xa5\xbd \xff <s>", true, true);
        (void)tok->decode(ids, true);
    } catch (const lmscope::Error&) {
    }
    return 0;
}
