// Where a backend's forward passes spend their time: seconds per part ("attention",
// "matmul Q4_K", "output head", ...) summed over the steps since the record was cleared, and
// the steps' whole time (the rest is norms, RoPE, the cache writes, activations, hooks).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lmscope::engine {

struct PartTimes {
    std::vector<std::pair<std::string, double>> parts;  // [part] (name, seconds), first seen first
    double total_s = 0.0;                               // the forward passes, whole
    int64_t steps = 0;

    void add(std::string_view part, double seconds) {
        for (auto& [name, s] : parts)
            if (name == part) {
                s += seconds;
                return;
            }
        parts.emplace_back(std::string(part), seconds);
    }
    void clear() { *this = PartTimes{}; }
};

}  // namespace lmscope::engine
