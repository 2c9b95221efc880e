#include "trace/session_trace.h"

#include "util/error.h"

#include <algorithm>

namespace lmscope::trace {

void SessionTrace::check_new(const StepTrace& step) const {
    const int32_t next = int32_t(steps_.size());
    if (step.parent < -1 || step.parent >= next)
        throw Error("trace step " + std::to_string(next) + ": parent " + std::to_string(step.parent) +
                    " is not an earlier step");
}

const StepTrace& SessionTrace::add(StepTrace step) {
    check_new(step);
    step.index = int32_t(steps_.size());
    held_ += step.held_bytes();
    if (step.attention.planes_dropped) ++dropped_;
    steps_.push_back(std::move(step));
    enforce_budget();
    return steps_.back();
}

const StepTrace& SessionTrace::repick(int32_t index, LogitsTrace logits, double sample_ms) {
    StepTrace& s = steps_.at(size_t(index));
    if (has_children(index))
        throw UsageError("step " + std::to_string(index) + " was already continued: its pick stays what the next step fed");
    held_ -= s.held_bytes();
    s.logits = std::move(logits);
    s.sample_ms = sample_ms;
    held_ += s.held_bytes();
    enforce_budget();
    return s;
}

void SessionTrace::restore(StepTrace step) {
    if (step.index != int32_t(steps_.size()))
        throw Error("trace step " + std::to_string(step.index) + " is out of order");
    check_new(step);
    held_ += step.held_bytes();
    if (step.attention.planes_dropped) ++dropped_;
    steps_.push_back(std::move(step));
}

void SessionTrace::set_budget(uint64_t bytes) {
    budget_ = bytes;
    enforce_budget();
}

void SessionTrace::enforce_budget() {
    while (held_ > budget_ && next_drop_ < steps_.size()) {
        StepTrace& s = steps_[next_drop_++];
        if (s.attention.planes.empty() && s.attention.weights.empty()) continue;
        const uint64_t before = s.held_bytes();
        const bool was_dropped = s.attention.planes_dropped;
        s.drop_planes();
        held_ -= before - s.held_bytes();
        if (!was_dropped) ++dropped_;
    }
}

std::vector<int32_t> SessionTrace::path_to(int32_t index) const {
    std::vector<int32_t> path;
    for (int32_t i = step(index).index; i >= 0; i = steps_[size_t(i)].parent) path.push_back(i);
    std::reverse(path.begin(), path.end());
    return path;
}

bool SessionTrace::has_children(int32_t index) const {
    return std::any_of(steps_.begin(), steps_.end(),
                       [index](const StepTrace& s) { return s.parent == index; });
}

std::string SessionTrace::piece(int32_t id) const {
    const auto it = pieces.find(id);
    return it == pieces.end() ? std::string() : it->second;
}

bool SessionTrace::operator==(const SessionTrace& o) const {
    return model == o.model && tokenizer == o.tokenizer && sampling == o.sampling && pieces == o.pieces &&
           capture == o.capture && steps_ == o.steps_ && budget_ == o.budget_ &&
           dropped_ == o.dropped_;
}

}  // namespace lmscope::trace
