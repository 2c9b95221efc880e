#include "util/bounded_file.h"

#include "util/error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lmscope {

namespace {

std::string limit_text(size_t max_bytes) {
    if (max_bytes >= (size_t(1) << 20) && max_bytes % (size_t(1) << 20) == 0)
        return std::to_string(max_bytes >> 20) + " MiB";
    return std::to_string(max_bytes) + " bytes";
}

// Closes the descriptor on every path out, keeping the errno of the failure being reported.
struct Fd {
    int fd;
    ~Fd() {
        const int saved = errno;
        ::close(fd);
        errno = saved;
    }
};

}  // namespace

std::string read_bounded(const std::string& path, size_t max_bytes) {
    const auto too_large = [&] { return FormatError(path, "size", "larger than the " + limit_text(max_bytes) + " allowed"); };
    // O_NONBLOCK: opening a FIFO that no one writes returns at once (then reads end-of-file)
    // instead of waiting forever; reads block again after it.
    const Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)};
    if (f.fd < 0) throw IoError(path + ": cannot open: " + std::strerror(errno));
    const int flags = ::fcntl(f.fd, F_GETFL);
    if (flags < 0 || ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        throw IoError(path + ": cannot open: " + std::strerror(errno));
    struct stat st{};
    if (::fstat(f.fd, &st) != 0) throw IoError(path + ": cannot open: " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw IoError(path + ": is a directory");
    if (S_ISREG(st.st_mode) && uint64_t(st.st_size) > max_bytes) throw too_large();
    std::string bytes;
    if (S_ISREG(st.st_mode)) bytes.reserve(size_t(st.st_size));
    char chunk[1 << 16];
    for (;;) {
        const ssize_t n = ::read(f.fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw IoError(path + ": read failed: " + std::strerror(errno));
        if (n == 0) return bytes;
        if (size_t(n) > max_bytes - bytes.size()) throw too_large();  // grew while read, or no size to check
        bytes.append(chunk, size_t(n));
    }
}

}  // namespace lmscope
