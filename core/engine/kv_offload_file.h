// The KV cache's second tier on the CPU backend: a private temporary file that older pages of
// the global layers are written to (pwrite) and streamed back from (pread) each step, so that
// they leave the process's memory.
//
// The file is created exclusively (mkostemp: mode 0600, a fresh name in $TMPDIR or /tmp) and
// unlinked at once, so only this process's descriptor reaches it and it vanishes when the
// descriptor closes: on exit, on a crash or a signal. Its size is bounded by the caller's
// `max_bytes` (the context's pages of every global layer). A full disk, a file-size limit or a
// short read is an IoError naming the file, never a wrong result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace lmscope::engine {

class KvOffloadFile {
public:
    // Throws IoError naming the folder when the file cannot be created.
    explicit KvOffloadFile(uint64_t max_bytes);
    ~KvOffloadFile();
    KvOffloadFile(const KvOffloadFile&) = delete;
    KvOffloadFile& operator=(const KvOffloadFile&) = delete;

    const std::string& path() const { return path_; }  // as created (already unlinked)
    uint64_t max_bytes() const { return max_bytes_; }

    // bytes [offset, offset + n) of the file; UsageError past max_bytes, IoError on failure.
    void write(uint64_t offset, const void* data, size_t n);
    void read(uint64_t offset, void* data, size_t n) const;

private:
    void check_range(uint64_t offset, size_t n, const char* what) const;

    int fd_ = -1;
    std::string path_;
    uint64_t max_bytes_ = 0;
};

}  // namespace lmscope::engine
