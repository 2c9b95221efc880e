// lmscope-cli info MODEL.gguf [--json]: validates a GGUF file and prints its spec and tensors.
// A GGUF that fails validation is an error (exit 1). A valid GGUF that lmscope cannot run
// (another architecture, inconsistent hyperparameters, a tensor missing or of the wrong shape,
// a broken vocabulary) is still described, with its metadata problems listed (JSON
// "problems", text "problem" lines), and then reported as an error (exit 1): one line naming
// the file, the field and the reason.
#include "cli/commands.h"

#include "gguf/gguf.h"
#include "model/spec.h"
#include "model/summary.h"
#include "model/weights.h"
#include "tokenizer/tokenizer.h"
#include "util/json_io.h"

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
            std::cout << dump_json(summary.to_json(), 2) << "\n";
        else
            std::cout << summary.to_text();
        std::cout.flush();
        // The strict checks a run makes: the spec, every tensor, the vocabulary.
        model::Weights::bind(file, model::ModelSpec::from_file(file));
        tok::load_tokenizer(file);
    });
}

}  // namespace lmscope::cli
