// Each lmscope-cli subcommand lives in its own cmd_NAME.cpp and registers itself here.
// A command's callback throws lmscope::Error on failure; main() reports it once.
#pragma once

#include <CLI/CLI.hpp>

namespace lmscope::cli {

void add_info_command(CLI::App& app);
void add_kv_command(CLI::App& app);
void add_dump_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_tokenize_command(CLI::App& app);
void add_replay_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_quantize_command(CLI::App& app);

}  // namespace lmscope::cli
