// Shared by the libFuzzer harnesses (one .cpp each, defining LLVMFuzzerTestOneInput) and the
// replay runner that CTest uses in the normal build.
//
// A harness feeds hostile bytes to one loader. lmscope::Error (FormatError, IoError,
// UnsupportedError, UsageError) is the documented way to refuse them, so the harnesses catch
// exactly that; anything else escaping (std::bad_alloc, std::out_of_range, a JSON library
// exception), and every sanitizer report, is a bug the fuzzer reports as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace lmscope::fuzz {

// The shared test data folder: $LMSCOPE_TESTDATA, else the one the build was configured with.
inline std::string testdata_dir() {
    if (const char* env = std::getenv("LMSCOPE_TESTDATA"); env != nullptr && *env != '\0')
        return env;
    return LMSCOPE_FUZZ_TESTDATA_DIR;
}

}  // namespace lmscope::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
