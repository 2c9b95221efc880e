// The model summary behind `info` and the GUI's spec panel.
#include "model/summary.h"

#include "model/chat_template.h"
#include "util/error.h"
#include "util/message.h"

#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace lmscope::model {

namespace {

// A count that could not be read (0) becomes null.
nlohmann::json count_or_null(uint64_t v) { return v == 0 ? nlohmann::json(nullptr) : nlohmann::json(v); }

// A string taken from the file (or its path), as JSON needs it: well-formed UTF-8, each
// invalid byte replaced by U+FFFD (nlohmann's dump() throws on invalid UTF-8).
std::string utf8_text(const std::string& s) {
    const std::string quoted = nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return nlohmann::json::parse(quoted).get<std::string>();
}

// Text from the file (names, keys, the path) as a terminal should get it: one line, no
// control characters (escape sequences), bounded (util/message.h).
std::string shown(const std::string& s) { return sanitize_message(s); }

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }
std::string or_dash(uint64_t v) { return v == 0 ? "-" : std::to_string(v); }

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// A value stored as float32 in the file, as the shortest decimal that reads back as that
// float (1e-05 rather than 9.999999747378752e-06).
double shortest_f32(double v) {
    const float f = static_cast<float>(v);
    for (int digits = 6; digits <= 9; ++digits) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(f));
        const double back = std::strtod(buf, nullptr);
        if (static_cast<float>(back) == f) return back;
    }
    return v;
}

std::string plural(uint64_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string attention_kind(const HParams& hp) {
    if (hp.n_head == 0 || hp.n_head_kv == 0) return "";
    if (hp.n_head_kv == hp.n_head) return " (MHA)";
    if (hp.n_head_kv == 1) return " (MQA)";
    return " (GQA, " + std::to_string(hp.n_head / hp.n_head_kv) + " query heads per KV head)";
}

}  // namespace

std::string format_bytes(uint64_t n) {
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (n < 1024) return std::to_string(n) + " B";
    double v = static_cast<double>(n);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
    return buf;
}

ModelSummary ModelSummary::of(const gguf::File& file) {
    ModelSummary s;
    s.file = file.path();
    s.file_size = file.file_size();
    s.gguf_version = file.version();
    s.n_metadata = file.metadata().size();
    s.n_tensors = file.tensors().size();
    std::vector<FormatError> problems;
    s.hparams = HParams::describe(file, &problems);
    try {
        (void)chat_template_text(file);
    } catch (const FormatError& e) {
        problems.push_back(e);
    }
    for (const FormatError& e : problems) s.problems.push_back(e.what());
    s.supported = is_supported_architecture(s.hparams.architecture) && problems.empty();
    if (s.supported) {
        // Only to describe the recipe: the strict checks that info and a session run after the
        // summary report what fails (one error, named), so a failure here leaves it empty.
        try {
            const ModelSpec spec = ModelSpec::from_file(file);
            s.recipe = recipe_features(spec);
            s.recipe_text = model::recipe_text(spec);
            s.layer_plan = spec.layers;
            s.rope_bases = {spec.hp.rope_freq_base, spec.hp.rope_freq_base_swa.value_or(10000.0)};
        } catch (const Error&) {
        }
    }
    s.tensors.reserve(file.tensors().size());
    for (const gguf::TensorInfo& t : file.tensors()) {
        TensorSummary ts;
        ts.name = t.name;
        ts.type = std::string(gguf::type_name(t.type));
        ts.shape = t.shape_string();
        ts.dims.assign(t.ne.begin(), t.ne.begin() + t.n_dims);
        ts.bytes = t.n_bytes;
        s.total_bytes += t.n_bytes;  // cannot overflow: every tensor lies inside the file
        TypeTotal* total = nullptr;
        for (TypeTotal& tt : s.by_type)
            if (tt.type == ts.type) total = &tt;
        if (!total) total = &s.by_type.emplace_back(TypeTotal{ts.type, 0, 0});
        total->tensors += 1;
        total->bytes += t.n_bytes;
        s.tensors.push_back(std::move(ts));
    }
    return s;
}

