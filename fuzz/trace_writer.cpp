// Fuzzes the trace writer: every trace the loader accepts is saved to a file through the
// SafeWriter (over the previous input's file, so each save replaces one), loaded back, and
// must serialize to exactly the same bytes; the folder holds that one file afterwards (no
// temporary left behind).
#include "fuzz_common.h"

#include "trace/trace_file.h"
#include "util/error.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

const std::string& folder() {
    static const std::string dir = [] {
        std::string d = (std::filesystem::temp_directory_path() / "lmscope-fuzz-trace-writer-XXXXXX").string();
        if (::mkdtemp(d.data()) == nullptr) std::abort();
        return d;
    }();
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    namespace trace = lmscope::trace;
    const std::string path = folder() + "/session.lmtrace";
    try {
        const trace::SessionTrace t = trace::parse_trace(data, size, "fuzz.trace");
        trace::save_trace(t, path, {folder() + "/input"});
        const std::vector<uint8_t> written = trace::serialize_trace(t);
        const std::vector<uint8_t> reread = trace::serialize_trace(trace::load_trace(path));
        if (written != reread) std::abort();
    } catch (const lmscope::Error&) {
    }
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(folder())) ++entries;
    if (entries > 1) std::abort();  // a temporary file was left behind
    return 0;
}
