// lmscope-cli bench MODEL.gguf [-p 128] [-n 64] [-r 3] [--threads N] [--capture none|summary|full]
//                   [--backend cpu|cuda] [--kv-type f16|q8_0|q4_0] [--json]
// Prefill p tokens, then decode n tokens greedily (argmax), r times after one warm-up run;
// reports tokens per second of each phase (mean over the runs), the capture mode, threads,
// KV bytes and the peak resident set size. "full" capture = every layer and head of each new
// row, plus the top-k logits and KV statistics of every step, as the app would record them.
// What the run will hold (weights, the KV cache, activations, full capture's planes) is
// estimated first; more than this machine's memory is refused before any work.
#include "cli/backend_option.h"
#include "cli/commands.h"
#include "cli/memory_estimate.h"
#include "cli/options.h"
#include "util/json_io.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace lmscope::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

int32_t argmax(const std::vector<float>& v) {
    return int32_t(std::max_element(v.begin(), v.end()) - v.begin());
}

// What a front end keeps of each step's logits in full capture: the top k ids.
void top_k(const std::vector<float>& logits, std::vector<int32_t>& idx, int k) {
    idx.resize(logits.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                      [&](int32_t a, int32_t b) { return logits[size_t(a)] > logits[size_t(b)]; });
}

struct Run {
    double prefill_s = 0, decode_s = 0;
};

}  // namespace

