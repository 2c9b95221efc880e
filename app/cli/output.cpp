#include "cli/output.h"

#include "util/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <unistd.h>

namespace lmscope::cli {

namespace {

int stdio_error = 0;  // errno of the first failed flush of stdio's stdout

StdoutBuffer& stdout_buffer() {
    static StdoutBuffer buffer;
    return buffer;
}

}  // namespace

StdoutBuffer::StdoutBuffer() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }

StdoutBuffer::~StdoutBuffer() {
    drain();
    if (previous_ && std::cout.rdbuf() == this) std::cout.rdbuf(previous_);
}

bool StdoutBuffer::drain() {
    const char* p = pbase();
    while (error_ == 0 && p < pptr()) {
        const ssize_t w = ::write(STDOUT_FILENO, p, size_t(pptr() - p));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) error_ = w < 0 ? errno : EIO;
        else p += w;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());  // what could not be written is dropped
    return error_ == 0;
}

StdoutBuffer::int_type StdoutBuffer::overflow(int_type ch) {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) sputc(traits_type::to_char_type(ch));
    return traits_type::not_eof(ch);
}

int StdoutBuffer::sync() { return drain() ? 0 : -1; }

void route_stdout() { stdout_buffer().set_previous(std::cout.rdbuf(&stdout_buffer())); }

bool stdout_ok() {
    std::cout.flush();
    // printf's output (bench, kv --list-presets) goes through stdio's own buffer.
    if (stdio_error == 0 && (std::fflush(stdout) != 0 || std::ferror(stdout))) stdio_error = errno != 0 ? errno : EIO;
    return stdout_buffer().error() == 0 && stdio_error == 0;
}

void check_stdout() {
    if (stdout_ok()) return;
    const int err = stdout_buffer().error() != 0 ? stdout_buffer().error() : stdio_error;
    throw IoError(std::string("stdout: write failed: ") + std::strerror(err));
}

}  // namespace lmscope::cli
