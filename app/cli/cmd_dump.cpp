// lmscope-cli dump MODEL.gguf --ids 1,2,3 [--logits OUT.f32] [--attention OUT.f32]
//                  [--hooks blk.1.q,blk.1.pattern,logits --out DIR] [--ablate L:H,...]
//                  [--skip L:attn|L:ffn,...] [--backend cpu|cuda] [--threads N] [--kv-offload MIB]
// A teacher-forced run over the given ids (one prefill step). Writes little-endian float32
// logits [n][n_vocab] and attention [n_layer][n_head][n][n] (zeros where masked): the layouts
// of ../shared/testdata/reference/; and each hook point asked for (trace/hooks.h: names and
// shapes) as DIR/NAME.npy, which numpy.load reads. --ablate switches those heads off (their z
// is zero) and --skip skips those sub-layers (attn_out or mlp_out is zero) for the run. The ids must fit the model's context and the outputs this machine's
// memory; every output is checked before the run (no two of them the same file) and written
// through a SafeWriter (atomic, never over the model, a device or a folder).
#include "cli/backend_option.h"
#include "cli/commands.h"
#include "cli/memory_estimate.h"
#include "cli/options.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "engine/prepared_model.h"
#include "model/interventions.h"
#include "util/error.h"
#include "util/npy.h"
#include "util/parse_list.h"
#include "util/resource_errors.h"
#include "util/safe_writer.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace lmscope::cli {

namespace {

std::vector<int32_t> parse_ids(const std::string& text) {
    return parse_list<int32_t>(
        text,
        [](std::string_view item) {
            const std::optional<int32_t> v = parse_integer<int32_t>(item);
            if (!v || *v < 0)
                throw UsageError("--ids: '" + std::string(item) +
                                 "' is not a token id (expected comma-separated ids like 1,2,3)");
            return *v;
        },
        Repeats::Keep);
}

// DIR for the hooks: made when absent; anything but a folder is refused.
void prepare_out_dir(const std::string& dir) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode)) throw UsageError("--out: " + dir + " exists and is not a folder");
        return;
    }
    if (errno != ENOENT || ::mkdir(dir.c_str(), 0777) != 0)
        throw IoError(dir + ": cannot create the folder: " + std::strerror(errno));
}

uint64_t hook_bytes(const std::vector<trace::HookPoint>& hooks, const model::ModelSpec& s, size_t n) {
    const trace::HookDims d{s.n_embd(), s.n_head(), s.n_head_kv(), s.head_dim(), s.n_ff(), s.n_vocab()};
    uint64_t total = 0;
    for (const trace::HookPoint& h : hooks) {
        uint64_t count = sizeof(float);
        for (int64_t x : trace::hook_shape(h.hook, d, int64_t(n), int64_t(n), int64_t(n))) count *= uint64_t(x);
        total += count;
    }
    return total;
}

// Before any work: the ids fit the model's context, and the run and its outputs fit this
// machine's memory.
void check_limits(const engine::Model& m, size_t n, bool attention, uint64_t hooks) {
    const model::ModelSpec& s = m.spec();
    if (n > size_t(s.n_ctx_train()))
        throw UsageError("--ids: " + std::to_string(n) + " ids exceed the model's context of " +
                         std::to_string(s.n_ctx_train()) + " positions (its context_length)");
    std::vector<MemoryPart> parts{weights_part(m), kv_part(s, KvType::F16, int64_t(n)),
                                  activations_part(s, int64_t(n), true)};
    if (attention) {  // the captured planes, then the file's cube assembled from them
        MemoryPart planes = planes_part(s, int64_t(n), int64_t(n));
        planes.bytes = planes.bytes > UINT64_MAX / 2 ? UINT64_MAX : 2 * planes.bytes;
        parts.push_back(planes);
    }
    if (hooks) parts.push_back({"the hooks", hooks});
    check_memory("dump: " + std::to_string(n) + " ids", parts);
}

void write_f32(const std::string& path, const std::vector<float>& data, const std::string& model) {
    write_file_safely(path, data.data(), data.size() * sizeof(float), {model});
}

}  // namespace

