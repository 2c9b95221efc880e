#include "kv/presets.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace lmscope::kv {

namespace {

// Sources: each model's published config.json (num_hidden_layers, num_attention_heads,
// num_key_value_heads, hidden_size / head_dim, max_position_embeddings) and, for Llama 3.1, the
// Llama 3 paper's architecture table. Parameter counts are the released totals; every one was
// recomputed from the config (vocab x hidden embeddings, plus an untied output head, attention
// with Qwen2.5's q/k/v biases, SwiGLU feed-forward, norms) and matches exactly.
//
// | model          | layers | heads | kv | head dim | hidden | context | parameters      |
// |----------------|--------|-------|----|----------|--------|---------|-----------------|
// | Llama 2 7B     |     32 |    32 | 32 |      128 |   4096 |    4096 |   6,738,415,616 |
// | Llama 2 13B    |     40 |    40 | 40 |      128 |   5120 |    4096 |  13,015,864,320 |
// | Llama 2 70B    |     80 |    64 |  8 |      128 |   8192 |    4096 |  68,976,648,192 |
// | Llama 3.1 8B   |     32 |    32 |  8 |      128 |   4096 |  131072 |   8,030,261,248 |
// | Llama 3.1 70B  |     80 |    64 |  8 |      128 |   8192 |  131072 |  70,553,706,496 |
// | Llama 3.1 405B |    126 |   128 |  8 |      128 |  16384 |  131072 | 405,853,388,800 |
// | Llama 3.2 1B   |     16 |    32 |  8 |       64 |   2048 |  131072 |   1,235,814,400 |
// | Llama 3.2 3B   |     28 |    24 |  8 |      128 |   3072 |  131072 |   3,212,749,824 |
// | Mistral 7B     |     32 |    32 |  8 |      128 |   4096 |   32768 |   7,241,732,096 |
// | Qwen2.5 0.5B   |     24 |    14 |  2 |       64 |    896 |   32768 |     494,032,768 |
// | Qwen2.5 7B     |     28 |    28 |  4 |      128 |   3584 |  131072 |   7,615,616,512 |
// | SmolLM2 135M   |     30 |     9 |  3 |       64 |    576 |    8192 |     134,515,008 |
// | SmolLM2 360M   |     32 |    15 |  5 |       64 |    960 |    8192 |     361,821,120 |
// | SmolLM2 1.7B   |     24 |    32 | 32 |       64 |   2048 |    8192 |   1,711,376,384 |
// | TinyLlama 1.1B |     22 |    32 |  4 |       64 |   2048 |    2048 |   1,100,048,384 |
// | Qwen3 0.6B     |     28 |    16 |  8 |      128 |   1024 |   40960 |     596,049,920 |
// | Gemma 3 270M   |     18 |     4 |  1 |      256 |    640 |   32768 |     268,098,176 |
// | Gemma 3 1B     |     26 |     4 |  1 |      256 |   1152 |   32768 |     999,885,952 |
// | Gemma 3 4B     |     34 |     8 |  4 |      256 |   2560 |  131072 |   3,880,099,328 |
//
// Gemma 3 attends through a sliding window (sliding_window: 512 tokens for 270M and 1B, 1024
// for 4B) on five layers of every six (sliding_window_pattern 6: layer il is local unless
// il % 6 == 5), so 15 of 18, 22 of 26 and 29 of 34 layers are local. The 4B count is its
// language model alone (the released total adds a vision encoder). Qwen3 and Gemma 3 carry
// QK-norm weights (2 x head_dim a layer) and Gemma 3 four RMSNorms a layer, counted above.
//
// Mistral 7B (v0.1) attends through a 4096-token sliding window; its cache at full context is
// shown as if every position were kept, as the formula does.
constexpr std::array<Preset, 19> kPresets{{
    {"llama-2-7b", "Llama 2 7B", {32, 32, 32, 128}, 4096, 4096, 6'738'415'616ull},
    {"llama-2-13b", "Llama 2 13B", {40, 40, 40, 128}, 5120, 4096, 13'015'864'320ull},
    {"llama-2-70b", "Llama 2 70B", {80, 64, 8, 128}, 8192, 4096, 68'976'648'192ull},
    {"llama-3.1-8b", "Llama 3.1 8B", {32, 32, 8, 128}, 4096, 131072, 8'030'261'248ull},
    {"llama-3.1-70b", "Llama 3.1 70B", {80, 64, 8, 128}, 8192, 131072, 70'553'706'496ull},
    {"llama-3.1-405b", "Llama 3.1 405B", {126, 128, 8, 128}, 16384, 131072, 405'853'388'800ull},
    {"llama-3.2-1b", "Llama 3.2 1B", {16, 32, 8, 64}, 2048, 131072, 1'235'814'400ull},
    {"llama-3.2-3b", "Llama 3.2 3B", {28, 24, 8, 128}, 3072, 131072, 3'212'749'824ull},
    {"mistral-7b", "Mistral 7B", {32, 32, 8, 128}, 4096, 32768, 7'241'732'096ull},
    {"qwen2.5-0.5b", "Qwen2.5 0.5B", {24, 14, 2, 64}, 896, 32768, 494'032'768ull},
    {"qwen2.5-7b", "Qwen2.5 7B", {28, 28, 4, 128}, 3584, 131072, 7'615'616'512ull},
    {"smollm2-135m", "SmolLM2 135M", {30, 9, 3, 64}, 576, 8192, 134'515'008ull},
    {"smollm2-360m", "SmolLM2 360M", {32, 15, 5, 64}, 960, 8192, 361'821'120ull},
    {"smollm2-1.7b", "SmolLM2 1.7B", {24, 32, 32, 64}, 2048, 8192, 1'711'376'384ull},
    {"tinyllama-1.1b", "TinyLlama 1.1B", {22, 32, 4, 64}, 2048, 2048, 1'100'048'384ull},
    {"qwen3-0.6b", "Qwen3 0.6B", {28, 16, 8, 128}, 1024, 40960, 596'049'920ull},
    {"gemma-3-270m", "Gemma 3 270M", {18, 4, 1, 256, 15, 512}, 640, 32768, 268'098'176ull},
    {"gemma-3-1b", "Gemma 3 1B", {26, 4, 1, 256, 22, 512}, 1152, 32768, 999'885'952ull},
    {"gemma-3-4b", "Gemma 3 4B", {34, 8, 4, 256, 29, 1024}, 2560, 131072, 3'880'099'328ull},
}};

bool iequal(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
               return std::tolower(x) == std::tolower(y);
           });
}

}  // namespace

std::span<const Preset> presets() { return kPresets; }

const Preset* find_preset(std::string_view name) {
    for (const Preset& p : kPresets)
        if (iequal(p.name, name)) return &p;
    return nullptr;
}

}  // namespace lmscope::kv
