// Internal to core/trace: the JSON half of a trace file (everything but the arrays), and
// checked field access that turns every problem into FormatError(file, field path, reason).
#pragma once

#include "trace/session_trace.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace lmscope::trace::detail {

// Checked reads from an untrusted JSON document. `path` is the field's JSON path for errors.
class JsonReader {
public:
    explicit JsonReader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& reason) const;
    const nlohmann::json& member(const nlohmann::json& obj, const std::string& path,
                                 const char* key) const;  // obj must be an object
    const nlohmann::json& object(const nlohmann::json& obj, const std::string& path, const char* key) const;
    const nlohmann::json& array(const nlohmann::json& obj, const std::string& path, const char* key) const;
    int64_t integer(const nlohmann::json& v, const std::string& path, int64_t lo, int64_t hi) const;
    int64_t integer(const nlohmann::json& obj, const std::string& path, const char* key,
                    int64_t lo, int64_t hi) const;
    uint64_t unsigned_integer(const nlohmann::json& obj, const std::string& path, const char* key) const;
    double number(const nlohmann::json& v, const std::string& path) const;
    double number(const nlohmann::json& obj, const std::string& path, const char* key) const;
    // A number stored as float32 (logits, probabilities, entropies): finite as a float32 too.
    float number_f32(const nlohmann::json& v, const std::string& path) const;
    float number_f32(const nlohmann::json& obj, const std::string& path, const char* key) const;
    bool boolean(const nlohmann::json& obj, const std::string& path, const char* key) const;
    const std::string& string(const nlohmann::json& obj, const std::string& path, const char* key) const;

private:
    std::string file_;
};

// True when `s` is well-formed UTF-8 (JSON strings must be; token pieces may not be).
bool valid_utf8(std::string_view s);

// The session-level fields and each step's scalar fields (no planes or summaries).
nlohmann::json session_to_json(const SessionTrace& trace);
nlohmann::json step_to_json(const StepTrace& step);
// Reads one step's JSON; the attention planes and summaries are left empty for the caller to
// fill from the tensors (their counts are in the returned step's attention fields).
struct StepHeader {
    StepTrace step;
    int64_t n_planes = 0;
    bool has_summaries = false;
};
StepHeader step_from_json(const JsonReader& r, const nlohmann::json& j, const std::string& path,
                          int32_t index);

}  // namespace lmscope::trace::detail
