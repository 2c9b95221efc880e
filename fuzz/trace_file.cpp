// Fuzzes trace-file loading (trace::parse_trace: the safetensors header, the JSON session and
// every tensor's dtype, shape and offsets). A trace that loads is serialized again and must
// load again: the loader may not accept what the writer cannot write back.
#include "fuzz_common.h"

#include "trace/trace_file.h"
#include "util/error.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const lmscope::trace::SessionTrace trace = lmscope::trace::parse_trace(data, size, "fuzz.trace");
        const std::vector<uint8_t> again = lmscope::trace::serialize_trace(trace);
        (void)lmscope::trace::parse_trace(again.data(), again.size(), "fuzz.trace (rewritten)");
    } catch (const lmscope::Error&) {
    }
    return 0;
}
