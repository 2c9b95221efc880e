#include "cli/head_list.h"

#include "cli/options.h"
#include "util/error.h"

#include <algorithm>

namespace lmscope::cli {

namespace {

// The items of a comma-separated list, each parsed by `parse` (which throws for a bad one),
// duplicates dropped, the order kept.
template <typename T, typename Parse>
std::vector<T> parse_list(const std::string& text, Parse parse) {
    std::vector<T> out;
    for (size_t i = 0; i <= text.size();) {
        const size_t comma = std::min(text.find(',', i), text.size());
        const T item = parse(text.substr(i, comma - i));
        if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
        i = comma + 1;
    }
    return out;
}

}  // namespace

std::vector<LayerHead> parse_head_list(const std::string& text, const model::ModelSpec& s) {
    return parse_list<LayerHead>(text, [&](const std::string& item) {
        const size_t colon = item.find(':');
        const auto l = colon == std::string::npos ? std::nullopt : parse_number<int32_t>(item.substr(0, colon));
        const auto h = colon == std::string::npos ? std::nullopt : parse_number<int32_t>(item.substr(colon + 1));
        if (!l || !h) throw UsageError("--ablate: '" + item + "' is not LAYER:HEAD (expected a list like 1:0,2:3)");
        if (*l < 0 || *l >= s.n_layer() || *h < 0 || *h >= s.n_head())
            throw UsageError("--ablate: head " + item + " does not exist (layers 0 .. " + std::to_string(s.n_layer() - 1) +
                             ", heads 0 .. " + std::to_string(s.n_head() - 1) + ")");
        return LayerHead{*l, *h};
    });
}

std::vector<LayerSkip> parse_skip_list(const std::string& text, const model::ModelSpec& s) {
    return parse_list<LayerSkip>(text, [&](const std::string& item) {
        const size_t colon = item.find(':');
        const auto l = colon == std::string::npos ? std::nullopt : parse_number<int32_t>(item.substr(0, colon));
        const auto part = colon == std::string::npos ? std::nullopt : parse_sublayer(item.substr(colon + 1));
        if (!l || !part)
            throw UsageError("--skip: '" + item + "' is not LAYER:attn or LAYER:ffn (expected a list like 1:attn,2:ffn)");
        if (*l < 0 || *l >= s.n_layer())
            throw UsageError("--skip: layer " + std::to_string(*l) + " does not exist (layers 0 .. " +
                             std::to_string(s.n_layer() - 1) + ")");
        return LayerSkip{*l, *part};
    });
}

}  // namespace lmscope::cli
