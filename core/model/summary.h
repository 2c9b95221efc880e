// What `lmscope-cli info` prints and the GUI shows about a GGUF file: the hyperparameters
// (read tolerantly, so a valid GGUF of an unsupported architecture still gets a summary),
// the tensors, and the sizes that follow from them.
#pragma once

#include "gguf/gguf.h"
#include "model/hparams.h"
#include "model/spec.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lmscope::model {

struct TensorSummary {
    std::string name;
    std::string type;    // "Q4_1"
    std::string shape;   // "[576, 49152]"
    std::vector<int64_t> dims;
    uint64_t bytes = 0;
};

struct TypeTotal {
    std::string type;
    uint64_t tensors = 0;
    uint64_t bytes = 0;
};

struct ModelSummary {
    std::string file;                  // the path as given
    uint64_t file_size = 0;
    uint32_t gguf_version = 0;
    uint64_t n_metadata = 0;
    uint64_t n_tensors = 0;
    HParams hparams;
    bool supported = false;            // lmscope can run this architecture
    // The recipe lmscope would run (spec.h), when the spec can be built; empty otherwise.
    std::vector<RecipeFeature> recipe;
    std::string recipe_text;           // recipe_text(spec): "QK-norm, NeoX RoPE (base 1e+06), SwiGLU"
    std::vector<LayerPlan> layer_plan; // [n_layer]
    std::vector<double> rope_bases;    // [table] RoPE base of each table the plan names
    std::vector<std::string> problems; // metadata problems found ("FILE: KEY: REASON")
    std::vector<TensorSummary> tensors;
    std::vector<TypeTotal> by_type;    // in order of first appearance
    uint64_t total_bytes = 0;          // sum of the tensors' bytes
    // The checks a run makes before its first step (engine::prepare_model), when the caller
    // ran them: their names in order, and the first failure's message (empty: all passed).
    struct Checks {
        std::vector<std::string> ran;
        std::string failure;
    };
    std::optional<Checks> checks;

    static ModelSummary of(const gguf::File& file);

    // Keys: architecture, name, n_layer, n_embd, n_head, n_head_kv, head_dim, n_ff, n_vocab,
    // context_length, rope_freq_base, rope_dimension_count, rope_scaling, rms_eps,
    // tokenizer_model, tokenizer_pre, file_type {id, name}, tensors [{name, type, shape, bytes}],
    // total_bytes, kv_bytes_per_token_f16, gguf_version, n_metadata, n_tensors, file,
    // file_size, supported, problems, recipe (text or null), layer_plan [{rope, rope_base,
    // window}], checks ({ran [names], passed, failure (text or null)}, or null when not run).
    // Counts that could not be read are null.
    nlohmann::json to_json() const;
    // A readable summary; with_tensors adds the tensor table.
    std::string to_text(bool with_tensors = true) const;
};

// "1.5 MiB", "576 B".
std::string format_bytes(uint64_t n);

}  // namespace lmscope::model
