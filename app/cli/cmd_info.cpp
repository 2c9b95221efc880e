// lmscope-cli info MODEL.gguf [--json]: validates a GGUF file and prints its spec and tensors.
// A GGUF that fails validation is an error (exit 1). A valid GGUF that lmscope cannot run
// (another architecture, inconsistent hyperparameters, a tensor missing or of the wrong shape,
// a broken vocabulary) is still described, with its metadata problems listed (JSON
// "problems", text "problem" lines), and then reported as an error (exit 1): one line naming
// the file, the field and the reason. info makes the checks a run makes (engine::prepare_model)
// and says so (JSON "checks", text "checks" line), so the two never disagree about a file.
#include "cli/commands.h"

#include "engine/prepared_model.h"
#include "gguf/gguf.h"
#include "model/summary.h"
#include "util/error.h"
#include "util/json_io.h"

#include <exception>
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
        gguf::File file = gguf::File::open(opt->model);
        model::ModelSummary summary = model::ModelSummary::of(file);
        summary.checks.emplace();
        for (std::string_view c : engine::preparation_checks()) summary.checks->ran.emplace_back(c);
        std::exception_ptr failure;
        try {
            (void)engine::prepare_model(std::move(file));
        } catch (const Error& e) {
            summary.checks->failure = e.what();
            failure = std::current_exception();
        }
        if (opt->json)
            std::cout << dump_json(summary.to_json(), 2) << "\n";
        else
            std::cout << summary.to_text();
        std::cout.flush();
        if (failure) std::rethrow_exception(failure);  // the one-line error, exit 1
    });
}

}  // namespace lmscope::cli
