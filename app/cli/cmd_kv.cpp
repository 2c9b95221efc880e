// lmscope-cli kv (--preset NAME | --model MODEL.gguf | --layers L --kv-heads H --head-dim D)
//                [--heads Q] [--window W [--local-layers N]] [--ctx N] [--batch B]
//                [--kv-type f16|q8_0|q4_0] [--json]
// lmscope-cli kv --list-presets [--json]
//
// The KV cache size of a shape: bytes per token and in total, in bytes, GB (1e9) and GiB (2^30).
// Exactly one shape source; --ctx defaults to the preset's or the model's context length.
// Sliding-window layers (Gemma 3's local layers) hold min(ctx, W) positions, global ones ctx.
#include "cli/commands.h"
#include "cli/options.h"
#include "util/json_io.h"

#include "gguf/gguf.h"
#include "kv/kv_math.h"
#include "kv/presets.h"
#include "model/hparams.h"
#include "model/spec.h"
#include "util/error.h"
#include "util/message.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lmscope::cli {

namespace {

struct KvOptions {
    std::string preset;
    std::string model;
    std::optional<uint64_t> layers, heads, kv_heads, head_dim, ctx;
    std::optional<uint64_t> window, local_layers;  // explicit shape: sliding-window layers
    uint64_t batch = 1;
    KvType kv_type = KvType::F16;
    bool json = false;
    bool list = false;
};

// Where the shape came from, and what else the source knows.
struct Source {
    std::string kind;         // "preset", "model", "explicit"
    std::string name;         // preset name or model path
    std::string label;        // human name ("Llama 3.1 70B"), may be empty
    kv::Shape shape;
    uint64_t max_context = 0; // 0: unknown
    uint64_t n_params = 0;    // 0: unknown
    std::optional<uint64_t> file_weights_bytes;  // --model: the tensors as stored
};

std::string group_digits(uint64_t v) {
    const std::string digits = std::to_string(v);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// Two decimals from 1 up, four significant digits below (0.1003 GB).
std::string gb_string(double v) {
    if (v >= 1.0) return fixed(v, 2);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// "42.95 GB (40.00 GiB)", in the largest unit that keeps the number >= 1.
std::string human_bytes(uint64_t b) {
    static const char* dec[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    static const char* bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double d = double(b), i = double(b);
    int ud = 0, ub = 0;
    while (d >= 1000.0 && ud < 5) d /= 1000.0, ++ud;
    while (i >= 1024.0 && ub < 5) i /= 1024.0, ++ub;
    return fixed(d, ud == 0 ? 0 : 2) + " " + dec[ud] + " (" + fixed(i, ub == 0 ? 0 : 2) + " " + bin[ub] + ")";
}

Source resolve_source(const KvOptions& o) {
    const bool explicit_any = o.layers || o.kv_heads || o.head_dim || o.heads;
    std::vector<std::string> given;
    if (!o.preset.empty()) given.push_back("--preset");
    if (!o.model.empty()) given.push_back("--model");
    if (explicit_any) given.push_back("--layers/--kv-heads/--head-dim");
    if (given.size() != 1) {
        std::string msg = "kv: give exactly one shape source: --preset NAME, --model MODEL.gguf, or "
                          "--layers L --kv-heads H --head-dim D";
        if (given.size() > 1) {
            msg += " (got";
            for (size_t i = 0; i < given.size(); ++i) msg += (i ? " and " : " ") + given[i];
            msg += ")";
        }
        throw UsageError(msg);
    }
    Source src;
    if (!o.preset.empty()) {
        const kv::Preset* p = kv::find_preset(o.preset);
        if (!p) throw UsageError("kv: unknown preset '" + o.preset + "' (see kv --list-presets)");
        src = {"preset", std::string(p->name), std::string(p->label), p->shape, p->max_context,
               p->n_params, std::nullopt};
    } else if (!o.model.empty()) {
        const gguf::File file = gguf::File::open(o.model);
        std::vector<FormatError> problems;
        const model::HParams hp = model::HParams::describe(file, &problems);
        if (hp.n_layer == 0 || hp.n_head_kv == 0 || hp.head_dim == 0) {
            if (!problems.empty()) throw problems.front();
            throw FormatError(o.model, hp.architecture + ".block_count",
                              "no attention shape (layers, kv heads, head dimension)");
        }
        src.kind = "model";
        src.name = o.model;
        src.label = hp.name;
        src.shape = {hp.n_layer, hp.n_head, hp.n_head_kv, hp.head_dim};
        try {  // a model lmscope runs: its recipe knows the local layers and their window
            src.shape = model::ModelSpec::from_file(file).kv_shape();
        } catch (const Error&) {  // another architecture: the shape as the keys give it
        }
        src.max_context = hp.context_length;
        uint64_t params = 0, bytes = 0;
        for (const gguf::TensorInfo& t : file.tensors()) {
            params += uint64_t(t.n_elements());
            bytes += t.n_bytes;
        }
        src.n_params = params;
        src.file_weights_bytes = bytes;
    } else {
        std::vector<std::string> missing;
        if (!o.layers) missing.push_back("--layers");
        if (!o.kv_heads) missing.push_back("--kv-heads");
        if (!o.head_dim) missing.push_back("--head-dim");
        if (!missing.empty()) {
            std::string msg = "kv: an explicit shape needs --layers, --kv-heads and --head-dim (missing";
            for (const std::string& m : missing) msg += " " + m;
            throw UsageError(msg + ")");
        }
        src.kind = "explicit";
        src.shape = {*o.layers, o.heads.value_or(0), *o.kv_heads, *o.head_dim};
        if (o.local_layers && !o.window) throw UsageError("kv: --local-layers needs --window (their window in tokens)");
        if (o.window) {  // --window alone: every layer attends through it
            src.shape.window = *o.window;
            src.shape.n_local = o.local_layers.value_or(*o.layers);
        }
    }
    if (src.kind != "explicit" && (o.window || o.local_layers))
        throw UsageError("kv: --window and --local-layers describe an explicit shape (the " + src.kind +
                         " gives its own)");
    return src;
}

void list_presets(bool json) {
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const kv::Preset& p : kv::presets())
            out.push_back({{"name", p.name}, {"label", p.label}, {"n_layer", p.shape.n_layer},
                           {"n_head", p.shape.n_head}, {"n_head_kv", p.shape.n_head_kv},
                           {"head_dim", p.shape.head_dim}, {"n_layer_local", p.shape.n_local},
                           {"window", p.shape.n_local > 0 ? nlohmann::json(p.shape.window) : nlohmann::json(nullptr)},
                           {"n_embd", p.n_embd},
                           {"max_context", p.max_context}, {"n_params", p.n_params}});
        std::cout << dump_json(out, 2) << "\n";
        return;
    }
    std::printf("%-16s %-16s %6s %5s %4s %8s %8s %17s  %s\n", "preset", "model", "layers", "heads", "kv",
                "head_dim", "context", "parameters", "sliding window");
    for (const kv::Preset& p : kv::presets()) {
        const std::string window = p.shape.n_local > 0 ? std::to_string(p.shape.window) + " on " +
                                                             std::to_string(p.shape.n_local) + " layers"
                                                       : std::string("-");
        std::printf("%-16s %-16s %6llu %5llu %4llu %8llu %8llu %17s  %s\n", std::string(p.name).c_str(),
                    std::string(p.label).c_str(), (unsigned long long)p.shape.n_layer,
                    (unsigned long long)p.shape.n_head, (unsigned long long)p.shape.n_head_kv,
                    (unsigned long long)p.shape.head_dim, (unsigned long long)p.max_context,
                    group_digits(p.n_params).c_str(), window.c_str());
    }
}

// What `kv` reports for one shape, type and length.
struct KvFigures {
    Source src;
    KvType type = KvType::F16;
    uint64_t ctx = 0;
    uint64_t batch = 1;
    uint64_t per_token = 0;                 // bytes per token, every layer (inside a window)
    uint64_t total = 0;                     // bytes at ctx tokens, the whole batch
    std::optional<kv::AttentionKind> kind;  // known when the query heads are
    std::optional<uint64_t> weights;        // the weights' bytes, when known
    std::string weights_what;               // how they were counted
};

KvFigures kv_figures(const KvOptions& o) {
    KvFigures f;
    f.src = resolve_source(o);
    f.type = o.kv_type;
    if (o.batch == 0) throw UsageError("kv: --batch must be at least 1");
    f.batch = o.batch;
    if (o.ctx) {
        f.ctx = *o.ctx;
    } else if (f.src.max_context > 0) {
        f.ctx = f.src.max_context;
    } else {
        throw UsageError("kv: give --ctx N (the " + f.src.kind + " shape has no context length)");
    }
    if (f.ctx == 0) throw UsageError("kv: --ctx must be at least 1");

    const kv::Shape& s = f.src.shape;
    f.per_token = kv::bytes_per_token(s, f.type);  // validates the shape
    f.total = kv::cache_bytes(s, f.type, f.ctx, f.batch);
    if (s.n_head > 0) f.kind = kv::attention_kind(s);
    if (f.src.file_weights_bytes) {
        f.weights = f.src.file_weights_bytes;
        f.weights_what = "as stored in the file";
    } else if (f.src.n_params > 0) {
        f.weights = kv::weights_bytes(f.src.n_params, KvType::F16);
        f.weights_what = "in f16";
    }
    return f;
}

void print_kv_json(const KvFigures& f) {
    const kv::Shape& s = f.src.shape;
    nlohmann::json j;
    j["source"] = f.src.kind;
    if (f.src.kind == "preset") j["preset"] = f.src.name;
    if (f.src.kind == "model") j["model"] = f.src.name;
    if (!f.src.label.empty()) j["label"] = f.src.label;
    j["n_layer"] = s.n_layer;
    j["n_head"] = s.n_head > 0 ? nlohmann::json(s.n_head) : nlohmann::json(nullptr);
    j["n_head_kv"] = s.n_head_kv;
    j["head_dim"] = s.head_dim;
    j["n_layer_local"] = s.n_local;
    j["window"] = s.n_local > 0 ? nlohmann::json(s.window) : nlohmann::json(nullptr);
    j["positions_held"] = kv::positions_held(s, f.ctx);
    if (f.kind) j["attention"] = kv::attention_kind_name(*f.kind);
    j["kv_type"] = kv_type_name(f.type);
    j["bytes_per_element"] = kv::bytes_per_element(f.type);
    j["ctx"] = f.ctx;
    j["batch"] = f.batch;
    if (f.src.max_context > 0) j["max_context"] = f.src.max_context;
    j["bytes_per_token"] = f.per_token;
    j["gb_per_token"] = double(f.per_token) / 1e9;
    j["gib_per_token"] = double(f.per_token) / double(1ull << 30);
    j["bytes"] = f.total;
    j["gb"] = double(f.total) / 1e9;
    j["gib"] = double(f.total) / double(1ull << 30);
    if (f.src.n_params > 0) j["n_params"] = f.src.n_params;
    if (f.weights) j["weights_bytes"] = *f.weights;
    if (f.kind) {
        nlohmann::json variants = nlohmann::json::array();
        for (const kv::Variant& v : kv::attention_variants(s))
            variants.push_back({{"attention", kv::attention_kind_name(v.kind)},
                                {"n_head_kv", v.shape.n_head_kv},
                                {"bytes", kv::cache_bytes(v.shape, f.type, f.ctx, f.batch)}});
        j["variants"] = variants;
    }
    std::cout << dump_json(j, 2) << "\n";
}

void print_kv_text(const KvFigures& f) {
    const kv::Shape& s = f.src.shape;
    // a model's name and path go to a terminal: sanitized (no escapes, one line, bounded)
    const std::string label = sanitize_message(f.src.label), name = sanitize_message(f.src.name);
    std::string shape_line = f.src.kind == "preset" ? label + " (preset " + name + ")"
                             : f.src.kind == "model"  ? (label.empty() ? name : label + " (" + name + ")")
                                                      : std::string("explicit shape");
    shape_line += ": " + std::to_string(s.n_layer) + " layers, ";
    if (s.n_head > 0) shape_line += std::to_string(s.n_head) + " query heads, ";
    shape_line += std::to_string(s.n_head_kv) + " kv heads";
    if (f.kind) {
        shape_line += " (" + std::string(kv::attention_kind_name(*f.kind));
        if (*f.kind == kv::AttentionKind::GQA)
            shape_line += ", " + std::to_string(s.n_head / s.n_head_kv) + " query heads per kv head";
        shape_line += ")";
    }
    shape_line += ", head dim " + std::to_string(s.head_dim);
    const kv::BlockFormat block = kv::block_format(f.type);
    std::cout << "shape      " << shape_line << "\n";
    std::cout << "cache      " << kv_type_name(f.type) << " ("
              << (block.values == 1 ? std::to_string(block.bytes) + " bytes per value"
                                    : std::to_string(block.bytes) + " bytes per block of " +
                                          std::to_string(block.values) + " values")
              << "), " << group_digits(f.ctx) << " tokens"
              << (f.src.max_context > 0 && f.ctx > f.src.max_context
                      ? " (beyond the " + group_digits(f.src.max_context) + "-token context)"
                      : std::string())
              << ", batch " << f.batch << "\n";
    std::cout << "per token  " << group_digits(f.per_token) << " bytes = " << human_bytes(f.per_token)
              << (s.n_local > 0 ? " (inside the window; past it " +
                                      group_digits(kv::layer_bytes_per_token(s, f.type) * s.n_global()) + " bytes)"
                                : std::string())
              << "\n";
    if (s.n_local > 0)
        std::cout << "layers     " << s.n_global() << " global x " << group_digits(f.ctx) << " + " << s.n_local
                  << " local x min(" << group_digits(f.ctx) << ", " << group_digits(s.window) << ") = "
                  << group_digits(kv::positions_held(s, f.ctx)) << " layer-positions of "
                  << group_digits(kv::layer_bytes_per_token(s, f.type)) << " bytes (the local layers keep only their "
                  << group_digits(s.window) << "-token window)\n";
    std::cout << "total      " << group_digits(f.total) << " bytes = " << gb_string(double(f.total) / 1e9)
              << " GB = " << gb_string(double(f.total) / double(1ull << 30)) << " GiB\n";
    if (f.weights)
        std::cout << "weights    " << group_digits(f.src.n_params) << " parameters, " << human_bytes(*f.weights)
                  << " " << f.weights_what << "\n";
    if (f.kind)
        for (const kv::Variant& v : kv::attention_variants(s))
            std::cout << "as " << kv::attention_kind_name(v.kind) << "     " << v.shape.n_head_kv
                      << (v.shape.n_head_kv == 1 ? " kv head:  " : " kv heads: ") << human_bytes(kv::cache_bytes(v.shape, f.type, f.ctx, f.batch)) << "\n";
}

void run_kv(const KvOptions& o) {
    if (o.list) {
        if (!o.preset.empty() || !o.model.empty() || o.layers || o.kv_heads || o.head_dim || o.heads || o.window ||
            o.local_layers)
            throw UsageError("kv: --list-presets takes no shape source");
        list_presets(o.json);
        return;
    }
    const KvFigures f = kv_figures(o);
    if (o.json) print_kv_json(f);
    else print_kv_text(f);
}

}  // namespace

void add_kv_command(CLI::App& app) {
    auto opt = std::make_shared<KvOptions>();
    const CLI::Validator positive(
        [](std::string& text) -> std::string {
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
                return "expected a positive whole number, got '" + text + "'";
            if (text.find_first_not_of('0') == std::string::npos) return "must be at least 1";
            return {};
        },
        "POSITIVE");
    CLI::App* cmd = app.add_subcommand("kv", "KV cache size of a model shape: per token and in total");
    cmd->add_option("--preset", opt->preset, "A published model shape (see --list-presets)");
    cmd->add_option("--model", opt->model, "Read the shape from a GGUF model");
    add_number(cmd, "--layers", opt->layers, "Explicit shape: layers")->check(positive);
    add_number(cmd, "--kv-heads", opt->kv_heads, "Explicit shape: key/value heads")->check(positive);
    add_number(cmd, "--head-dim", opt->head_dim, "Explicit shape: head dimension")->check(positive);
    add_number(cmd, "--heads", opt->heads, "Explicit shape: query heads (optional; names MHA/GQA/MQA)")->check(positive);
    add_number(cmd, "--window", opt->window, "Explicit shape: sliding window in tokens (of every layer, or of --local-layers)")->check(positive);
    add_number(cmd, "--local-layers", opt->local_layers, "Explicit shape: how many layers use the sliding window")->check(positive);
    add_number(cmd, "--ctx", opt->ctx, "Tokens per sequence (default: the model's context length)")->check(positive);
    add_number(cmd, "--batch", opt->batch, "Sequences (default 1)")->check(positive);
    add_kv_type_option(cmd, opt->kv_type, "Cache storage");
    cmd->add_flag("--json", opt->json, "Print JSON");
    cmd->add_flag("--list-presets", opt->list, "List the presets and their published shapes");
    cmd->callback([opt] { run_kv(*opt); });
}

}  // namespace lmscope::cli
