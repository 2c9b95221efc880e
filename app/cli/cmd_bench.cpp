// lmscope-cli bench MODEL.gguf [-p 128] [-n 64] [-d 0] [-r 3] [--threads N]
//                   [--capture none|summary|full] [--trace-budget MIB] [--backend cpu|cuda] [--kv-type f16|q8_0|q4_0]
//                   [--kv-offload MIB] [--json]
// With d tokens already in the cache (fed untimed, as llama-bench -d), prefill p tokens, then
// decode n tokens greedily (argmax), r times after one warm-up run; reports tokens per second
// of each phase (mean over the runs), the capture mode, threads, KV bytes and the peak resident
// set size. The KV cache's bytes: stored (measured from the cache's storage), allocated, the
// formula's; with --kv-offload, those in memory and in the offload tier and the bytes moved
// between them per decoded token. On the CPU it then measures the read bandwidth with the same threads and reports
// the decode ceiling it implies (bandwidth.h) and the fraction of it decode reached. "full" capture = every layer and head of each new
// row, plus the top-k logits and KV statistics of every step, as the app would record them:
// within the trace budget (--trace-budget MIB, default 512), as a session keeps them, so a long
// prompt's prefill keeps the planes that fit (and every head's summaries) and says how many.
// What the run will hold (weights, the KV cache, activations, full capture's planes) is
// estimated first; more than this machine's memory is refused before any work.
#include "cli/backend_option.h"
#include "cli/bandwidth.h"
#include "cli/commands.h"
#include "cli/memory_estimate.h"
#include "cli/options.h"
#include "util/json_io.h"

#include "analysis/distribution.h"
#include "engine/backend_factory.h"
#include "engine/model.h"
#include "kv/kv_math.h"
#include "trace/session_trace.h"
#include "util/clock.h"
#include "util/cpu_info.h"
#include "util/error.h"
#include "util/message.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace lmscope::cli {

namespace {


int32_t argmax(const std::vector<float>& v) {
    return int32_t(std::max_element(v.begin(), v.end()) - v.begin());
}

struct Run {
    double prefill_s = 0, decode_s = 0;
    uint64_t decode_moved = 0;       // KV bytes moved between the tiers by the decode steps
    engine::PartTimes decode_parts;  // where the decode steps' time went
};

// Milliseconds a decoded token spends in each part (attention, each weight type's matmuls,
// the output head) and in the rest, over every run; empty when the backend keeps no record.
nlohmann::json decode_breakdown(const std::vector<Run>& runs) {
    engine::PartTimes sum;
    for (const Run& r : runs) {
        for (const auto& [name, s] : r.decode_parts.parts) sum.add(name, s);
        sum.total_s += r.decode_parts.total_s;
        sum.steps += r.decode_parts.steps;
    }
    nlohmann::json j = nlohmann::json::object();
    if (sum.steps == 0 || sum.parts.empty()) return j;
    double parts = 0;
    for (const auto& [name, s] : sum.parts) {
        j[name] = 1e3 * s / double(sum.steps);
        parts += s;
    }
    j["rest"] = 1e3 * std::max(0.0, sum.total_s - parts) / double(sum.steps);
    return j;
}

struct BenchOptions {
    std::string model, backend = "cpu";
    trace::CaptureMode capture = trace::CaptureMode::None;
    KvType kv = KvType::F16;
    int p = 128, n = 64, depth = 0, reps = 3, threads = 0;
    double kv_offload_mib = 0;  // --kv-offload; 0: off
    uint64_t trace_budget_mib = trace::SessionTrace::kDefaultBudget >> 20;  // full capture's planes
    bool json = false;
};

// A fixed pseudo-random sequence of ids (speed does not depend on them).
std::vector<int32_t> token_ids(size_t n, int32_t n_vocab) {
    std::vector<int32_t> ids(n);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int32_t& t : ids) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        t = int32_t(x % uint64_t(n_vocab));
    }
    return ids;
}

// Mean and standard deviation of count / seconds over the runs.
std::pair<double, double> rate(const std::vector<Run>& runs, double Run::*field, int count) {
    std::vector<double> v;
    for (const Run& r : runs) v.push_back(count / (r.*field));
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    double var = 0;
    for (double d : v) var += (d - mean) * (d - mean);
    return {mean, std::sqrt(var / double(v.size()))};
}

