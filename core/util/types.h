// The words every part of lmscope shares: how the KV cache stores its rows, the phase of a loop
// step, how a fed token was chosen, the sampler's stages, a (layer, head) pair, a head's
// per-row attention summary, and the layout of a packed attention plane. The engine, the CUDA
// backend, the trace and the widgets all use these types, so nothing converts between copies of
// one concept. Trace files store the enums by name (phase_name, ...).
//
// Host and device code: nvcc compiles this header as C++17 (gpu/kernels).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lmscope {

// How the KV cache stores one head's K (or V) row: IEEE half floats, or the GGUF q8_0 / q4_0
// blocks of 32 values (an f16 scale, then 32 int8 or 16 bytes of 4-bit pairs).
enum class KvType : uint8_t { F16, Q8_0, Q4_0 };
inline constexpr std::array<KvType, 3> kKvTypes{KvType::F16, KvType::Q8_0, KvType::Q4_0};

// A loop step: the prompt fed at once, or one token against the cache.
enum class Phase : uint8_t { Prefill, Decode };

// How a token came to be fed: part of the prompt, picked by the sampler (greedily or by a
// draw), or forced by the user (a branch). The sampler reports only the last three.
enum class Choice : uint8_t { Prompt, Greedy, Sampled, Forced };

// The sampling stages a distribution passes through, in the order the sampler applies them
// (engine/sampler.h describes each).
enum class Stage : uint8_t { Raw, Penalty, Temperature, TopK, TopP, MinP };
inline constexpr size_t kStageCount = 6;

std::string_view kv_type_name(KvType type);  // "f16", "q8_0", "q4_0"
std::string_view phase_name(Phase phase);    // "prefill", "decode"
std::string_view choice_name(Choice choice); // "prompt", "greedy", "sampled", "forced"
std::string_view stage_name(Stage stage);    // "raw", "penalty", "temperature", "top_k", "top_p", "min_p"
// The names above back to the values; nullopt for anything else. A KV type is also typed by
// users (--kv-type Q8_0), so its name is read case-insensitively; the others are exact.
std::optional<KvType> parse_kv_type(std::string_view name);
// The KV type `name` names; UsageError "FIELD: 'NAME' is not one of f16, q8_0, q4_0" otherwise.
KvType parse_kv_type(std::string_view name, std::string_view field);
// "f16, q8_0, q4_0": the KV types' names in order, for help texts.
std::string kv_type_list();
std::optional<Phase> parse_phase(std::string_view name);
std::optional<Choice> parse_choice(std::string_view name);
std::optional<Stage> parse_stage(std::string_view name);

struct LayerHead {
    int32_t layer = 0;
    int32_t head = 0;
    friend bool operator==(const LayerHead& a, const LayerHead& b) {
        return a.layer == b.layer && a.head == b.head;
    }
};

// A layer's attention or feed-forward sub-layer.
enum class Sublayer : uint8_t { Attn, Ffn };
std::string_view sublayer_name(Sublayer part);                // "attn", "ffn"
std::optional<Sublayer> parse_sublayer(std::string_view name);

// A sub-layer skipped (an intervention): its output is not added to the residual stream
// (attn_out or mlp_out is zero, resid_mid = resid_pre or resid_post = resid_mid).
struct LayerSkip {
    int32_t layer = 0;
    Sublayer part = Sublayer::Attn;
    friend bool operator==(const LayerSkip& a, const LayerSkip& b) { return a.layer == b.layer && a.part == b.part; }
};

// Per (layer, head, row) summary of an attention row: what is kept of the heads whose full
// weights are not.
struct HeadSummary {
    float entropy = 0.0f;     // nats, of the row's softmax
    float max_weight = 0.0f;  // largest weight in the row
    int32_t argmax_key = 0;   // key position holding it
    friend bool operator==(const HeadSummary& a, const HeadSummary& b) {
        return a.entropy == b.entropy && a.max_weight == b.max_weight && a.argmax_key == b.argmax_key;
    }
};

// A packed attention plane: the softmax weights of n_rows query rows, row r (query position
// first_row_pos + r) holding its keys 0 .. first_row_pos + r only (the causal lower triangle),
// rows back to back. Both arguments >= 0; exact for any int32 values.
//
// Weights before row r: sum over i < r of (first_row_pos + i + 1).
constexpr uint64_t packed_row_offset(int32_t first_row_pos, int32_t r) {
    const uint64_t n = uint64_t(r);
    return n * (2 * uint64_t(first_row_pos) + n + 1) / 2;
}
// Weights of the whole plane.
constexpr uint64_t packed_plane_count(int32_t first_row_pos, int32_t n_rows) {
    return packed_row_offset(first_row_pos, n_rows);
}

}  // namespace lmscope
