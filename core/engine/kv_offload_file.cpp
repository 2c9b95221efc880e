#include "engine/kv_offload_file.h"

#include "util/error.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace lmscope::engine {

namespace {

std::string temp_folder() {
    const char* dir = std::getenv("TMPDIR");
    return dir && *dir ? std::string(dir) : std::string("/tmp");
}

}  // namespace

KvOffloadFile::KvOffloadFile(uint64_t max_bytes) : max_bytes_(max_bytes) {
    std::string name = temp_folder() + "/lmscope-kv-XXXXXX";
    std::vector<char> buf(name.begin(), name.end());
    buf.push_back('\0');
    // mkostemp: O_CREAT | O_EXCL, mode 0600
    fd_ = mkostemp(buf.data(), O_CLOEXEC);
    if (fd_ < 0)
        throw IoError("KV offload file in " + temp_folder() + ": cannot create it: " + std::strerror(errno));
    path_ = buf.data();
    if (::unlink(path_.c_str()) != 0) {
        const int err = errno;
        ::close(fd_);
        throw IoError("KV offload file " + path_ + ": cannot unlink it after opening: " + std::strerror(err));
    }
}

KvOffloadFile::~KvOffloadFile() {
    if (fd_ >= 0) ::close(fd_);
}

void KvOffloadFile::check_range(uint64_t offset, size_t n, const char* what) const {
    if (offset > max_bytes_ || n > max_bytes_ - offset)
        throw UsageError("KV offload file " + path_ + ": " + what + " of " + std::to_string(n) + " bytes at " +
                         std::to_string(offset) + " is past its bound of " + std::to_string(max_bytes_) + " bytes");
}

void KvOffloadFile::write(uint64_t offset, const void* data, size_t n) {
    check_range(offset, n, "a write");
    const auto* p = static_cast<const uint8_t*>(data);
    while (n > 0) {
        const ssize_t w = ::pwrite(fd_, p, n, off_t(offset));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0)  // a full disk, a file-size limit: nothing of the page may be read back as written
            throw IoError("KV offload file " + path_ + ": cannot write " + std::to_string(n) + " bytes at " +
                          std::to_string(offset) + ": " + (w < 0 ? std::strerror(errno) : "nothing written"));
        p += w, offset += uint64_t(w), n -= size_t(w);
    }
}

void KvOffloadFile::read(uint64_t offset, void* data, size_t n) const {
    check_range(offset, n, "a read");
    auto* p = static_cast<uint8_t*>(data);
    while (n > 0) {
        const ssize_t r = ::pread(fd_, p, n, off_t(offset));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            throw IoError("KV offload file " + path_ + ": cannot read " + std::to_string(n) + " bytes at " +
                          std::to_string(offset) + ": " + (r < 0 ? std::strerror(errno) : "the file ends before them"));
        p += r, offset += uint64_t(r), n -= size_t(r);
    }
}

}  // namespace lmscope::engine