// The decode ceiling: what the measured read bandwidth allows when every weight and the KV
// cache held (its mean over the decoded tokens) are read once a token.
nlohmann::json decode_ceiling(const engine::Model& model, KvType type, const BenchOptions& o,
                              double decode_tok_s) {
    const model::ModelSpec& s = model.spec();
    const uint64_t weights = decode_weight_bytes(model);
    const uint64_t first = uint64_t(o.depth + o.p), last = first + uint64_t(std::max(0, o.n - 1));
    const uint64_t kv_bytes = (kv::cache_bytes(s.kv_shape(), type, first) + kv::cache_bytes(s.kv_shape(), type, last)) / 2;
    const ReadBandwidth bw = measure_read_bandwidth(size_t(weights), o.threads > 0 ? o.threads : hardware_threads());
    const double ceiling = bw.bytes_per_s / double(weights + kv_bytes);
    return {{"bandwidth_gb_s", bw.bytes_per_s / 1e9},
            {"bandwidth_buffer_bytes", bw.buffer_bytes},
            {"bandwidth_threads", bw.threads},
            {"decode_weight_bytes", weights},
            {"decode_kv_bytes", kv_bytes},
            {"decode_ceiling_tok_s", ceiling},
            {"decode_fraction_of_ceiling", o.n > 0 ? decode_tok_s / ceiling : 0.0}};
}

// Refuses (before it allocates) a run whose weights, cache, activations and, with full
// capture, the prefill's attention planes would not fit in memory.
void check_bench_memory(const engine::Model& model, const BenchOptions& o, KvType kv_type, int64_t total, bool full) {
    const model::ModelSpec& s = model.spec();
    std::vector<MemoryPart> parts{weights_part(model), kv_part(s, kv_type, total),
                                  activations_part(s, std::max(o.depth, o.p), false)};
    if (full) {  // the prefill step's planes, as many as the trace budget holds
        MemoryPart planes = planes_part(s, o.p, int64_t(o.depth) + o.p);
        planes.bytes = std::min<uint64_t>(planes.bytes, o.trace_budget_mib << 20);
        parts.push_back(planes);
    }
    check_memory("bench: " + (o.depth > 0 ? "-d " + std::to_string(o.depth) + " " : std::string()) + "-p " +
                     std::to_string(o.p) + " -n " + std::to_string(o.n),
                 parts);
}

// The report for a person: the figures of bench's JSON object, a line each.
void print_bench_text(const nlohmann::json& j, const BenchOptions& o) {
    std::printf("model    %s\nbackend  %s, kv %s, capture %s\n", sanitize_message(o.model).c_str(), j["backend"].get<std::string>().c_str(),
                std::string(kv_type_name(o.kv)).c_str(), std::string(trace::capture_mode_name(o.capture)).c_str());
    const std::string at = o.depth > 0 ? " at depth " + std::to_string(o.depth) : std::string();
    std::printf("prefill  %d tokens%s: %.1f tok/s (sd %.1f)\n", o.p, at.c_str(), j["prefill_tok_s"].get<double>(),
                j["prefill_tok_s_sd"].get<double>());
    std::printf("decode   %d tokens%s: %.1f tok/s (sd %.1f)\n", o.n, at.c_str(), j["decode_tok_s"].get<double>(),
                j["decode_tok_s_sd"].get<double>());
    if (j.contains("decode_ceiling_tok_s"))
        std::printf("ceiling  %.1f GB/s read (%d threads, %.0f MiB): %.1f MB weights + %.2f MB KV a token -> "
                    "%.1f tok/s; decode reached %.0f%%\n",
                    j["bandwidth_gb_s"].get<double>(), j["bandwidth_threads"].get<int>(),
                    double(j["bandwidth_buffer_bytes"].get<uint64_t>()) / 1048576.0,
                    double(j["decode_weight_bytes"].get<uint64_t>()) / 1e6, double(j["decode_kv_bytes"].get<uint64_t>()) / 1e6,
                    j["decode_ceiling_tok_s"].get<double>(), 100.0 * j["decode_fraction_of_ceiling"].get<double>());
    if (j.contains("planes_kept"))
        std::printf("capture  the prefill's attention planes: %llu of %llu kept within the %.0f MiB trace budget (summaries "
                    "of every head)\n",
                    (unsigned long long)j["planes_kept"].get<uint64_t>(), (unsigned long long)j["planes_total"].get<uint64_t>(),
                    double(j["trace_budget_bytes"].get<uint64_t>()) / 1048576.0);
    if (j.contains("decode_breakdown_ms") && !j["decode_breakdown_ms"].empty()) {
        double total = 0;
        for (const auto& [name, ms] : j["decode_breakdown_ms"].items()) total += ms.get<double>();
        std::printf("decode   a token's %.2f ms:", total);
        const char* sep = " ";
        for (const auto& [name, ms] : j["decode_breakdown_ms"].items()) {
            std::printf("%s%s %.3f ms (%.0f%%)", sep, name.c_str(), ms.get<double>(), 100.0 * ms.get<double>() / total);
            sep = ", ";
        }
        std::printf("\n");
    }
    auto u = [&](const char* key) { return (unsigned long long)j[key].get<uint64_t>(); };
    std::printf("kv       %d tokens: %llu bytes stored (measured), %llu by the formula, %llu allocated\n", j["kv_tokens"].get<int>(),
                u("kv_bytes_stored"), u("kv_bytes_formula"), u("kv_bytes_allocated"));
    if (j.contains("kv_offload_budget_bytes"))
        std::printf("offload  %.2f MiB budget: %llu bytes in memory, %llu in the file, %.0f bytes moved a decoded token\n",
                    double(u("kv_offload_budget_bytes")) / 1048576.0, u("kv_resident_bytes"), u("kv_offloaded_bytes"),
                    j["kv_bytes_moved_per_token"].get<double>());
    std::printf("peak rss %.1f MiB (model file %.1f MiB)\n", double(j["peak_rss_bytes"].get<uint64_t>()) / 1048576.0,
                double(j["model_file_bytes"].get<uint64_t>()) / 1048576.0);
}

