// Fuzzes the two line-based tokenizer files: tiktoken rank files (gzip or plain:
// tok::parse_tiktoken_ranks after gunzip) and WordPiece vocab.txt files
// (tok::parse_wordpiece_vocab). The first byte picks the reader; a vocabulary that reads
// becomes a WordPiece tokenizer that encodes and decodes a short mixed text.
#include "fuzz_common.h"

#include "tokenizer/tiktoken_tokenizer.h"
#include "tokenizer/wordpiece_tokenizer.h"
#include "tokenizer/wordpiece_vocab.h"
#include "util/error.h"
#include "util/gzip.h"

#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        if (data[0] & 1) {
            const std::string text = lmscope::is_gzip(bytes) ? lmscope::gunzip(bytes, "fuzz.tiktoken.gz", 1u << 24)
                                                              : std::string(bytes);
            (void)lmscope::tok::parse_tiktoken_ranks(text, "fuzz.tiktoken");
        } else {
            lmscope::tok::WordPieceTokenizer tok(lmscope::tok::parse_wordpiece_vocab(bytes, "fuzz-vocab.txt"));
            const std::vector<int32_t> ids =
                tok.encode_ids("Hello, WORLD! na\xc3\xafve 12 \xe4\xbd\xa0\xe5\xa5\xbd \xff [CLS]", true, true);
            (void)tok.decode(ids, true);
        }
    } catch (const lmscope::Error&) {
    }
    return 0;
}
