#include "util/file_kind.h"

namespace lmscope {

std::string_view file_kind(std::string_view head) {
    if (head.substr(0, 4) == "GGUF") return "a GGUF model file";
    // a trace: a little-endian header length (far below 2^32), then the JSON header
    if (head.size() > 8 && head.substr(4, 4) == std::string_view("\0\0\0\0", 4) && head[8] == '{')
        return kTraceKind;
    if (head.substr(0, 2) == "\x1f\x8b") return "a gzip file";
    if (head.substr(0, 4) == "PK\x03\x04") return "a zip archive";
    // JSON: an object or a list, then what can start its first member (a .model file, say,
    // may start with bytes that read as "\n{")
    constexpr std::string_view space = " \t\r\n";
    const size_t first = head.find_first_not_of(space);
    if (first == std::string_view::npos || (head[first] != '{' && head[first] != '[')) return {};
    const size_t next = head.find_first_not_of(space, first + 1);
    if (next == std::string_view::npos) return {};
    const std::string_view starts = head[first] == '{' ? "\"}" : "\"{[]-0123456789tfn";
    return starts.find(head[next]) != std::string_view::npos ? "a JSON file" : std::string_view();
}

}  // namespace lmscope
