// What a file looks like from its first bytes, for errors that say what was given when a
// loader expected another kind ("is a GGUF model file, not an lmscope trace").
#pragma once

#include <string_view>

namespace lmscope {

inline constexpr std::string_view kTraceKind = "an lmscope trace";

// "a GGUF model file", kTraceKind, "a gzip file", "a zip archive", "a JSON file", or empty
// when the bytes look like none of these.
std::string_view file_kind(std::string_view head);

}  // namespace lmscope
