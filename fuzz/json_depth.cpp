// Fuzzes the parser of untrusted JSON (util/json_io.h): whatever it accepts nests at most
// kMaxJsonDepth levels, so copying, printing, comparing and freeing it (recursive in
// nlohmann::json) is safe; it must be the same value nlohmann's own parser reads, print back
// to text that parses to the same value, and free without allocating.
#include "fuzz_common.h"

#include "util/error.h"
#include "util/json_io.h"

#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        nlohmann::json doc = lmscope::parse_untrusted_json(text, "fuzz.json", "document");
        const nlohmann::json copy = doc;  // bounded recursion
        if (copy != nlohmann::json::parse(text)) std::abort();
        const std::string printed = lmscope::dump_json(copy, 1);
        const lmscope::JsonDocument again(lmscope::parse_untrusted_json(printed, "fuzz.json", "printed"));
        if (lmscope::dump_json(*again) != lmscope::dump_json(copy)) std::abort();  // U+FFFD replaced once
        lmscope::release_json(doc);
        if (!doc.empty() && doc.is_structured()) std::abort();
    } catch (const lmscope::Error&) {
    }
    return 0;
}
