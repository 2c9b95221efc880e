// Hyperparameters of a model, read from GGUF metadata ({arch}.block_count, ...) and checked
// for consistency. Two ways in:
//   HParams::from_file(file)     strict: the architecture must be one lmscope runs (recipe.h)
//                                and every required key present and consistent; throws otherwise.
//   HParams::describe(file, &p)  tolerant (for `info` and the GUI): reads whatever is there for
//                                any architecture; each problem found goes into p instead.
#pragma once

#include "gguf/gguf.h"
#include "util/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lmscope::model {

// Architectures lmscope can run (a row of recipe.h's table).
bool is_supported_architecture(std::string_view arch);

struct RopeScaling {
    std::string type;                          // {arch}.rope.scaling.type: "linear", "yarn", ...
    double factor = 1.0;                       // {arch}.rope.scaling.factor
    uint64_t original_context_length = 0;      // {arch}.rope.scaling.original_context_length (0: absent)
};

struct HParams {
    std::string architecture;       // general.architecture
    std::string name;               // general.name (may be empty)
    uint32_t n_layer = 0;           // {arch}.block_count
    uint32_t n_embd = 0;            // {arch}.embedding_length
    uint32_t n_head = 0;            // {arch}.attention.head_count
    uint32_t n_head_kv = 0;         // {arch}.attention.head_count_kv (default n_head)
    uint32_t head_dim = 0;          // {arch}.attention.key_length, or n_embd / n_head
    uint32_t n_ff = 0;              // {arch}.feed_forward_length
    uint32_t n_vocab = 0;           // tokenizer.ggml.tokens length, or token_embd.weight rows
    uint64_t context_length = 0;    // {arch}.context_length
    double rope_freq_base = 10000;  // {arch}.rope.freq_base
    uint32_t n_rot = 0;             // {arch}.rope.dimension_count (default head_dim)
    std::optional<RopeScaling> rope_scaling;
    double rms_eps = 0;             // {arch}.attention.layer_norm_rms_epsilon
    uint32_t sliding_window = 0;    // {arch}.attention.sliding_window (0: absent)
    std::optional<uint32_t> sliding_window_pattern;  // {arch}.attention.sliding_window_pattern
    std::optional<double> rope_freq_base_swa;        // {arch}.rope.freq_base_swa (local layers)
    double final_logit_softcap = 0; // {arch}.final_logit_softcapping (0: none)
    double attn_logit_softcap = 0;  // {arch}.attn_logit_softcapping (0: none)
    std::string tokenizer_model;    // tokenizer.ggml.model ("llama", "gpt2"; may be empty)
    std::string tokenizer_pre;      // tokenizer.ggml.pre (may be empty)
    std::optional<uint32_t> file_type;  // general.file_type (llama.cpp's ftype id)

    // K and V, every layer, f16: kv::bytes_per_token, 2 * n_layer * n_head_kv * head_dim * 2
    // bytes; 0 when a dimension is 0.
    uint64_t kv_bytes_per_token_f16() const;

    // Strict. Throws UnsupportedError for another architecture, FormatError(file, key, reason)
    // for a missing, mistyped or inconsistent key.
    static HParams from_file(const gguf::File& file);
    // Tolerant: never throws for metadata problems; each goes into *problems (in the order
    // found; an unsupported architecture is not a problem here, see is_supported_architecture).
    static HParams describe(const gguf::File& file, std::vector<FormatError>* problems);
};

// RoPE frequencies of one base, as a run uses them (float32): base^(-2i/n_rot), divided by the
// linear scaling factor and by the per-pair factors (rope_freqs.weight; empty: none);
// [n_rot / 2]. The angle of pair i at position p is p * inv_freq[i] in float32.
std::vector<float> rope_inv_freq(double base, int32_t n_rot, double linear, const std::vector<float>& factors);
// The first pair whose angle at the last position of a context of `context_length` is not
// finite (every logit would be NaN), or -1.
int32_t first_infinite_angle(const std::vector<float>& inv_freq, uint64_t context_length);
// Why: "makes the rotation angle of dimension pair I at position P infinite ...".
std::string infinite_angle_reason(int32_t pair, uint64_t context_length);

// llama.cpp's file type names ("Q4_K_M" for 15); "unknown" for ids it does not define.
std::string_view file_type_name(uint32_t id);

}  // namespace lmscope::model
