// lmscope-cli quantize IN.gguf OUT.gguf TYPE [--threads N]
// Requantizes every weight matrix of IN to TYPE (F32, F16, BF16, Q8_0, Q6_K, Q5_K_M, Q5_K, Q5_1,
// Q5_0, Q4_K_M, Q4_K, Q4_1, Q4_0, IQ4_XS, IQ4_NL, Q3_K, Q2_K; the rules and fallbacks are those
// of gguf/requantize.h), copies everything else and the metadata, writes OUT through the safe
// writer (atomic, never over IN) and reads it back to check it. Prints the tensors per type,
// the fallbacks and the sizes. IN may hold any type lmscope reads: quantized weights are
// dequantized first (their error then adds to the new one).
#include "cli/commands.h"
#include "cli/options.h"

#include "gguf/gguf.h"
#include "gguf/requantize.h"
#include "util/clock.h"
#include "util/cpu_info.h"
#include "util/error.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace lmscope::cli {

namespace {

std::string mib(uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1 << 20));
    return buf;
}

// One line per kind of fallback (row length, wanted type, type given), then the counts.
void print_summary(const gguf::RequantizeResult& r, const std::string& out, const gguf::QuantTarget& target,
                   double seconds) {
    struct Fallback {
        int count = 0;
        std::string example;  // the first tensor
    };
    std::map<std::tuple<int64_t, std::string, std::string>, Fallback> fallbacks;
    std::map<std::string, int> per_type;  // type name -> weight matrices
    int copied = 0;
    for (const gguf::TensorPlan& p : r.plan) {
        if (p.weight) ++per_type[std::string(gguf::type_name(p.to))];
        else ++copied;
        if (!p.fallback) continue;
        Fallback& f = fallbacks[{p.row, std::string(gguf::type_name(p.wanted)), std::string(gguf::type_name(p.to))}];
        if (f.count++ == 0) f.example = p.name;
    }
    for (const auto& [key, f] : fallbacks) {
        const auto& [row, wanted, to] = key;
        std::cout << "fallback: " << f.count << (f.count == 1 ? " matrix" : " matrices") << " with rows of " << row
                  << " (" << f.example << (f.count > 1 ? ", ..." : "") << ") do not fit " << wanted << " blocks of "
                  << gguf::traits(*gguf::type_from_name(wanted)).block_size << ": " << to << "\n";
    }
    std::cout << "weight matrices:";
    for (const auto& [type, n] : per_type) std::cout << " " << n << " " << type;
    std::cout << "; other tensors copied: " << copied << "\n";
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", seconds);
    std::cout << "wrote " << out << " (" << target.name << "): tensor data " << mib(r.bytes_in) << " -> "
              << mib(r.bytes_out) << " in " << secs << " s; read back and checked\n";
}

}  // namespace

void add_quantize_command(CLI::App& app) {
    struct Options {
        std::string in, out, type;
        int threads = 0;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("quantize", "Requantize a GGUF model's weight matrices to another type");
    cmd->add_option("IN", opt->in, "GGUF model to read")->required()->check(non_empty_path());
    cmd->add_option("OUT", opt->out, "GGUF file to write (never IN)")->required()->check(non_empty_path());
    cmd->add_option("TYPE", opt->type, "Target type: " + gguf::quant_target_names())->required();
    add_number(cmd, "--threads", opt->threads, "CPU threads (0 = all cores)")->capture_default_str()->check(CLI::Range(0, 1024));
    cmd->callback([opt] {
        const std::optional<gguf::QuantTarget> target = gguf::quant_target(opt->type);
        if (!target)
            throw UsageError("TYPE: '" + opt->type + "' is not a quantize type (expected one of " +
                             gguf::quant_target_names() + ")");
        const gguf::File in = gguf::File::open(opt->in);
        const auto start = Clock::now();
        const int threads = opt->threads > 0 ? opt->threads : hardware_threads();
        const gguf::RequantizeResult r = gguf::requantize(in, opt->out, *target, threads);
        const double seconds = seconds_since(start);
        print_summary(r, opt->out, *target, seconds);
    });
}

}  // namespace lmscope::cli
