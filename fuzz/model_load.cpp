// Fuzzes model loading from a GGUF: hparams, the derived spec and the weight bindings with
// their shape checks (engine::Model::from_file on gguf::File::from_memory), the tokenizer of
// the same file, and, for a model that loads, one forward step of two tokens on the CPU
// backend: the shape checks must leave nothing the forward pass could read out of bounds.
#include "fuzz_common.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "gguf/gguf.h"
#include "model/hparams.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <memory>
#include <vector>

namespace {

// A small model only: the fuzzer's inputs are small, but a spec may still declare a long
// context or a wide vocabulary backed by few bytes (a zero-sized dimension, say).
constexpr int64_t kMaxForwardVocab = 1 << 16;

void forward_two_tokens(const std::shared_ptr<const lmscope::engine::Model>& model) {
    const int32_t n_vocab = model->spec().n_vocab();
    if (n_vocab <= 0 || n_vocab > kMaxForwardVocab) return;
    lmscope::engine::BackendOptions options;
    options.n_threads = 1;
    options.n_ctx = 4;
    std::unique_ptr<lmscope::engine::Backend> backend =
        lmscope::engine::make_backend("cpu", model, options);
    const std::vector<int32_t> tokens{0, n_vocab - 1};  // [2]
    std::vector<float> logits(static_cast<size_t>(n_vocab));  // [n_vocab] after the last token
    lmscope::trace::CapturePolicy policy;
    policy.mode = lmscope::trace::CaptureMode::Full;
    policy.logit_lens = true;
    lmscope::trace::StepCapture capture;
    backend->forward({.tokens = tokens, .policy = policy, .capture = &capture, .logits = logits});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using lmscope::gguf::File;
    try {
        std::vector<lmscope::FormatError> problems;
        (void)lmscope::model::HParams::describe(File::from_memory(data, size, "fuzz.gguf"), &problems);
    } catch (const lmscope::Error&) {
    }
    try {
        std::unique_ptr<lmscope::tok::Tokenizer> tokenizer =
            lmscope::tok::load_tokenizer(File::from_memory(data, size, "fuzz.gguf"));
        (void)tokenizer->describe();
    } catch (const lmscope::Error&) {
    }
    try {
        const std::shared_ptr<const lmscope::engine::Model> model =
            lmscope::engine::Model::from_file(File::from_memory(data, size, "fuzz.gguf"));
        forward_two_tokens(model);
    } catch (const lmscope::Error&) {
    }
    return 0;
}
