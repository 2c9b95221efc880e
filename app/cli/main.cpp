// lmscope-cli entry point: parses the command line, runs one subcommand, and reports errors
// as one line on stderr. Exit codes: 0 success, 1 runtime error, 2 usage error.
#include "cli/commands.h"
#include "cli/output.h"
#include "backend_factory.h"

#include "lmscope_version.h"
#include "util/cpu_info.h"
#include "util/error.h"
#include "util/message.h"

#ifdef LMSCOPE_HAVE_CUDA
#include "gpu/devices.h"
#endif

#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>

namespace {

constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;

void print_version() {
    std::cout << "lmscope-cli " << LMSCOPE_VERSION << "\n";
    std::cout << "cpu: compiled, " << lmscope::describe_cpu() << "\n";
#ifdef LMSCOPE_HAVE_CUDA
    std::cout << lmscope::gpu::describe(lmscope::gpu::query_devices()) << "\n";
#else
    std::cout << "cuda: not compiled\n";
#endif
}

// One line on stderr, sanitized (util/message.h): a message quotes file names, fields and
// arguments, which may hold newlines, terminal escapes or invalid UTF-8.
// The exception being handled is the error.
int report(int code, const std::string& suffix = {}) {
    const std::string message = lmscope::exception_message(std::current_exception());
    std::fprintf(stderr, "lmscope-cli: error: %s%s\n", message.c_str(), suffix.c_str());
    return code;
}

// Prints the help asked for; a failed write (a full disk, a closed pipe) is an error too.
int help(const CLI::App& app, const CLI::Error& e) {
    const int code = app.exit(e);
    try {
        lmscope::cli::check_stdout();
    } catch (...) {
        return report(kExitRuntime);
    }
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"lmscope-cli: run a language model one step at a time and look inside", "lmscope-cli"};
    app.require_subcommand(0, 1);
    lmscope::app::register_compiled_backends();  // "cuda" when this build has it
    bool version = false;
    app.add_flag("--version", version, "Print the version, the compiled backends and the devices found");

    lmscope::cli::add_info_command(app);
    lmscope::cli::add_kv_command(app);
    lmscope::cli::add_dump_command(app);
    lmscope::cli::add_bench_command(app);
    lmscope::cli::add_tokenize_command(app);
    lmscope::cli::add_replay_command(app);
    lmscope::cli::add_run_command(app);
    lmscope::cli::add_quantize_command(app);

    // A closed pipe (run ... | head) is a write error, reported once the trace is saved.
    std::signal(SIGPIPE, SIG_IGN);
    lmscope::cli::route_stdout();
    try {
        app.parse(argc, argv);
        if (version) print_version();
        if (!version && app.get_subcommands().empty()) {
            std::cerr << app.help();
            return kExitUsage;
        }
        lmscope::cli::check_stdout();
        return 0;
    } catch (const CLI::CallForHelp& e) {
        return help(app, e);  // the help of the subcommand asked about
    } catch (const CLI::CallForAllHelp& e) {
        return help(app, e);
    } catch (const CLI::ParseError&) {
        return report(kExitUsage, " (see lmscope-cli --help)");
    } catch (const lmscope::UsageError&) {
        return report(kExitUsage);
    } catch (...) {
        return report(kExitRuntime);
    }
}
