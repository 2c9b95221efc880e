// A loaded model: the memory-mapped GGUF file, its validated spec and the weight views into
// the mapping. Immutable once loaded; backends share it (std::shared_ptr<const Model>).
#pragma once

#include "gguf/gguf.h"
#include "model/spec.h"
#include "model/weights.h"

#include <memory>
#include <string>

namespace lmscope::engine {

class Model {
public:
    // Opens, validates and binds every tensor. Throws IoError, FormatError (metadata or a
    // tensor shape: names the tensor, expected and actual shape) or UnsupportedError
    // (architecture or tensor type, named).
    static std::shared_ptr<const Model> load(const std::string& path);
    static std::shared_ptr<const Model> from_file(gguf::File file);

    const gguf::File& file() const { return file_; }
    const model::ModelSpec& spec() const { return spec_; }
    const model::Weights& weights() const { return weights_; }

    Model(gguf::File file, model::ModelSpec spec, model::Weights weights)
        : file_(std::move(file)), spec_(std::move(spec)), weights_(std::move(weights)) {}

private:
    gguf::File file_;
    model::ModelSpec spec_;
    model::Weights weights_;  // points into file_'s mapping
};

}  // namespace lmscope::engine
