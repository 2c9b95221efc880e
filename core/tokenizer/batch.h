// The batch format of the peer tokenizer suites (`*.gguf.inp`): strings separated by the line
// `__ggml_vocab_test__`; the separator line and the newline before it belong to no string.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lmscope::tok {

inline constexpr std::string_view kBatchSeparator = "__ggml_vocab_test__";

// Text after the last separator counts as one more string when it is not empty.
std::vector<std::string> parse_batch(std::string_view content);

}  // namespace lmscope::tok
