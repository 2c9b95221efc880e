#include "model/interventions.h"

#include "util/error.h"
#include "util/parse_list.h"

#include <string>

namespace lmscope::model {

namespace {

std::string layers_text(const ModelSpec& s) { return "layers 0 .. " + std::to_string(s.n_layer() - 1); }

std::string_view trimmed(std::string_view item) {
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    return item;
}

// A list of LAYER:SECOND items ("1:0,2:3", "1:attn"), spaces around an item allowed, an item
// given twice kept once: `second` reads the part after the colon (nullopt: the item is not
// `form`), `make(layer, second)` builds the item and checks it against the model.
template <typename T, typename Second, typename Make>
std::vector<T> parse_layer_items(std::string_view text, std::string_view field, std::string_view form, Second second,
                                 Make make) {
    return parse_list<T>(
        text,
        [&](std::string_view raw) {
            const std::string_view item = trimmed(raw);
            const size_t colon = item.find(':');
            const auto layer = colon == std::string_view::npos ? std::nullopt : parse_integer<int32_t>(item.substr(0, colon));
            const auto rest = layer ? second(item.substr(colon + 1)) : std::nullopt;
            if (!layer || !rest)
                throw UsageError(std::string(field) + ": '" + std::string(item) + "' is not " + std::string(form));
            return make(*layer, *rest);
        },
        Repeats::Drop);
}

}  // namespace

bool has_head(const ModelSpec& s, const LayerHead& h) {
    return h.layer >= 0 && h.layer < s.n_layer() && h.head >= 0 && h.head < s.n_head();
}

void check_heads(const ModelSpec& s, std::span<const LayerHead> heads, std::string_view who) {
    for (const LayerHead& h : heads)
        if (!has_head(s, h))
            throw UsageError(std::string(who) + ": head " + std::to_string(h.layer) + ":" + std::to_string(h.head) +
                             " does not exist (" + layers_text(s) + ", heads 0 .. " + std::to_string(s.n_head() - 1) +
                             ")");
}

void check_skips(const ModelSpec& s, std::span<const LayerSkip> skips, std::string_view who) {
    for (const LayerSkip& k : skips) {
        if (k.part != Sublayer::Attn && k.part != Sublayer::Ffn)
            throw UsageError(std::string(who) + ": sub-layer " + std::to_string(int(k.part)) + " of layer " +
                             std::to_string(k.layer) + " is neither attn nor ffn");
        if (k.layer < 0 || k.layer >= s.n_layer())
            throw UsageError(std::string(who) + ": layer " + std::to_string(k.layer) + " does not exist (" +
                             layers_text(s) + ")");
    }
}

std::vector<LayerHead> parse_head_list(std::string_view text, const ModelSpec& s, std::string_view field) {
    return parse_layer_items<LayerHead>(
        text, field, "LAYER:HEAD (expected a list like 1:0,2:3)", parse_integer<int32_t>, [&](int32_t layer, int32_t head) {
            const LayerHead h{layer, head};
            check_heads(s, std::span(&h, 1), field);
            return h;
        });
}

std::vector<LayerSkip> parse_skip_list(std::string_view text, const ModelSpec& s, std::string_view field) {
    return parse_layer_items<LayerSkip>(
        text, field, "LAYER:attn or LAYER:ffn (expected a list like 1:attn,2:ffn)",
        [](std::string_view part) { return parse_sublayer(part); }, [&](int32_t layer, Sublayer part) {
            const LayerSkip k{layer, part};
            check_skips(s, std::span(&k, 1), field);
            return k;
        });
}

}  // namespace lmscope::model
