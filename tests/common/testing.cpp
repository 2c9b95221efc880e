#include "common/testing.h"

#include "util/error.h"

#include <QProcess>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lmscope::testing {

namespace fs = std::filesystem;

static std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return (v && *v) ? std::string(v) : std::string(fallback);
}

std::string testdata_dir() {
    std::string dir = env_or("LMSCOPE_TESTDATA", "../shared/testdata");
    std::error_code ec;
    return fs::is_directory(dir, ec) ? dir : std::string();
}

std::string testdata_file(const std::string& relative) {
    std::string dir = testdata_dir();
    if (dir.empty()) return {};
    std::string p = dir + "/" + relative;
    std::error_code ec;
    return fs::is_regular_file(p, ec) ? p : std::string();
}

static std::string file_from_env(const char* name) {
    std::string p = env_or(name, "");
    std::error_code ec;
    return (!p.empty() && fs::is_regular_file(p, ec)) ? p : std::string();
}

std::string sample_model() { return file_from_env("LMSCOPE_SAMPLE_MODEL"); }

std::string gemma_model() { return file_from_env("LMSCOPE_GEMMA_MODEL"); }

std::string sample_tokenizer(const std::string& name) {
    const std::string dir = env_or("LMSCOPE_SAMPLE_TOKENIZERS", "");
    if (dir.empty()) return {};
    const std::string p = dir + "/" + name;
    std::error_code ec;
    return fs::is_regular_file(p, ec) ? p : std::string();
}

std::string cli_path() { return env_or("LMSCOPE_CLI", "lmscope-cli"); }

CliRun run_cli(const QStringList& args, const QByteArray& input, int timeout_ms) {
    QProcess p;
    p.start(QString::fromStdString(cli_path()), args);
    CliRun r;
    if (!p.waitForStarted()) return r;
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path + ": cannot open");
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return bytes;
}

bool wait_for(QSignalSpy& spy, int count, int timeout_ms) {
    while (spy.count() < count)
        if (!spy.wait(timeout_ms)) return spy.count() >= count;
    return true;
}

std::vector<float> read_f32_file(const std::string& path) {
    std::vector<uint8_t> bytes = read_bytes(path);
    if (bytes.size() % 4 != 0) throw IoError(path + ": size is not a multiple of 4");
    std::vector<float> out(bytes.size() / 4);
    std::memcpy(out.data(), bytes.data(), bytes.size());  // little-endian host assumed (x86-64)
    return out;
}

CompareResult compare(std::span<const float> actual, std::span<const float> expected,
                      double atol, double rtol) {
    CompareResult r;
    std::ostringstream msg;
    if (actual.size() != expected.size()) {
        r.ok = false;
        msg << "size mismatch: actual " << actual.size() << ", expected " << expected.size();
        r.message = msg.str();
        return r;
    }
    r.count = actual.size();
    double sum_sq = 0.0, mean = 0.0, m2 = 0.0;
    bool have_bad = false;
    for (size_t i = 0; i < actual.size(); ++i) {
        const double e = expected[i], a = actual[i];
        // Welford for the std of expected.
        const double delta = e - mean;
        mean += delta / double(i + 1);
        m2 += delta * (e - mean);
        if (!std::isfinite(a) && std::isfinite(e)) {
            ++r.n_nonfinite;
            if (!have_bad) { r.first_bad = i; have_bad = true; }
            continue;
        }
        const double d = std::fabs(a - e);
        if (std::isfinite(d)) {
            sum_sq += d * d;
            r.max_abs = std::max(r.max_abs, d);
        }
        if (!(d <= atol + rtol * std::fabs(e))) {
            ++r.n_bad;
            if (!have_bad) { r.first_bad = i; have_bad = true; }
        }
    }
    r.rms = r.count ? std::sqrt(sum_sq / double(r.count)) : 0.0;
    r.expected_std = r.count > 1 ? std::sqrt(m2 / double(r.count)) : 0.0;
    r.ok = r.n_bad == 0 && r.n_nonfinite == 0;
    msg << r.count << " values, atol " << atol << " rtol " << rtol << ": " << r.n_bad
        << " outside, " << r.n_nonfinite << " non-finite, max|d| " << r.max_abs << ", rms "
        << r.rms << ", std(expected) " << r.expected_std;
    if (have_bad)
        msg << "; first at [" << r.first_bad << "]: actual " << actual[r.first_bad]
            << " expected " << expected[r.first_bad];
    r.message = msg.str();
    return r;
}

double rel_rms(std::span<const float> actual, std::span<const float> expected) {
    double num = 0, den = 0;
    for (size_t i = 0; i < expected.size() && i < actual.size(); ++i) {
        const double d = double(actual[i]) - double(expected[i]);
        num += d * d;
        den += double(expected[i]) * double(expected[i]);
    }
    return std::sqrt(num / den);
}

double mean_kl_rows(std::span<const float> actual, std::span<const float> expected, size_t row_len) {
    if (row_len == 0 || actual.size() != expected.size() || actual.size() % row_len != 0)
        return INFINITY;
    const size_t rows = actual.size() / row_len;
    double total = 0.0;
    for (size_t r = 0; r < rows; ++r) {
        const float* a = actual.data() + r * row_len;
        const float* e = expected.data() + r * row_len;
        double ma = -INFINITY, me = -INFINITY;
        for (size_t i = 0; i < row_len; ++i) { ma = std::max(ma, double(a[i])); me = std::max(me, double(e[i])); }
        double za = 0.0, ze = 0.0;
        for (size_t i = 0; i < row_len; ++i) { za += std::exp(a[i] - ma); ze += std::exp(e[i] - me); }
        const double lza = std::log(za), lze = std::log(ze);
        double kl = 0.0;
        for (size_t i = 0; i < row_len; ++i) {
            const double lpe = e[i] - me - lze, lpa = a[i] - ma - lza;
            kl += std::exp(lpe) * (lpe - lpa);
        }
        total += kl;
    }
    return total / double(rows);
}

}  // namespace lmscope::testing
