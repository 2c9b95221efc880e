#include "engine/prepared_model.h"

#include "util/error.h"
#include "util/resource_errors.h"

#include <array>

namespace lmscope::engine {

std::span<const std::string_view> preparation_checks() {
    static constexpr std::array<std::string_view, 4> kChecks = {
        "spec", "tensors", "vocabulary", "vocabulary size = output rows"};
    return kChecks;
}

void check_vocabulary_matches(const Model& model, const tok::Tokenizer& tokenizer) {
    const int32_t n_vocab = model.spec().n_vocab();
    if (tokenizer.vocab_size() != n_vocab)
        throw FormatError(model.file().path(), "tokenizer.ggml.tokens",
                          "the vocabulary has " + std::to_string(tokenizer.vocab_size()) +
                              " tokens but the output has " + std::to_string(n_vocab) + " rows");
}

PreparedModel prepare_model(gguf::File file) {
    const std::string path = file.path();
    PreparedModel p;
    p.model = with_context(path + ": loading the model", [&] { return Model::from_file(std::move(file)); });
    p.tokenizer = with_context(path + ": loading the tokenizer", [&] { return tok::load_tokenizer(p.model->file()); });
    check_vocabulary_matches(*p.model, *p.tokenizer);
    return p;
}

PreparedModel prepare_model(const std::string& path) {
    return prepare_model(with_context(path + ": opening the model", [&] { return gguf::File::open(path); }));
}

}  // namespace lmscope::engine
