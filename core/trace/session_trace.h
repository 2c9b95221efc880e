// A whole session's trace: who computed it (model, tokenizer, sampling settings) and every
// step, branches included, under a memory budget.
//
// Budget: when the bytes held exceed the budget, the oldest steps that still hold attention
// planes drop them (their summaries, logits and KV figures stay), oldest first, until the
// trace fits again or no planes are left. Each such step is flagged (planes_dropped) and
// dropped_steps() counts them for the UI.
#pragma once

#include "trace/step_trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lmscope::trace {

struct ModelIdentity {
    std::string file;           // file name (no folders)
    std::string header_sha256;  // of the GGUF bytes before the tensor data
    nlohmann::json spec = nlohmann::json::object();  // the engine's model summary
    bool operator==(const ModelIdentity&) const = default;
};

class SessionTrace {
public:
    static constexpr uint64_t kDefaultBudget = uint64_t(512) << 20;  // 512 MiB

    ModelIdentity model;
    nlohmann::json tokenizer = nlohmann::json::object();  // name, vocabulary size, ...
    nlohmann::json sampling = nlohmann::json::object();   // the sampler settings
    nlohmann::json capture = nlohmann::json::object();    // the capture policy in force
    // The text of the tokens the steps name (fed, chosen, candidates, lens), so a trace reads
    // without its model. Bounded by the vocabulary; not counted in held_bytes().
    std::map<int32_t, std::string> pieces;
    std::string piece(int32_t id) const;  // empty when unknown

    explicit SessionTrace(uint64_t budget_bytes = kDefaultBudget) : budget_(budget_bytes) {}

    // Appends a step: sets its index, checks its parent, enforces the budget. Returns it.
    const StepTrace& add(StepTrace step);
    const std::vector<StepTrace>& steps() const { return steps_; }
    const StepTrace& step(int32_t index) const { return steps_.at(size_t(index)); }
    size_t size() const { return steps_.size(); }
    // Replaces a step's record of its pick (the sampler ran again on its logits under new
    // settings); the budget is enforced again. Returns the step. Throws UsageError for a step
    // that another step already continued from (its record is the token that step fed).
    const StepTrace& repick(int32_t index, LogitsTrace logits, double sample_ms);

    // The steps from the first one down to `index`, following parents.
    std::vector<int32_t> path_to(int32_t index) const;
    bool has_children(int32_t index) const;

    uint64_t budget() const { return budget_; }
    void set_budget(uint64_t bytes);  // enforces at once
    uint64_t held_bytes() const { return held_; }  // sum of the steps' held_bytes()
    int32_t dropped_steps() const { return dropped_; }
    bool over_budget() const { return held_ > budget_; }  // even after dropping every plane

    // For the loader: restores a step as saved (index and parent checked, budget not applied)
    // and the count of dropped steps recorded in the file.
    void restore(StepTrace step);

    bool operator==(const SessionTrace& o) const;

private:
    void check_new(const StepTrace& step) const;
    void enforce_budget();

    std::vector<StepTrace> steps_;
    uint64_t budget_;
    uint64_t held_ = 0;
    int32_t dropped_ = 0;
    size_t next_drop_ = 0;  // steps before this index hold no planes
};

}  // namespace lmscope::trace
