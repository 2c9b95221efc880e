// lmscope-spm-train: SentencePiece training in a process of its own, started by
// tok::train_sentencepiece (trainer.cpp), which can then stop it at any moment.
//
//   lmscope-spm-train FOLDER key=value...
//
// The key=value pairs are SentencePieceTrainer's flags (input, model_prefix, model_type, ...).
// On failure it writes the reason to FOLDER/error.txt and exits 1; usage errors exit 2. What the
// trainer logs goes to stderr, which the caller sends to a file.
#include <sentencepiece_trainer.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <unordered_map>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: lmscope-spm-train FOLDER key=value...\n");
        return 2;
    }
    const std::string error_file = std::string(argv[1]) + "/error.txt";
    std::unordered_map<std::string, std::string> flags;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const size_t eq = arg.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::ofstream(error_file) << "lmscope-spm-train: expected key=value, got '" << arg << "'";
            return 2;
        }
        flags[arg.substr(0, eq)] = arg.substr(eq + 1);
    }
    try {
        const auto status = sentencepiece::SentencePieceTrainer::Train(flags);
        if (!status.ok()) {
            std::ofstream(error_file) << status.ToString();
            return 1;
        }
    } catch (const std::exception& e) {
        std::ofstream(error_file) << e.what();
        return 1;
    }
    return 0;
}
