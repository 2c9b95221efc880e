// lmscope-cli info MODEL.gguf [--json]: validates a GGUF file and prints its spec and tensors.
// A GGUF that fails validation is an error (exit 1). A valid GGUF whose metadata lmscope
// cannot run (another architecture, inconsistent hyperparameters) is still described, with
// its problems listed (JSON "problems", text "problem" lines) and a warning on stderr.
#include "cli/commands.h"

#include "gguf/gguf.h"
#include "model/summary.h"

#include <iostream>
#include <memory>
#include <string>

namespace lmscope::cli {

void add_info_command(CLI::App& app) {
    struct Options {
        std::string model;
        bool json = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("info", "Validate a GGUF model and print its spec and tensors");
    cmd->add_option("MODEL", opt->model, "GGUF model file")->required();
    cmd->add_flag("--json", opt->json, "Print JSON instead of a readable summary");
    cmd->callback([opt] {
        const gguf::File file = gguf::File::open(opt->model);
        const model::ModelSummary summary = model::ModelSummary::of(file);
        if (opt->json)
            std::cout << summary.to_json().dump(2) << "\n";
        else
            std::cout << summary.to_text();
        if (!summary.supported)
            std::cerr << "lmscope-cli: warning: " << opt->model << ": lmscope cannot run this model"
                      << (summary.problems.empty() ? " (architecture '" + summary.hparams.architecture + "')"
                                                   : ": " + summary.problems.front())
                      << "\n";
    });
}

}  // namespace lmscope::cli