nlohmann::json ModelSummary::to_json() const {
    const HParams& hp = hparams;
    nlohmann::json j;
    j["file"] = utf8_text(file);
    j["file_size"] = file_size;
    j["gguf_version"] = gguf_version;
    j["n_metadata"] = n_metadata;
    j["n_tensors"] = n_tensors;
    j["architecture"] = hp.architecture.empty() ? nlohmann::json(nullptr) : nlohmann::json(utf8_text(hp.architecture));
    j["supported"] = supported;
    j["name"] = utf8_text(hp.name);
    j["n_layer"] = count_or_null(hp.n_layer);
    j["n_embd"] = count_or_null(hp.n_embd);
    j["n_head"] = count_or_null(hp.n_head);
    j["n_head_kv"] = count_or_null(hp.n_head_kv);
    j["head_dim"] = count_or_null(hp.head_dim);
    j["n_ff"] = count_or_null(hp.n_ff);
    j["n_vocab"] = count_or_null(hp.n_vocab);
    j["context_length"] = count_or_null(hp.context_length);
    j["rope_freq_base"] = shortest_f32(hp.rope_freq_base);
    j["rope_dimension_count"] = count_or_null(hp.n_rot);
    if (hp.rope_scaling) {
        j["rope_scaling"] = {{"type", utf8_text(hp.rope_scaling->type)},
                             {"factor", hp.rope_scaling->factor},
                             {"original_context_length", count_or_null(hp.rope_scaling->original_context_length)}};
    } else {
        j["rope_scaling"] = nullptr;
    }
    j["rms_eps"] = hp.rms_eps == 0 ? nlohmann::json(nullptr) : nlohmann::json(shortest_f32(hp.rms_eps));
    j["tokenizer_model"] = utf8_text(hp.tokenizer_model);
    j["tokenizer_pre"] = utf8_text(hp.tokenizer_pre);
    if (hp.file_type)
        j["file_type"] = {{"id", *hp.file_type}, {"name", std::string(file_type_name(*hp.file_type))}};
    else
        j["file_type"] = nullptr;
    j["kv_bytes_per_token_f16"] = count_or_null(hp.kv_bytes_per_token_f16());
    j["total_bytes"] = total_bytes;
    nlohmann::json tj = nlohmann::json::array();
    for (const TensorSummary& t : tensors)
        tj.push_back({{"name", utf8_text(t.name)}, {"type", t.type}, {"shape", t.dims}, {"bytes", t.bytes}});
    j["tensors"] = std::move(tj);
    nlohmann::json pj = nlohmann::json::array();
    for (const std::string& p : problems) pj.push_back(utf8_text(p));
    j["problems"] = std::move(pj);
    j["recipe"] = recipe_text.empty() ? nlohmann::json(nullptr) : nlohmann::json(recipe_text);
    nlohmann::json lp = nlohmann::json::array();
    for (const LayerPlan& p : layer_plan)
        lp.push_back({{"rope", p.rope},
                      {"rope_base", p.rope ? nlohmann::json(shortest_f32(rope_bases[size_t(p.rope_table)])) : nlohmann::json(nullptr)},
                      {"window", p.window}});
    j["layer_plan"] = std::move(lp);
    if (checks)
        j["checks"] = {{"ran", checks->ran},
                       {"passed", checks->failure.empty()},
                       {"failure", checks->failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(utf8_text(checks->failure))}};
    else
        j["checks"] = nullptr;
    return j;
}

std::string ModelSummary::to_text(bool with_tensors) const {
    const HParams& hp = hparams;
    std::ostringstream o;
    auto row = [&o](const char* label, const std::string& value) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%-14s", label);
        o << buf << value << "\n";
    };
    row("file", shown(file) + " (" + format_bytes(file_size) + ", GGUF v" + std::to_string(gguf_version) + ", " +
                    std::to_string(n_metadata) + " metadata keys, " + std::to_string(n_tensors) + " tensors)");
    row("architecture", or_dash(shown(hp.architecture)) + (supported ? "" : "  (lmscope cannot run this model)"));
    row("name", or_dash(shown(hp.name)));
    row("layers", or_dash(hp.n_layer));
    row("embedding", or_dash(hp.n_embd));
    row("heads", or_dash(hp.n_head) + " query, " + or_dash(hp.n_head_kv) + " KV" + attention_kind(hp));
    row("head dim", or_dash(hp.head_dim));
    row("feed-forward", or_dash(hp.n_ff));
    row("vocabulary", or_dash(hp.n_vocab));
    row("tokenizer", or_dash(shown(hp.tokenizer_model)) + (hp.tokenizer_pre.empty() ? "" : ", pre " + shown(hp.tokenizer_pre)));
    row("context", or_dash(hp.context_length));
    std::string rope = "base " + number(hp.rope_freq_base) + ", " + or_dash(hp.n_rot) + " rotated dims";
    if (hp.rope_scaling) rope += ", scaling " + shown(hp.rope_scaling->type) + " x" + number(hp.rope_scaling->factor);
    row("RoPE", rope);
    row("RMS eps", hp.rms_eps == 0 ? "-" : number(hp.rms_eps));
    if (!recipe_text.empty()) row("recipe", recipe_text);
    row("file type", hp.file_type ? std::string(file_type_name(*hp.file_type)) + " (" +
                                        std::to_string(*hp.file_type) + ")"
                                  : "-");
    const uint64_t kv = hp.kv_bytes_per_token_f16();
    uint64_t kv_full = 0;
    std::string kv_text = "-";
    if (kv != 0) {
        kv_text = format_bytes(kv) + " per token (f16)";
        if (!__builtin_mul_overflow(kv, hp.context_length, &kv_full) && kv_full != 0)
            kv_text += ", " + format_bytes(kv_full) + " at the full context";
    }
    row("KV cache", kv_text);
    row("weights", format_bytes(total_bytes) + " in " + plural(tensors.size(), "tensor"));
    for (const TypeTotal& t : by_type)
        row("", t.type + ": " + plural(t.tensors, "tensor") + ", " + format_bytes(t.bytes));
    for (const std::string& p : problems) row("problem", shown(p));
    if (checks) {
        std::string ran;
        for (const std::string& c : checks->ran) ran += (ran.empty() ? "" : ", ") + c;
        row("checks", ran + (checks->failure.empty() ? ": passed, as a run makes them" : ": failed (the error follows)"));
    }
    if (with_tensors && !tensors.empty()) {
        o << "\n";
        size_t w = 4;
        std::vector<std::string> names;
        for (const TensorSummary& t : tensors) w = std::max(w, names.emplace_back(shown(t.name)).size());
        auto line = [&](const std::string& name, const std::string& type, const std::string& shape,
                        const std::string& bytes) {
            o << std::left << std::setw(int(w)) << name << "  " << std::setw(8) << type << " " << std::setw(22)
              << shape << " " << bytes << "\n";
        };
        line("name", "type", "shape", "bytes");
        for (size_t i = 0; i < tensors.size(); ++i)
            line(names[i], tensors[i].type, tensors[i].shape, std::to_string(tensors[i].bytes));
    }
    return o.str();
}

}  // namespace lmscope::model
