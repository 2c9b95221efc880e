// A model ready for a session: the loaded model and its tokenizer, after every check a session
// makes before its first step. run, dump, bench, the GUI's open and info all come through
// prepare_model(), so `info` never passes a file that `run` rejects.
#pragma once

#include "engine/model.h"
#include "gguf/gguf.h"
#include "tokenizer/tokenizer.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace lmscope::engine {

struct PreparedModel {
    std::shared_ptr<const Model> model;
    std::unique_ptr<tok::Tokenizer> tokenizer;  // its vocabulary matches the model's output rows
};

// The checks prepare_model() makes, in the order it makes them (info lists them):
// the spec (architecture, hyperparameters, chat template), every tensor (type and shape), the
// vocabulary, and that the vocabulary is as long as the output has rows.
std::span<const std::string_view> preparation_checks();

// Throws the first failure, its message naming the file, the phase and the reason
// ("M.gguf: loading the tokenizer: ..."; out of memory and thread failures are named too).
PreparedModel prepare_model(gguf::File file);
PreparedModel prepare_model(const std::string& path);

// The vocabulary and the output must agree on the number of tokens (a session's first check).
void check_vocabulary_matches(const Model& model, const tok::Tokenizer& tokenizer);

}  // namespace lmscope::engine
