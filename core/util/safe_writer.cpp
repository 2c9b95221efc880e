#include "util/safe_writer.h"

#include "util/error.h"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace lmscope {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxLinks = 40;  // as the kernel's limit on links followed in one lookup
constexpr size_t kMaxTempStem = 200;  // the temporary's name stays under NAME_MAX

std::string errno_text(int err) { return std::strerror(err); }

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// What `path` names once symbolic links in its last component are followed.
struct Target {
    fs::path file;
    bool exists = false;
    struct stat st {};
};

Target resolve(const std::string& path) {
    if (path.empty()) throw UsageError("the output path is empty");
    Target t;
    t.file = path;
    for (int hops = 0;; ++hops) {
        if (::lstat(t.file.c_str(), &t.st) != 0) {
            const int err = errno;
            if (err == ENOENT) return t;  // a new file (a dangling link's target)
            throw IoError(path + ": cannot check the output: " + errno_text(err));
        }
        if (!S_ISLNK(t.st.st_mode)) break;
        if (hops == kMaxLinks) throw IoError(path + ": cannot check the output: " + errno_text(ELOOP));
        char buf[PATH_MAX];
        const ssize_t n = ::readlink(t.file.c_str(), buf, sizeof(buf));
        if (n < 0 || size_t(n) >= sizeof(buf)) {
            const int err = n < 0 ? errno : ENAMETOOLONG;
            throw IoError(path + ": cannot read the symbolic link: " + errno_text(err));
        }
        const fs::path next(std::string(buf, size_t(n)));
        t.file = next.is_absolute() ? next : t.file.parent_path() / next;
    }
    t.exists = true;
    if (!S_ISREG(t.st.st_mode))
        throw IoError(path + ": is " + kind_of(t.st.st_mode) + ", not a regular file: refusing to replace it");
    return t;
}

// A file the user may not write is not replaced either (the rename would only need the
// folder's permission), nor one another user owns (it would become the user's). Root keeps
// the owner instead (commit's file gets the old one's).
void refuse_foreign(const std::string& path, const Target& t) {
    if (!t.exists) return;
    if (::faccessat(AT_FDCWD, t.file.c_str(), W_OK, AT_EACCESS) != 0)
        throw IoError(path + ": you may not write it (" + errno_text(errno) + "): refusing to replace it");
    if (t.st.st_uid != ::geteuid() && ::geteuid() != 0)
        throw IoError(path + ": belongs to another user (uid " + std::to_string(t.st.st_uid) +
                      "): refusing to replace it");
}

void refuse_inputs(const std::string& path, const Target& t, const std::vector<std::string>& inputs) {
    if (!t.exists) return;
    for (const std::string& in : inputs) {
        struct stat st {};
        if (::stat(in.c_str(), &st) == 0 && st.st_dev == t.st.st_dev && st.st_ino == t.st.st_ino)
            throw UsageError(path + ": is the same file as the input " + in + ": refusing to overwrite it");
    }
}

std::string temp_name(const std::string& name, std::mt19937_64& rng) {
    static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string s(1, '.');
    s.append(name, 0, kMaxTempStem).append(".tmp-");
    for (int i = 0; i < 8; ++i) s += kChars[rng() % (sizeof(kChars) - 1)];
    return s;
}

}  // namespace

SafeWriter::SafeWriter(std::string path, const std::vector<std::string>& inputs) : path_(std::move(path)) {
    try {
        open_temporary(inputs);
    } catch (...) {
        release();  // a constructor that throws gets no destructor
        throw;
    }
}

void SafeWriter::open_temporary(const std::vector<std::string>& inputs) {
    const Target t = resolve(path_);
    refuse_inputs(path_, t, inputs);
    refuse_foreign(path_, t);
    name_ = t.file.filename().string();
    const fs::path dir = t.file.has_parent_path() ? t.file.parent_path() : fs::path(".");
    dir_fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd_ < 0) fail("cannot open its folder", errno);
    std::mt19937_64 rng(std::random_device{}());
    for (int attempt = 0; fd_ < 0; ++attempt) {
        tmp_ = temp_name(name_, rng);
        fd_ = ::openat(dir_fd_, tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd_ < 0 && (errno != EEXIST || attempt == 100)) {
            const int err = errno;
            tmp_.clear();
            fail("cannot create a temporary file beside it", err);
        }
    }
    if (t.exists && ::fchmod(fd_, t.st.st_mode & 07777) != 0) fail("cannot set the permissions", errno);
    if (t.exists && ::geteuid() == 0 && (t.st.st_uid != 0 || t.st.st_gid != ::getegid()) &&
        ::fchown(fd_, t.st.st_uid, t.st.st_gid) != 0)
        fail("cannot keep the owner", errno);
}

SafeWriter::~SafeWriter() { release(); }

void SafeWriter::release() noexcept {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !tmp_.empty()) ::unlinkat(dir_fd_, tmp_.c_str(), 0);
    if (dir_fd_ >= 0) ::close(dir_fd_);
    fd_ = dir_fd_ = -1;
    tmp_.clear();
}

void SafeWriter::fail(const char* what, int err) const {
    throw IoError(path_ + ": " + what + ": " + errno_text(err));
}

void SafeWriter::write(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    size_t done = 0;
    while (done < size) {
        const ssize_t w = ::write(fd_, p + done, size - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) fail("write failed", w == 0 ? ENOSPC : errno);  // no progress: a full device
        done += size_t(w);
    }
}

void SafeWriter::commit() {
    if (::fsync(fd_) != 0) fail("fsync failed", errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("close failed", errno);
    // The target may have changed since the constructor looked: replace only a regular file.
    struct stat st {};
    if (::fstatat(dir_fd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
        throw IoError(path_ + ": became " + std::string(S_ISLNK(st.st_mode) ? "a symbolic link" : kind_of(st.st_mode)) +
                      " while it was written: refusing to replace it");
    if (::renameat(dir_fd_, tmp_.c_str(), dir_fd_, name_.c_str()) != 0) fail("cannot replace it", errno);
    committed_ = true;
    (void)::fsync(dir_fd_);  // makes the rename durable; the file is in place whatever this returns
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
    struct Identity {
        dev_t dev;
        ino_t ino;
        std::string name;  // a file not there yet: its name in the folder (dev, ino)
        bool operator==(const Identity&) const = default;
    };
    std::vector<Identity> ids;
    for (const auto& [option, path] : outputs) {
        const Target t = resolve(path);
        const fs::path folder = t.file.has_parent_path() ? t.file.parent_path() : fs::path(".");
        struct stat dir {};
        if (t.exists) ids.push_back({t.st.st_dev, t.st.st_ino, {}});
        else if (::stat(folder.c_str(), &dir) == 0) ids.push_back({dir.st_dev, dir.st_ino, t.file.filename().string()});
        else ids.push_back({0, 0, fs::absolute(t.file).lexically_normal().string()});
        for (size_t k = 0; k + 1 < ids.size(); ++k)
            if (ids[k] == ids.back())
                throw UsageError(option + ": " + path + " is the same file as " + outputs[k].first + " " +
                                 outputs[k].second + ": one would replace the other");
    }
}

void check_output_path(const std::string& path, const std::vector<std::string>& inputs) {
    SafeWriter probe(path, inputs);  // its destructor removes the empty temporary
}

void write_file_safely(const std::string& path, const void* data, size_t size, const std::vector<std::string>& inputs) {
    SafeWriter w(path, inputs);
    w.write(data, size);
    w.commit();
}

}  // namespace lmscope
