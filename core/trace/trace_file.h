// Trace files: the safetensors layout, so numpy (or the safetensors package) reads them.
//
//   u64 LE  header length N (the header is padded with spaces to a multiple of 8)
//   N bytes JSON: { "__metadata__": { "format": "lmscope-trace", "version": "1",
//                                     "trace": "<the session and steps as a JSON string>" },
//                   "step.3.attention": { "dtype": "F16", "shape": [W],
//                                         "data_offsets": [begin, end] }, ... }
//   the tensors' bytes, back to back (offsets relative to the end of the header)
//
// Per step i, present only when non-empty:
//   step.i.planes      I32 [P][4]      layer, head, first_row_pos, n_rows of each plane
//   step.i.attention   F16 [W]         the planes' packed causal rows, in `planes` order
//   step.i.entropy     F32 [L][H][R]   per (layer, head, row) summaries
//   step.i.max_weight  F32 [L][H][R]
//   step.i.argmax_key  I32 [L][H][R]
// docs/trace-format.md describes every field and has a Python reader.
//
// Loading treats the file as untrusted: every length, count, offset and shape is checked,
// and each failure is a FormatError(file, field, reason).
#pragma once

#include "trace/session_trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lmscope::trace {

inline constexpr const char* kTraceFormat = "lmscope-trace";
inline constexpr int kTraceVersion = 1;
inline constexpr uint64_t kMaxTraceHeader = uint64_t(100) << 20;  // 100 MiB of JSON

std::vector<uint8_t> serialize_trace(const SessionTrace& trace);
// `name` stands for the file name in errors. The budget of the result is the default one
// (or the saved one when larger), so loading never drops anything.
SessionTrace parse_trace(const uint8_t* data, size_t size, const std::string& name);

// Through a SafeWriter (util/safe_writer.h): atomic, and never over a device, a folder or one
// of `inputs` (the files the session read). On any failure the earlier file at `path` is left
// as it was. Throws IoError or UsageError.
void save_trace(const SessionTrace& trace, const std::string& path, const std::vector<std::string>& inputs = {});
// Throws IoError or FormatError.
SessionTrace load_trace(const std::string& path);

}  // namespace lmscope::trace
