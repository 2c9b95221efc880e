// Tokenizer benchmark (not a test): tokens per second on about 1 MB of English and of Chinese
// text for each tokenizer given, after one warm-up pass (so the BPE cache is warm); the
// warm-up's own time is printed as the cold pass.
//   bench_tokenizer TOKENIZER... [--english FILE] [--chinese FILE]
// Without --english the license texts under /usr/share/common-licenses are used; without
// --chinese a built-in paragraph is repeated.
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace lmscope;

namespace {

constexpr size_t kTarget = 1u << 20;

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path + ": cannot open");
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string grow(std::string seed) {
    if (seed.empty()) throw UsageError("empty benchmark text");
    std::string out;
    while (out.size() < kTarget) out += seed;
    return out;
}

std::string default_english() {
    std::string s;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/usr/share/common-licenses", ec))
        if (e.is_regular_file()) s += read_file(e.path().string());
    if (s.empty()) s = "The quick brown fox jumps over the lazy dog. ";
    return grow(s);
}

std::string default_chinese() {
    return grow(
        "\xE8\xAF\xAD\xE8\xA8\x80\xE6\xA8\xA1\xE5\x9E\x8B\xE6\x8A\x8A\xE6\x96\x87\xE6\x9C\xAC\xE5\x88\x87\xE6\x88\x90"
        "\xE8\xAF\x8D\xE5\x85\x83\xEF\xBC\x8C\xE5\x86\x8D\xE4\xB8\x80\xE6\xAD\xA5\xE4\xB8\x80\xE6\xAD\xA5\xE5\x9C\xB0"
        "\xE9\xA2\x84\xE6\xB5\x8B\xE4\xB8\x8B\xE4\xB8\x80\xE4\xB8\xAA\xE8\xAF\x8D\xE5\x85\x83\xE3\x80\x82\xE6\xB3\xA8"
        "\xE6\x84\x8F\xE5\x8A\x9B\xE5\x86\xB3\xE5\xAE\x9A\xE6\xAF\x8F\xE4\xB8\xAA\xE4\xBD\x8D\xE7\xBD\xAE\xE7\x9C\x8B"
        "\xE5\x90\x91\xE5\x93\xAA\xE9\x87\x8C\xEF\xBC\x8C\xE7\xBC\x93\xE5\xAD\x98\xE4\xBF\x9D\xE5\xAD\x98\xE5\xB7\xB2"
        "\xE7\xBB\x8F\xE7\xAE\x97\xE8\xBF\x87\xE7\x9A\x84\xE9\x94\xAE\xE5\x92\x8C\xE5\x80\xBC\xE3\x80\x82\n");
}

void bench(const tok::Tokenizer& t, const char* label, const std::string& text) {
    const auto cold0 = std::chrono::steady_clock::now();
    (void)t.encode_ids(text);  // warm-up (fills the BPE cache); timed as the cold pass
    const double cold = std::chrono::duration<double>(std::chrono::steady_clock::now() - cold0).count();
    size_t tokens = 0;
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int kRuns = 3;
    for (int i = 0; i < kRuns; ++i) tokens += t.encode_ids(text).size();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("  %-8s %7.2f MB  %9zu tokens/pass  %6.2f M tokens/s  %6.1f MB/s  (cold pass %.3f s)\n", label,
                text.size() / 1e6, tokens / kRuns, tokens / s / 1e6, kRuns * text.size() / s / 1e6, cold);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::vector<std::string> paths;
        std::string english, chinese;
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--english" && i + 1 < argc) english = grow(read_file(argv[++i]));
            else if (a == "--chinese" && i + 1 < argc) chinese = grow(read_file(argv[++i]));
            else paths.push_back(a);
        }
        if (paths.empty()) {
            std::fprintf(stderr, "usage: bench_tokenizer TOKENIZER... [--english FILE] [--chinese FILE]\n");
            return 2;
        }
        if (english.empty()) english = default_english();
        if (chinese.empty()) chinese = default_chinese();
        for (const std::string& p : paths) {
            const auto t = tok::load_tokenizer(p);
            std::printf("%s: %s\n", p.c_str(), t->describe().c_str());
            bench(*t, "english", english);
            bench(*t, "chinese", chinese);
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_tokenizer: error: %s\n", e.what());
        return 1;
    }
}
