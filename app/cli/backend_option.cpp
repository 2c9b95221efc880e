#include "cli/backend_option.h"

#include "engine/backend_factory.h"
#include "util/error.h"

namespace lmscope::cli {

std::unique_ptr<engine::Backend> start_backend(const std::string& name, std::shared_ptr<const engine::Model> model,
                                               const engine::BackendOptions& options) {
    const std::string option = "--backend " + name + ": ";
    try {
        return engine::make_backend(name, std::move(model), options);
    } catch (const UsageError& e) {
        throw UsageError(option + e.what());
    } catch (const Error& e) {
        throw Error(option + e.what());
    }
}

}  // namespace lmscope::cli
