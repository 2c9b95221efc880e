#include "engine/backend_factory.h"

#include "engine/cpu_backend.h"
#include "util/error.h"

#include <map>

namespace lmscope::engine {

namespace {

std::map<std::string, BackendFactory, std::less<>>& registry() {
    static std::map<std::string, BackendFactory, std::less<>> r{{"cpu", make_cpu_backend}};
    return r;
}

}  // namespace

void register_backend(std::string name, BackendFactory factory) {
    registry()[std::move(name)] = std::move(factory);
}

std::vector<std::string> backend_names() {
    std::vector<std::string> names{"cpu"};
    for (const auto& [name, f] : registry())
        if (name != "cpu") names.push_back(name);
    return names;
}

std::unique_ptr<Backend> make_backend(std::string_view name, std::shared_ptr<const Model> model,
                                      const BackendOptions& options) {
    if (name != "cpu" && options.kv_offload_bytes > 0)  // never run with a budget the backend would not keep
        throw UnsupportedError("KV offload: only the cpu backend has an offload tier so far, not " + std::string(name));
    auto it = registry().find(name);
    if (it != registry().end()) return it->second(std::move(model), options);
    if (name == "cuda") throw UnsupportedError("cuda backend not available in this build / no device");
    std::string known;
    for (const std::string& n : backend_names()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("unknown backend '" + std::string(name) + "' (known: " + known + ", cuda)");
}

}  // namespace lmscope::engine
