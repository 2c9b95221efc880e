#include "engine/backend_factory.h"

#include "engine/cpu_backend.h"
#include "util/error.h"

#include <map>

namespace lmscope::engine {

namespace {

struct Registered {
    BackendFactory make;
    bool offload_tier = false;  // keeps BackendOptions::kv_offload_bytes
};

std::map<std::string, Registered, std::less<>>& registry() {
    static std::map<std::string, Registered, std::less<>> r{{"cpu", {make_cpu_backend, true}}};
    return r;
}

}  // namespace

void register_backend(std::string name, BackendFactory factory, bool offload_tier) {
    registry()[std::move(name)] = {std::move(factory), offload_tier};
}

std::vector<std::string> backend_names() {
    std::vector<std::string> names{"cpu"};
    for (const auto& [name, f] : registry())
        if (name != "cpu") names.push_back(name);
    return names;
}

std::unique_ptr<Backend> make_backend(std::string_view name, std::shared_ptr<const Model> model,
                                      const BackendOptions& options) {
    auto it = registry().find(name);
    if (it != registry().end()) {
        if (options.kv_offload_bytes > 0 && !it->second.offload_tier)  // never run with a budget it would not keep
            throw UnsupportedError("KV offload: the " + std::string(name) + " backend has no offload tier");
        return it->second.make(std::move(model), options);
    }
    if (name == "cuda") throw UnsupportedError("cuda backend not available in this build / no device");
    std::string known;
    for (const std::string& n : backend_names()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("unknown backend '" + std::string(name) + "' (known: " + known + ", cuda)");
}

}  // namespace lmscope::engine
