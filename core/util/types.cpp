#include "util/types.h"

#include "util/name_table.h"

namespace lmscope {
namespace {

constexpr NameTable<KvType, kKvTypes.size()> kKvTypeNames({"f16", "q8_0", "q4_0"}, NameCase::Any);
constexpr NameTable<Phase, 2> kPhaseNames({"prefill", "decode"}, NameCase::Exact);
constexpr NameTable<Choice, 4> kChoiceNames({"prompt", "greedy", "sampled", "forced"}, NameCase::Exact);
constexpr NameTable<Stage, kStageCount> kStageNames({"raw", "penalty", "temperature", "top_k", "top_p", "min_p"},
                                                    NameCase::Exact);
constexpr NameTable<Sublayer, 2> kSublayerNames({"attn", "ffn"}, NameCase::Exact);

}  // namespace

std::string_view kv_type_name(KvType type) { return kKvTypeNames.name(type); }
std::string_view phase_name(Phase phase) { return kPhaseNames.name(phase); }
std::string_view choice_name(Choice choice) { return kChoiceNames.name(choice); }
std::string_view stage_name(Stage stage) { return kStageNames.name(stage); }
std::string_view sublayer_name(Sublayer part) { return kSublayerNames.name(part); }

std::optional<KvType> parse_kv_type(std::string_view name) { return kKvTypeNames.parse(name); }
KvType parse_kv_type(std::string_view name, std::string_view field) { return kKvTypeNames.parse_or_throw(name, field); }
std::string kv_type_list() { return kKvTypeNames.list(); }
std::optional<Phase> parse_phase(std::string_view name) { return kPhaseNames.parse(name); }
std::optional<Choice> parse_choice(std::string_view name) { return kChoiceNames.parse(name); }
std::optional<Stage> parse_stage(std::string_view name) { return kStageNames.parse(name); }
std::optional<Sublayer> parse_sublayer(std::string_view name) { return kSublayerNames.parse(name); }

}  // namespace lmscope
