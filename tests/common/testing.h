// Shared helpers for the Qt Test suites: where the test data lives, and a fuzzy comparison
// of float arrays (tolerance = absolute + relative, non-finite values reported).
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QtTest>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lmscope::testing {

// ../shared/testdata (or $LMSCOPE_TESTDATA); empty when the folder is absent.
std::string testdata_dir();
// testdata_dir()/relative; empty when the folder or the file is absent.
std::string testdata_file(const std::string& relative);
// The sample model (SmolLM2-135M Q4_1), or empty when it has not been fetched.
std::string sample_model();
// The second sample model (Gemma 3 270M Q4_K_M), or empty when it has not been fetched.
std::string gemma_model();
// A tokenizer file fetched beside it (sample_models/tokenizers/NAME: cl100k_base.tiktoken.gz,
// o200k_base.tiktoken.gz, bert-base-uncased-vocab.txt), or empty when it has not been fetched.
std::string sample_tokenizer(const std::string& name);
// The lmscope-cli binary built beside the tests.
std::string cli_path();

// Built with AddressSanitizer (the asan preset; the tests and lmscope-cli share the flags).
// ASan reserves terabytes of address space for its shadow memory and keeps freed memory in
// quarantine, so the tests skip what measures resident memory or runs under ulimit -v.
#if defined(__has_feature)
#define LMSCOPE_HAS_FEATURE(x) __has_feature(x)  // clang
#else
#define LMSCOPE_HAS_FEATURE(x) 0
#endif
inline constexpr bool kAddressSanitizer =
#if defined(__SANITIZE_ADDRESS__) || LMSCOPE_HAS_FEATURE(address_sanitizer)
    true;
#else
    false;
#endif
// Built with ThreadSanitizer (the tsan preset).
inline constexpr bool kThreadSanitizer =
#if defined(__SANITIZE_THREAD__) || LMSCOPE_HAS_FEATURE(thread_sanitizer)
    true;
#else
    false;
#endif

// A timeout for work that runs several times slower under a sanitizer (ASan about 3x, TSan
// about 10x): `ms` in a normal build, more under one.
constexpr int sanitizer_timeout_ms(int ms) {
    return kThreadSanitizer ? ms * 10 : kAddressSanitizer ? ms * 4 : ms;
}

// One run of the built lmscope-cli (see cli_path()).
struct CliRun {
    int code = -1;     // exit code; -1 when it crashed, did not start or timed out
    QByteArray out;    // stdout
    QByteArray err;    // stderr
};
// Runs lmscope-cli with `args`, feeding `input` on stdin; kills it after timeout_ms.
CliRun run_cli(const QStringList& args, const QByteArray& input = {}, int timeout_ms = 600000);

// Waits until `spy` holds `count` signals, up to `timeout_ms` for each wait (a signal may have
// come before the wait starts: engines and jobs run on their own threads).
bool wait_for(QSignalSpy& spy, int count = 1, int timeout_ms = 60000);

// Reads a whole file of little-endian float32 values. Throws lmscope::IoError.
std::vector<float> read_f32_file(const std::string& path);
// Reads a whole file. Throws lmscope::IoError.
std::vector<uint8_t> read_bytes(const std::string& path);

struct CompareResult {
    bool ok = true;
    size_t count = 0;
    size_t n_bad = 0;          // elements outside atol + rtol * |expected|
    size_t n_nonfinite = 0;    // NaN/Inf in actual where expected is finite
    size_t first_bad = 0;      // index of the first failure
    double max_abs = 0.0;      // max |actual - expected|
    double rms = 0.0;          // sqrt(mean((actual - expected)^2))
    double expected_std = 0.0; // standard deviation of expected
    std::string message;       // human-readable summary for QVERIFY2
};

// Elementwise |a - e| <= atol + rtol * |e|; a size mismatch fails.
CompareResult compare(std::span<const float> actual, std::span<const float> expected,
                      double atol, double rtol);

// sqrt(sum (a - e)^2 / sum e^2): the rms error relative to the rms of the reference.
double rel_rms(std::span<const float> actual, std::span<const float> expected);

// Mean over rows of KL(softmax(expected_row) || softmax(actual_row)).
double mean_kl_rows(std::span<const float> actual, std::span<const float> expected, size_t row_len);

}  // namespace lmscope::testing

// Skip the current test with a clear message when a data file is missing.
#define LMSCOPE_REQUIRE_FILE(path_var, what)                                                  \
    do {                                                                                      \
        if ((path_var).empty())                                                               \
            QSKIP(qPrintable(QStringLiteral("%1 is absent: run sample_models/fetch.sh or "    \
                                            "place ../shared/testdata beside the checkout")   \
                                 .arg(QStringLiteral(what))));                                \
    } while (0)

// QVERIFY2 on a CompareResult.
#define LMSCOPE_VERIFY_CLOSE(result) QVERIFY2((result).ok, (result).message.c_str())
