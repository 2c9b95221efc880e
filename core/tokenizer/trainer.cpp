#include "tokenizer/trainer.h"

#include "tokenizer/tokenizer.h"
#include "tokenizer/wordpiece_trainer.h"
#include "util/error.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
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
    std::string path() const { return path_.string(); }

private:
    fs::path path_;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool is_executable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

// Starts the trainer program with its stdout and stderr in `log`; returns its process id.
pid_t spawn_trainer(const std::string& program, const std::vector<std::string>& args, const std::string& log) {
    std::vector<char*> argv;
    argv.reserve(args.size() + 2);
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) throw IoError("cannot start the trainer process: out of memory");
    int rc = posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = -1;
    if (rc == 0) rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw IoError(program + ": cannot start the trainer process: " + std::strerror(rc));
    return pid;
}

}  // namespace

std::string trainer_program() {
    if (const char* env = std::getenv("LMSCOPE_SPM_TRAIN"); env && *env) {
        if (!is_executable(env)) throw IoError(std::string(env) + " (LMSCOPE_SPM_TRAIN): not an executable program");
        return env;
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::string beside = (self.parent_path() / "lmscope-spm-train").string();
        if (is_executable(beside)) return beside;
    }
    if (is_executable(LMSCOPE_SPM_TRAIN_BUILT)) return LMSCOPE_SPM_TRAIN_BUILT;  // a build tree
    throw IoError("cannot find the trainer program lmscope-spm-train beside " +
                  (ec ? std::string("this program") : self.parent_path().string()) + " (or set LMSCOPE_SPM_TRAIN)");
}

TrainResult train_sentencepiece(const TrainOptions& o, const CancelToken* cancel) {
    if (o.model == TrainOptions::Model::WordPiece)
        throw UsageError("WordPiece is not a SentencePiece model (train_tokenizer trains it)");
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
    const std::vector<std::string> args = {
        dir.path(),
        "input=" + input,
        "model_prefix=" + dir.file("model"),
        std::string("model_type=") + (o.model == TrainOptions::Model::Bpe ? "bpe" : "unigram"),
        "vocab_size=" + std::to_string(o.vocab_size),
        std::string("byte_fallback=") + (o.byte_fallback ? "true" : "false"),
        std::string("split_digits=") + (o.split_digits ? "true" : "false"),
        "character_coverage=" + std::to_string(o.character_coverage),
        "num_threads=" + std::to_string(o.num_threads),
    };
    const pid_t pid = spawn_trainer(trainer_program(), args, dir.file("log.txt"));

    int status = 0;
    for (;;) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) throw IoError("waiting for the trainer failed: " + std::string(std::strerror(errno)));
        if (cancel && cancel->cancelled()) {
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

std::unique_ptr<Tokenizer> train_tokenizer(const TrainOptions& o, const CancelToken* cancel) {
    if (o.model == TrainOptions::Model::WordPiece) return train_wordpiece(o, cancel);
    return load_sentencepiece_model(train_sentencepiece(o, cancel).serialized_model, "trained SentencePiece model");
}

}  // namespace lmscope::tok
