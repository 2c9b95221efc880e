// Inconsistent and corrupted files for the hostile-file suites (core API, CLI, GUI), built in
// memory from the shared fixtures so no binary file lives in the tree:
//   - GGUF models whose metadata, tensor shapes or vocabulary disagree: edits of
//     models/fx-gqa-Q8_0.gguf (llama, 3 layers, 8 heads, 2 KV heads, 256 wide, 1024 tokens);
//   - byte-level BPE vocabularies: edits of vocab/ggml-vocab-gpt-2.gguf;
//   - SentencePiece .model files: tokenizer/fx-spm-1024.model cut, emptied or re-encoded;
//   - trace files: a saved trace with each count, length, offset, dtype or shape corrupted.
// Each case names the part of the file it breaks and the substrings the error must contain
// (the field and the reason); the file name is checked by the suites themselves.
#pragma once

#include "gguf/gguf.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lmscope::testing::hostile {

using Bytes = std::vector<uint8_t>;

// An editable copy of a GGUF file (metadata and tensors), written back with gguf::Writer.
class GgufEdit {
public:
    explicit GgufEdit(const gguf::File& file);

    const gguf::Value* find(const std::string& key) const;
    GgufEdit& set(const std::string& key, gguf::Value value);  // replaces or appends
    GgufEdit& erase(const std::string& key);
    // Keeps the first `n` items of the array `key`.
    GgufEdit& truncate_array(const std::string& key, size_t n);
    // Replaces item `index` of the array `key` (same element type).
    GgufEdit& set_item(const std::string& key, size_t index, gguf::Value::Scalar item);
    // Replaces tensor `name` by zeros of shape `ne` and the same type.
    GgufEdit& reshape(const std::string& name, std::vector<int64_t> ne);
    GgufEdit& erase_tensor(const std::string& name);
    // Appends a copy of tensor `from` named `name`.
    GgufEdit& copy_tensor(const std::string& from, const std::string& name);
    // Renames every key that starts with `from` to start with `to` instead.
    GgufEdit& rename_keys(const std::string& from, const std::string& to);
    // Replaces the tensors `parts` (one type and row length) by one tensor `name` holding their
    // rows in that order (a fused matrix).
    GgufEdit& fuse_tensors(const std::vector<std::string>& parts, const std::string& name);
    // Overwrites the data of tensor `name` with `pattern`, repeated (same type and shape).
    GgufEdit& fill_tensor(const std::string& name, const Bytes& pattern);
    // Replaces the type and data of tensor `name` (same shape; data: row_bytes(type, ...) of it).
    GgufEdit& retype_tensor(const std::string& name, gguf::TensorType type, Bytes data);
    Bytes bytes() const;

private:
    struct Tensor {
        std::string name;
        gguf::TensorType type;
        std::vector<int64_t> ne;
        Bytes data;
    };
    Tensor& tensor(const std::string& name);
    std::vector<std::pair<std::string, gguf::Value>> kv_;
    std::vector<Tensor> tensors_;
    uint32_t alignment_ = 32;
};

// What a case breaks, and so which loaders must refuse it.
enum class Part {
    Metadata,  // the hyperparameters: info, dump, run and the GUI's engine refuse it
    Tensors,   // a tensor's presence or shape: the same
    Vocab,     // the vocabulary: info, tokenize, dump, run and the GUI refuse it
};
const char* part_name(Part p);

struct GgufCase {
    std::string name;
    Part part;
    std::function<void(GgufEdit&)> edit;
    std::string field;   // must appear in the error
    std::string reason;  // must appear in the error
};

// Edits of models/fx-gqa-Q8_0.gguf: metadata, shapes and its SentencePiece vocabulary.
const std::vector<GgufCase>& model_cases();
// Edits of vocab/ggml-vocab-gpt-2.gguf (a vocabulary-only file: tokenize and the core only).
const std::vector<GgufCase>& bpe_vocab_cases();

struct BytesCase {
    std::string name;
    std::function<Bytes(const Bytes&)> make;  // from the valid file's bytes
    std::string field;
    std::string reason;
};

// Variants of tokenizer/fx-spm-1024.model.
const std::vector<BytesCase>& spm_model_cases();
// Corruptions of a saved trace of fx-gqa (a prefill of several tokens, then decode steps,
// full capture: every step has planes, attention, entropy, max_weight and argmax_key).
const std::vector<BytesCase>& trace_cases();

// The relative paths (under ../shared/testdata) of the bases.
inline constexpr const char* kModelBase = "models/fx-gqa-Q8_0.gguf";
inline constexpr const char* kBpeBase = "vocab/ggml-vocab-gpt-2.gguf";
inline constexpr const char* kSpmBase = "tokenizer/fx-spm-1024.model";

// The saved trace of a short greedy run on `model_path` with full capture (a prefill of "The
// quick brown fox jumps", then three decode steps): the base trace_cases() corrupts.
Bytes real_trace(const std::string& model_path);

// Writes bytes to `path` (throws IoError).
void write_file(const std::string& path, const Bytes& bytes);

}  // namespace lmscope::testing::hostile