void run_bench(const BenchOptions& o) {
    auto model = engine::Model::load(o.model);
    const model::ModelSpec& s = model->spec();
    const int64_t total = int64_t(o.depth) + int64_t(o.p) + int64_t(o.n);
    if (total > s.n_ctx_train())
        throw UsageError("bench: -d + -p + -n = " + std::to_string(total) + " exceeds the model's context of " +
                         std::to_string(s.n_ctx_train()));
    engine::BackendOptions bo;
    bo.n_threads = o.threads;
    bo.kv_type = o.kv;
    bo.n_ctx = int32_t(total);
    bo.kv_offload_bytes = engine::kv_offload_budget(o.kv_offload_mib);
    trace::CapturePolicy policy;
    policy.mode = o.capture;
    const bool full = policy.mode == trace::CaptureMode::Full;
    check_bench_memory(*model, o, bo.kv_type, total, full);
    // Full capture as a session captures it: the planes the trace budget holds (a long prompt's
    // prefill keeps some heads' planes and every head's summaries), so the memory is bounded.
    const trace::CapturePolicy prefill_policy =
        trace::within_budget(policy, o.p, o.depth, s.n_layer(), s.n_head(), o.trace_budget_mib << 20, {0, 0});
    auto backend = start_backend(o.backend, model, bo);

    // [depth] the context decoded after (untimed), then [p] the timed prompt
    const std::vector<int32_t> ids = token_ids(size_t(o.depth + o.p), s.n_vocab());
    const std::span<const int32_t> context = std::span(ids).first(size_t(o.depth));
    const std::span<const int32_t> prompt = std::span(ids).subspan(size_t(o.depth));
    std::vector<float> logits(size_t(s.n_vocab()));
    std::vector<int32_t> order;
    trace::StepCapture capture;

    auto one_run = [&](int n_decode) {
        // back to the depth: a sliding-window cache that forgot it is fed the context again
        backend->kv_truncate(std::min(o.depth, backend->kv_tokens()));
        if (const int32_t held = backend->kv_tokens(); held < o.depth)
            backend->forward({.tokens = context.subspan(size_t(held)), .pos0 = held, .logits = logits});
        Run r;
        auto t0 = Clock::now();
        backend->forward({.tokens = prompt, .pos0 = o.depth, .policy = prefill_policy, .capture = &capture, .logits = logits});
        if (full) order = analysis::top_k(logits, 10), backend->kv_stats();  // what a front end keeps
        r.prefill_s = seconds_since(t0);
        int32_t tok = argmax(logits);
        backend->clear_part_times();
        const uint64_t moved0 = backend->kv_stats().moved_bytes;
        t0 = Clock::now();
        for (int i = 0; i < n_decode; ++i) {
            const int32_t id[1] = {tok};
            backend->forward({.tokens = id, .pos0 = o.depth + o.p + i, .policy = policy, .capture = &capture, .logits = logits});
            if (full) order = analysis::top_k(logits, 10), backend->kv_stats();  // what a front end keeps
            tok = argmax(logits);
        }
        r.decode_s = seconds_since(t0);
        r.decode_parts = backend->part_times();
        r.decode_moved = backend->kv_stats().moved_bytes - moved0;
        return r;
    };

    one_run(std::min(o.n, 4));  // warm-up: pages in the weights, sizes the buffers
    std::vector<Run> runs;
    for (int i = 0; i < o.reps; ++i) runs.push_back(one_run(o.n));
    const engine::KvStats kv = backend->kv_stats();
    const auto [pf, pf_sd] = rate(runs, &Run::prefill_s, o.p);
    const auto [dc, dc_sd] = o.n > 0 ? rate(runs, &Run::decode_s, o.n) : std::pair{0.0, 0.0};
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const uint64_t peak_rss = uint64_t(ru.ru_maxrss) * 1024;  // Linux reports KiB (before the bandwidth buffer)

    nlohmann::json j;
    j["model"] = o.model;
    j["backend"] = backend->name();
    j["threads"] = o.threads > 0 ? o.threads : -1;
    j["capture"] = trace::capture_mode_name(o.capture);
    j["kv_type"] = kv_type_name(o.kv);
    j["depth"] = o.depth;
    j["prompt_tokens"] = o.p;
    j["decode_tokens"] = o.n;
    j["reps"] = o.reps;
    j["prefill_tok_s"] = pf;
    j["prefill_tok_s_sd"] = pf_sd;
    j["decode_tok_s"] = dc;
    j["decode_tok_s_sd"] = dc_sd;
    if (full) {
        const uint64_t planes = uint64_t(s.n_layer()) * uint64_t(s.n_head());
        j["planes_total"] = planes;
        j["planes_kept"] = prefill_policy.mode == trace::CaptureMode::Full ? planes : prefill_policy.full_pairs.size();
        j["trace_budget_bytes"] = o.trace_budget_mib << 20;
    }
    if (o.n > 0) j["decode_breakdown_ms"] = decode_breakdown(runs);
    j["kv_tokens"] = kv.n_tokens;
    j["kv_bytes"] = kv.total_bytes;
    j["kv_bytes_stored"] = kv.total_bytes;
    j["kv_bytes_formula"] = kv.formula_bytes;
    j["kv_bytes_allocated"] = kv.reserved_bytes;
    j["kv_resident_bytes"] = kv.resident_bytes;
    j["kv_offloaded_bytes"] = kv.offloaded_bytes;
    uint64_t moved = 0;
    for (const Run& r : runs) moved += r.decode_moved;
    j["kv_bytes_moved_per_token"] = o.n > 0 ? double(moved) / (double(o.n) * double(runs.size())) : 0.0;
    if (bo.kv_offload_bytes > 0) j["kv_offload_budget_bytes"] = bo.kv_offload_bytes;
    j["model_file_bytes"] = model->file().file_size();
    j["peak_rss_bytes"] = peak_rss;
    backend.reset();  // the bandwidth is measured on idle cores
    if (o.backend == "cpu") j.update(decode_ceiling(*model, bo.kv_type, o, dc));
    if (o.json) std::cout << dump_json(j) << "\n";
    else print_bench_text(j, o);
}

}  // namespace

