// Replays saved fuzzer inputs through one harness without libFuzzer (the normal gcc build):
//   lmscope-fuzz-replay-NAME PATH...   each PATH is a file or a folder (its files, sorted)
// A missing PATH is reported and skipped (the derived seeds need ../shared/testdata). A crash,
// a sanitizer report or an escaping exception fails the run like it fails the fuzzer.
#include "fuzz_common.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path p(argv[i]);
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            for (const fs::directory_entry& e : fs::directory_iterator(p))
                if (e.is_regular_file()) files.push_back(e.path());
        } else if (fs::is_regular_file(p, ec)) {
            files.push_back(p);
        } else {
            std::printf("replay: %s is absent, skipped\n", argv[i]);
        }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        const std::vector<uint8_t> bytes = read_all(f);
        std::printf("replay: %s (%zu bytes)\n", f.c_str(), bytes.size());
        std::fflush(stdout);
        // A null pointer for the empty input, as libFuzzer may pass.
        LLVMFuzzerTestOneInput(bytes.empty() ? nullptr : bytes.data(), bytes.size());
    }
    std::printf("replay: %zu inputs passed\n", files.size());
    return 0;
}
