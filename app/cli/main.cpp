// lmscope-cli entry point: parses the command line, runs one subcommand, and reports errors
// as one line on stderr. Exit codes (DESIGN §4): 0 success, 1 runtime error, 2 usage error.
#include "cli/commands.h"
#include "backend_factory.h"

#include "lmscope_version.h"
#include "util/cpu_info.h"
#include "util/error.h"

#ifdef LMSCOPE_HAVE_CUDA
#include "gpu/devices.h"
#endif

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

int report(const char* what, int code) {
    std::fprintf(stderr, "lmscope-cli: error: %s\n", what);
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

    try {
        app.parse(argc, argv);
        if (version) {
            print_version();
            return 0;
        }
        if (app.get_subcommands().empty()) {
            std::cerr << app.help();
            return kExitUsage;
        }
        return 0;
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);  // prints the help of the subcommand asked about
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string msg = e.what();
        msg += " (see lmscope-cli --help)";
        return report(msg.c_str(), kExitUsage);
    } catch (const lmscope::UsageError& e) {
        return report(e.what(), kExitUsage);
    } catch (const lmscope::Error& e) {
        return report(e.what(), kExitRuntime);
    } catch (const std::bad_alloc&) {
        return report("out of memory", kExitRuntime);
    } catch (const std::exception& e) {
        return report(e.what(), kExitRuntime);
    }
}
