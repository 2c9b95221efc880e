// lmscope-cli replay TRACE [--json]: prints a saved session trace step by step, without the
// model. Text: a header (model, tokenizer, sampling, budget) and one line per step. --json:
// one JSON object per line per step, the same objects `run --jsonl` prints while it runs, so
// `diff <(run ... --jsonl --trace t) <(replay t --json)` compares a run with its replay.
#include "cli/commands.h"
#include "cli/options.h"

#include "model/summary.h"
#include "trace/step_report.h"
#include "trace/trace_file.h"
#include "util/json_io.h"
#include "util/message.h"

#include <iostream>
#include <memory>
#include <string>

namespace lmscope::cli {

void add_replay_command(CLI::App& app) {
    struct Options {
        std::string trace;
        bool json = false;
        size_t top = 5;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("replay", "Print the steps of a saved trace (no model needed)");
    cmd->add_option("TRACE", opt->trace, "Trace file written by run --trace")->required();
    cmd->add_flag("--json", opt->json, "One JSON object per step, one per line (as run --jsonl)");
    add_number(cmd, "--top", opt->top, "Candidates shown per step")->capture_default_str()->check(CLI::Range(0, 1000));
    cmd->callback([opt] {
        const trace::SessionTrace t = trace::load_trace(opt->trace);
        if (opt->json) {
            for (const trace::StepTrace& s : t.steps())
                std::cout << dump_json(trace::step_report_json(t, s, opt->top)) << "\n";
            return;
        }
        // Names from the file go to a terminal: sanitized (no escapes, one line, bounded).
        std::cout << "model: " << sanitize_message(t.model.file) << " (header sha256 "
                  << sanitize_message(t.model.header_sha256) << ")\n";
        std::cout << "tokenizer: " << dump_json(t.tokenizer) << "\n";
        std::cout << "sampling: " << dump_json(t.sampling) << "\n";
        std::cout << "capture: " << dump_json(t.capture) << "\n";
        std::cout << "steps: " << t.size() << ", held " << model::format_bytes(t.held_bytes()) << " of the "
                  << model::format_bytes(t.budget()) << " budget recorded, " << t.dropped_steps()
                  << " steps without planes\n";
        for (const trace::StepTrace& s : t.steps()) std::cout << trace::step_report_text(t, s, opt->top) << "\n";
    });
}

}  // namespace lmscope::cli
