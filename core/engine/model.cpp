#include "engine/model.h"

namespace lmscope::engine {

std::shared_ptr<const Model> Model::load(const std::string& path) {
    return from_file(gguf::File::open(path));
}

std::shared_ptr<const Model> Model::from_file(gguf::File file) {
    model::ModelSpec spec = model::ModelSpec::from_file(file);
    // Bind after the File has its final home: the views point at its tensor table.
    auto m = std::make_shared<Model>(std::move(file), std::move(spec), model::Weights{});
    m->weights_ = model::Weights::bind(m->file_, m->spec_);
    return m;
}

}  // namespace lmscope::engine
