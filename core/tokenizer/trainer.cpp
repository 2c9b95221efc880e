#include "tokenizer/trainer.h"

#include "util/error.h"

#include <sentencepiece_trainer.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <unordered_map>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lmscope::tok {

namespace fs = std::filesystem;

namespace {

// A fresh folder under the system's temporary directory, removed with everything in it.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "lmscope-spm-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw IoError("cannot create a temporary folder: " + std::string(std::strerror(errno)));
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const char* name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Runs in the child: trains, writes error.txt on failure, never returns.
[[noreturn]] void child_train(const std::unordered_map<std::string, std::string>& args, const TempDir& dir) {
    const int log = ::open(dir.file("log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (log >= 0) {
        ::dup2(log, STDERR_FILENO);
        ::dup2(log, STDOUT_FILENO);
        ::close(log);
    }
    int code = 0;
    try {
        const auto status = sentencepiece::SentencePieceTrainer::Train(args);
        if (!status.ok()) {
            std::ofstream(dir.file("error.txt")) << status.ToString();
            code = 1;
        }
    } catch (const std::exception& e) {
        std::ofstream(dir.file("error.txt")) << e.what();
        code = 1;
    }
    ::_exit(code);
}

}  // namespace

TrainResult train_sentencepiece(const TrainOptions& o, const std::atomic<bool>* cancel) {
    if (o.vocab_size < 8 || o.vocab_size > 1'000'000)
        throw UsageError("vocabulary size " + std::to_string(o.vocab_size) + " is outside 8..1000000");
    if (o.num_threads < 1 || o.num_threads > 256) throw UsageError("thread count must be 1..256");
    if (!(o.character_coverage > 0.0 && o.character_coverage <= 1.0))
        throw UsageError("character coverage must be in (0, 1]");
    TempDir dir;
    std::string input = o.corpus_file;
    if (input.empty()) {
        if (o.corpus_text.empty()) throw UsageError("the training corpus is empty");
        input = dir.file("corpus.txt");
        std::ofstream out(input, std::ios::binary);
        out << o.corpus_text;
        if (!out) throw IoError(input + ": cannot write the corpus");
    } else if (!fs::is_regular_file(input)) {
        throw IoError(input + ": no such corpus file");
    }
    const std::unordered_map<std::string, std::string> args = {
        {"input", input},
        {"model_prefix", dir.file("model")},
        {"model_type", o.model == TrainOptions::Model::Bpe ? "bpe" : "unigram"},
        {"vocab_size", std::to_string(o.vocab_size)},
        {"byte_fallback", o.byte_fallback ? "true" : "false"},
        {"split_digits", o.split_digits ? "true" : "false"},
        {"character_coverage", std::to_string(o.character_coverage)},
        {"num_threads", std::to_string(o.num_threads)},
    };

    const pid_t pid = ::fork();
    if (pid < 0) throw IoError("cannot start the trainer process: " + std::string(std::strerror(errno)));
    if (pid == 0) child_train(args, dir);

    int status = 0;
    for (;;) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) throw IoError("waiting for the trainer failed: " + std::string(std::strerror(errno)));
        if (cancel && cancel->load()) {
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            throw CancelledError();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    TrainResult result;
    result.log = slurp(dir.file("log.txt"));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::string why = slurp(dir.file("error.txt"));
        if (why.empty()) why = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status)) : "no message";
        throw Error("SentencePiece training failed: " + why);
    }
    result.serialized_model = slurp(dir.file("model.model"));
    if (result.serialized_model.empty()) throw Error("SentencePiece training wrote no model");
    return result;
}

}  // namespace lmscope::tok
