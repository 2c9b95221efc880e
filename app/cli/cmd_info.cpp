// lmscope-cli info MODEL.gguf [--json]: validates a GGUF file and prints what it holds.
#include "cli/commands.h"

#include "gguf/gguf.h"

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
        std::cout << opt->model << ": GGUF v" << file.version() << ", " << file.metadata().size()
                  << " metadata keys, " << file.tensors().size() << " tensors\n";
    });
}

}  // namespace lmscope::cli
