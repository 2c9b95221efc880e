// Bounded reading of a file that may be gzip-compressed (RFC 1952), for the small data files
// lmscope reads whole (tokenizer rank files). The result never exceeds a caller's cap, so a
// "gzip bomb" costs at most that much memory.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lmscope {

// True when the bytes start with the gzip magic (1F 8B).
bool is_gzip(std::string_view bytes);

// The decompressed content of one gzip stream. Throws FormatError(name, "gzip", reason) for a
// corrupt or truncated stream, data after it, or content over max_bytes.
std::string gunzip(std::string_view compressed, const std::string& name, size_t max_bytes);

// The file's bytes, decompressed when it is gzip; both the file and its content are capped
// at max_bytes. Throws IoError (cannot open, a directory, read failure) or FormatError.
std::string read_maybe_gzip(const std::string& path, size_t max_bytes);

}  // namespace lmscope