void add_bench_command(CLI::App& app) {
    struct Options {
        std::string model, capture = "none", backend = "cpu", kv = "f16";
        int p = 128, n = 64, reps = 3, threads = 0;
        bool json = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("bench", "Measure prefill and decode speed (tokens/s) and peak memory");
    cmd->add_option("MODEL", opt->model, "GGUF model file")->required();
    add_number(cmd, "-p", opt->p, "Prompt tokens to prefill (default 128)")->check(CLI::Range(1, 1 << 20));
    add_number(cmd, "-n", opt->n, "Tokens to decode (default 64)")->check(CLI::Range(0, 1 << 20));
    add_number(cmd, "-r,--reps", opt->reps, "Timed runs after a warm-up (default 3)")->check(CLI::Range(1, 1000));
    add_number(cmd, "--threads", opt->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 1024));
    cmd->add_option("--capture", opt->capture, "none, summary or full")
        ->check(CLI::IsMember({"none", "summary", "full"}));
    cmd->add_option("--backend", opt->backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
    cmd->add_option("--kv-type", opt->kv, "KV cache type: f16, q8_0 or q4_0")
        ->check(CLI::IsMember({"f16", "q8_0", "q4_0"}));
    cmd->add_flag("--json", opt->json, "Print one JSON object");
    cmd->callback([opt] {
        auto model = engine::Model::load(opt->model);
        const model::ModelSpec& s = model->spec();
        const int64_t total = int64_t(opt->p) + int64_t(opt->n);
        if (total > s.n_ctx_train())
            throw UsageError("bench: -p + -n = " + std::to_string(total) + " exceeds the model's context of " +
                             std::to_string(s.n_ctx_train()));
        engine::BackendOptions bo;
        bo.n_threads = opt->threads;
        bo.kv_type = *engine::kv_type_from_name(opt->kv);
        bo.n_ctx = int32_t(total);
        trace::CapturePolicy policy;
        policy.mode = opt->capture == "full"      ? trace::CaptureMode::Full
                      : opt->capture == "summary" ? trace::CaptureMode::Summary
                                                  : trace::CaptureMode::None;
        const bool full = policy.mode == trace::CaptureMode::Full;
        std::vector<MemoryPart> parts{weights_part(*model), kv_part(s, bo.kv_type, total),
                                      activations_part(s, opt->p, false)};
        if (full) parts.push_back(planes_part(s, opt->p, opt->p));  // the prefill step's planes
        check_memory("bench: -p " + std::to_string(opt->p) + " -n " + std::to_string(opt->n), parts);
        auto backend = start_backend(opt->backend, model, bo);

        // a fixed pseudo-random prompt (speed does not depend on the ids)
        std::vector<int32_t> prompt(size_t(opt->p));
        uint64_t x = 0x9E3779B97F4A7C15ull;
        for (int32_t& t : prompt) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            t = int32_t(x % uint64_t(s.n_vocab()));
        }
        std::vector<float> logits(size_t(s.n_vocab()));
        std::vector<int32_t> order;
        trace::StepCapture capture;
        engine::KvStats kv;

        auto one_run = [&](int n_decode) {
            Run r;
            auto t0 = Clock::now();
            backend->forward({.tokens = prompt, .policy = policy, .capture = &capture, .logits = logits});
            if (full) top_k(logits, order, 10), kv = backend->kv_stats();
            r.prefill_s = seconds_since(t0);
            int32_t tok = argmax(logits);
            t0 = Clock::now();
            for (int i = 0; i < n_decode; ++i) {
                const int32_t id[1] = {tok};
                backend->forward({.tokens = id, .pos0 = opt->p + i, .policy = policy, .capture = &capture, .logits = logits});
                if (full) top_k(logits, order, 10), kv = backend->kv_stats();
                tok = argmax(logits);
            }
            r.decode_s = seconds_since(t0);
            return r;
        };

        one_run(std::min(opt->n, 4));  // warm-up: pages in the weights, sizes the buffers
        std::vector<Run> runs;
        for (int i = 0; i < opt->reps; ++i) runs.push_back(one_run(opt->n));
        kv = backend->kv_stats();

        auto stats = [&](auto field, int count) {
            std::vector<double> v;
            for (const Run& r : runs) v.push_back(count / (r.*field));
            const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
            double var = 0;
            for (double d : v) var += (d - mean) * (d - mean);
            return std::pair{mean, std::sqrt(var / double(v.size()))};
        };
        const auto [pf, pf_sd] = stats(&Run::prefill_s, opt->p);
        const auto [dc, dc_sd] = opt->n > 0 ? stats(&Run::decode_s, opt->n) : std::pair{0.0, 0.0};
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        const uint64_t peak_rss = uint64_t(ru.ru_maxrss) * 1024;  // Linux reports KiB

        nlohmann::json j;
        j["model"] = opt->model;
        j["backend"] = backend->name();
        j["threads"] = opt->threads > 0 ? opt->threads : -1;
        j["capture"] = opt->capture;
        j["kv_type"] = opt->kv;
        j["prompt_tokens"] = opt->p;
        j["decode_tokens"] = opt->n;
        j["reps"] = opt->reps;
        j["prefill_tok_s"] = pf;
        j["prefill_tok_s_sd"] = pf_sd;
        j["decode_tok_s"] = dc;
        j["decode_tok_s_sd"] = dc_sd;
        j["kv_tokens"] = kv.n_tokens;
        j["kv_bytes"] = kv.total_bytes;
        j["model_file_bytes"] = model->file().file_size();
        j["peak_rss_bytes"] = peak_rss;
        if (opt->json) {
            std::cout << dump_json(j) << "\n";
            return;
        }
        std::printf("model    %s\nbackend  %s, kv %s, capture %s\n", opt->model.c_str(), backend->name().c_str(),
                    opt->kv.c_str(), opt->capture.c_str());
        std::printf("prefill  %d tokens: %.1f tok/s (sd %.1f)\n", opt->p, pf, pf_sd);
        std::printf("decode   %d tokens: %.1f tok/s (sd %.1f)\n", opt->n, dc, dc_sd);
        std::printf("kv       %d tokens, %llu bytes\n", kv.n_tokens, (unsigned long long)kv.total_bytes);
        std::printf("peak rss %.1f MiB (model file %.1f MiB)\n", double(peak_rss) / 1048576.0,
                    double(model->file().file_size()) / 1048576.0);
    });
}

}  // namespace lmscope::cli