void add_dump_command(CLI::App& app) {
    struct Options {
        std::string model, ids, logits, attention, hooks, out, ablate, skip, backend = "cpu";
        int threads = 0;
        double kv_offload_mib = 0;  // --kv-offload; 0: off
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("dump", "Teacher-forced run over token ids; write logits (and attention) as float32");
    cmd->add_option("MODEL", opt->model, "GGUF model file")->required();
    cmd->add_option("--ids", opt->ids, "Token ids, comma-separated (1,2,3)")->required();
    cmd->add_option("--logits", opt->logits, "Output file: float32 logits [n][n_vocab]")->check(non_empty_path());
    cmd->add_option("--attention", opt->attention, "Output file: float32 attention [n_layer][n_head][n][n]")
        ->check(non_empty_path());
    cmd->add_option("--hooks", opt->hooks, "Hook points to write, comma-separated (blk.1.q,blk.1.pattern,logits)")
        ->check(non_empty_list());
    cmd->add_option("--out", opt->out, "Folder for the hooks: one NAME.npy (float32) each")->check(non_empty_path());
    cmd->add_option("--ablate", opt->ablate, "Heads to switch off (their z is zero), as LAYER:HEAD,...")
        ->check(non_empty_list());
    cmd->add_option("--skip", opt->skip, "Sub-layers to skip (their output is not added), as LAYER:attn or LAYER:ffn,...")
        ->check(non_empty_list());
    cmd->add_option("--backend", opt->backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
    add_number(cmd, "--threads", opt->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 1024));
    add_kv_offload_option(cmd, opt->kv_offload_mib);
    cmd->callback([opt] {
        const std::vector<int32_t> ids = parse_ids(opt->ids);
        if (opt->logits.empty() && opt->attention.empty() && opt->hooks.empty())
            throw UsageError("dump: nothing to write (give --logits, --attention or --hooks with --out)");
        if (opt->hooks.empty() != opt->out.empty())
            throw UsageError(opt->hooks.empty() ? "--out: is for --hooks, which is missing" : "--hooks: needs --out DIR");
        // the ids are its tokens: a broken vocabulary is a broken model file
        const std::shared_ptr<const engine::Model> model = engine::prepare_model(opt->model).model;
        const std::vector<trace::HookPoint> hooks =
            opt->hooks.empty() ? std::vector<trace::HookPoint>{} : trace::parse_hook_list(opt->hooks, model->spec().n_layer());
        const std::vector<LayerHead> ablate =
            opt->ablate.empty() ? std::vector<LayerHead>{} : model::parse_head_list(opt->ablate, model->spec(), "--ablate");
        const std::vector<LayerSkip> skip =
            opt->skip.empty() ? std::vector<LayerSkip>{} : model::parse_skip_list(opt->skip, model->spec(), "--skip");
        check_limits(*model, ids.size(), !opt->attention.empty(), hook_bytes(hooks, model->spec(), ids.size()));
        std::vector<std::pair<std::string, std::string>> outputs;  // (option, path)
        if (!opt->logits.empty()) outputs.emplace_back("--logits", opt->logits);
        if (!opt->attention.empty()) outputs.emplace_back("--attention", opt->attention);
        if (!hooks.empty()) {
            prepare_out_dir(opt->out);
            for (const trace::HookPoint& h : hooks)
                outputs.emplace_back("--hooks " + trace::hook_name(h), opt->out + "/" + trace::hook_name(h) + ".npy");
        }
        for (const auto& [option, path] : outputs) check_output_path(path, {opt->model});
        check_distinct_outputs(outputs);  // links and other spellings of one file included
        engine::BackendOptions bo;
        bo.n_threads = opt->threads;
        bo.n_ctx = std::max<int32_t>(int32_t(ids.size()), 1);
        bo.kv_offload_bytes = engine::kv_offload_budget(opt->kv_offload_mib);
        // Each phase names the model file (or the output) when memory or threads run out.
        auto backend = with_context(opt->model + ": starting the " + opt->backend + " backend",
                                    [&] { return start_backend(opt->backend, model, bo); });

        const model::ModelSpec& s = model->spec();
        const size_t n = ids.size(), V = size_t(s.n_vocab());
        std::vector<float> logits;  // [n][n_vocab]
        trace::CapturePolicy policy;
        policy.mode = opt->attention.empty() ? trace::CaptureMode::None : trace::CaptureMode::Full;
        policy.hooks = hooks;
        trace::StepCapture capture;
        with_context(opt->model + ": the forward pass over " + std::to_string(n) + " ids", [&] {
            logits.resize(n * V);
            backend->forward({.tokens = ids, .policy = policy, .capture = &capture, .logits = logits,
                              .all_logits = true, .ablate = ablate, .skip = skip});
        });
        if (!opt->logits.empty()) write_f32(opt->logits, logits, opt->model);
        for (const trace::HookTensor& t : capture.hooks)
            write_npy_f32(opt->out + "/" + trace::hook_name(t.at) + ".npy", t.shape, t.data, {opt->model});

        if (!opt->attention.empty()) {
            with_context(opt->attention + ": assembling the attention of " + std::to_string(n) + " ids", [&] {
                // [n_layer][n_head][n][n]; a prefill at position 0 gives planes of n x n
                std::vector<float> attn(size_t(s.n_layer()) * size_t(s.n_head()) * n * n, 0.0f);
                for (const trace::AttentionPlane& p : capture.planes) {
                    const size_t base = (size_t(p.at.layer) * size_t(s.n_head()) + size_t(p.at.head)) * n * n;
                    std::copy(p.weights.begin(), p.weights.end(), attn.begin() + std::ptrdiff_t(base));
                }
                write_f32(opt->attention, attn, opt->model);
            });
        }
    });
}

}  // namespace lmscope::cli
