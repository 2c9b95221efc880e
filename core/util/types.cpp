#include "util/types.h"

#include <cctype>

namespace lmscope {
namespace {

constexpr std::array<std::string_view, kKvTypes.size()> kKvTypeNames = {"f16", "q8_0", "q4_0"};
constexpr std::array<std::string_view, 2> kPhaseNames = {"prefill", "decode"};
constexpr std::array<std::string_view, 4> kChoiceNames = {"prompt", "greedy", "sampled", "forced"};
constexpr std::array<std::string_view, kStageCount> kStageNames = {"raw",   "penalty", "temperature",
                                                                   "top_k", "top_p",   "min_p"};
constexpr std::array<std::string_view, 2> kSublayerNames = {"attn", "ffn"};

// The name of value e (an index into names); "?" for a value outside the enum.
template <typename E, size_t N>
std::string_view name_of(const std::array<std::string_view, N>& names, E e) {
    const size_t i = size_t(e);
    return i < N ? names[i] : std::string_view("?");
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

template <typename E, size_t N, typename Equal>
std::optional<E> parse_name(const std::array<std::string_view, N>& names, std::string_view s, Equal equal) {
    for (size_t i = 0; i < N; ++i)
        if (equal(names[i], s)) return E(i);
    return std::nullopt;
}

bool same(std::string_view a, std::string_view b) { return a == b; }

}  // namespace

std::string_view kv_type_name(KvType type) { return name_of(kKvTypeNames, type); }
std::string_view phase_name(Phase phase) { return name_of(kPhaseNames, phase); }
std::string_view choice_name(Choice choice) { return name_of(kChoiceNames, choice); }
std::string_view stage_name(Stage stage) { return name_of(kStageNames, stage); }
std::string_view sublayer_name(Sublayer part) { return name_of(kSublayerNames, part); }

std::optional<KvType> parse_kv_type(std::string_view name) {
    return parse_name<KvType>(kKvTypeNames, name, same_ignoring_case);
}
std::optional<Phase> parse_phase(std::string_view name) { return parse_name<Phase>(kPhaseNames, name, same); }
std::optional<Choice> parse_choice(std::string_view name) { return parse_name<Choice>(kChoiceNames, name, same); }
std::optional<Stage> parse_stage(std::string_view name) { return parse_name<Stage>(kStageNames, name, same); }
std::optional<Sublayer> parse_sublayer(std::string_view name) {
    return parse_name<Sublayer>(kSublayerNames, name, same);
}

}  // namespace lmscope
