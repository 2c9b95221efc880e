// The one reader for the files lmscope reads whole (text to tokenize, a training corpus, a
// SentencePiece .model, tokenizer rank files): a cap on the bytes, checked while reading, so a
// pipe or device that does not say its size costs at most that much memory, and one specific
// error for each way it can fail.
#pragma once

#include <cstddef>
#include <string>

namespace lmscope {

// The whole content of `path`, at most max_bytes: a regular file, or a pipe or character
// device read in chunks until its end. Throws IoError ("PATH: cannot open: <errno text>",
// "PATH: is a directory", "PATH: read failed: <errno text>") or, for more than max_bytes,
// FormatError(path, "size", "larger than the N MiB allowed").
std::string read_bounded(const std::string& path, size_t max_bytes);

}  // namespace lmscope
