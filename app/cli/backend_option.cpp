#include "cli/backend_option.h"

#include "cli/options.h"
#include "engine/backend_factory.h"
#include "util/error.h"
#include "util/message.h"

#include <iostream>

namespace lmscope::cli {

void add_kv_offload_option(CLI::App* cmd, double& mib) {
    add_number(cmd, "--kv-offload", mib,
               "Keep at most MIB of the KV cache in memory (fractions allowed); the global layers' older positions "
               "go to a private temporary file and are streamed back each step (default: off)")
        ->check(CLI::Range(0.0, 1048576.0));
}

std::unique_ptr<engine::Backend> start_backend(const std::string& name, std::shared_ptr<const engine::Model> model,
                                               const engine::BackendOptions& options) {
    const std::string option = "--backend " + name + ": ";
    try {
        std::unique_ptr<engine::Backend> backend = engine::make_backend(name, std::move(model), options);
        if (const std::string notice = backend->notice(); !notice.empty())
            std::cerr << "lmscope-cli: notice: " << sanitize_message(notice) << "\n";
        return backend;
    } catch (const UsageError& e) {
        throw UsageError(option + e.what());
    } catch (const Error& e) {
        throw Error(option + e.what());
    }
}

}  // namespace lmscope::cli
