#include "util/file_kind.h"

namespace lmscope {

std::string_view file_kind(std::string_view head) {
    if (head.substr(0, 4) == "GGUF") return "a GGUF model file";
    // a trace: a little-endian header length (far below 2^32), then the JSON header
    if (head.size() > 8 && head.substr(4, 4) == std::string_view("\0\0\0\0", 4) && head[8] == '{')
        return kTraceKind;
    if (head.substr(0, 2) == "\x1f\x8b") return "a gzip file";
    if (head.substr(0, 4) == "PK\x03\x04") return "a zip archive";
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && (head[first] == '{' || head[first] == '[')) return "a JSON file";
    return {};
}

}  // namespace lmscope