void add_bench_command(CLI::App& app) {
    auto opt = std::make_shared<BenchOptions>();
    CLI::App* cmd = app.add_subcommand("bench", "Measure prefill and decode speed (tokens/s), the decode ceiling and peak memory");
    cmd->add_option("MODEL", opt->model, "GGUF model file")->required();
    add_number(cmd, "-p", opt->p, "Prompt tokens to prefill (default 128)")->check(CLI::Range(1, 1 << 20));
    add_number(cmd, "-n", opt->n, "Tokens to decode (default 64)")->check(CLI::Range(0, 1 << 20));
    add_number(cmd, "-d,--depth", opt->depth, "Tokens already in the cache before the prompt (default 0)")
        ->check(CLI::Range(0, 1 << 20));
    add_number(cmd, "-r,--reps", opt->reps, "Timed runs after a warm-up (default 3)")->check(CLI::Range(1, 1000));
    add_number(cmd, "--trace-budget", opt->trace_budget_mib, "MiB full capture's attention planes may hold (default 512)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 30));
    add_number(cmd, "--threads", opt->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 1024));
    add_capture_option(cmd, opt->capture, "What each step captures");
    cmd->add_option("--backend", opt->backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
    add_kv_type_option(cmd, opt->kv, "KV cache type");
    add_kv_offload_option(cmd, opt->kv_offload_mib);
    cmd->add_flag("--json", opt->json, "Print one JSON object");
    cmd->callback([opt] { run_bench(*opt); });
}

}  // namespace lmscope::cli
