#include "tokenizer/batch.h"

namespace lmscope::tok {

std::vector<std::string> parse_batch(std::string_view content) {
    std::vector<std::string> out;
    std::string cur;
    bool have_line = false;  // cur holds at least one line (possibly empty)
    size_t pos = 0;
    while (pos < content.size()) {
        size_t nl = content.find('\n', pos);
        const bool last = nl == std::string_view::npos;
        std::string_view line = content.substr(pos, last ? std::string_view::npos : nl - pos);
        pos = last ? content.size() : nl + 1;
        if (line == kBatchSeparator) {
            out.push_back(std::move(cur));
            cur.clear();
            have_line = false;
            continue;
        }
        if (have_line) cur += '\n';
        cur.append(line);
        have_line = true;
    }
    if (have_line && !cur.empty()) out.push_back(std::move(cur));
    return out;
}

}  // namespace lmscope::tok
