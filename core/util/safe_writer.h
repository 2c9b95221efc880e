// The one way lmscope writes a user's file (traces, dumps, GGUF files, chart exports), so a
// failed or hostile write never destroys what was there:
//   - the path may be absent or a regular file; a symbolic link is written through to the
//     regular file it names (the link stays); anything else that exists (a directory, a
//     character or block device, a FIFO, a socket) is refused, never replaced;
//   - an output that is the same file (st_dev, st_ino) as one of the command's inputs is
//     refused (UsageError), so `dump M.gguf --logits M.gguf` leaves the model alone;
//   - a file the user may not write (access W_OK), or one another user owns, is refused, not
//     replaced (the rename needs only the folder's permission); root keeps the file's owner;
//   - the bytes go to a unique temporary beside the target, created with O_CREAT | O_EXCL |
//     O_NOFOLLOW in the target's folder (opened once, so a folder swapped meanwhile does not
//     redirect the write), then fsync, a check that the target is still a regular file or
//     absent, and rename over it. A replaced file keeps its permission bits; a new one gets
//     0666 less the umask. Until commit() the earlier file is untouched; a writer destroyed
//     uncommitted removes its temporary.
// Every failure is an IoError "PATH: WHAT: REASON" with the errno of the call that failed.
#pragma once

#include <cstddef>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace lmscope {

class SafeWriter {
public:
    // Checks `path` (and that it is none of `inputs`) and creates the temporary.
    explicit SafeWriter(std::string path, const std::vector<std::string>& inputs = {});
    ~SafeWriter();
    SafeWriter(const SafeWriter&) = delete;
    SafeWriter& operator=(const SafeWriter&) = delete;

    void write(const void* data, size_t size);
    // Flushes the temporary to disk and renames it over the target. Call once.
    void commit();

private:
    void open_temporary(const std::vector<std::string>& inputs);
    void release() noexcept;
    [[noreturn]] void fail(const char* what, int err) const;
    std::string path_;  // as given: every message names it
    std::string name_;  // the target's name inside dir_fd_ (a link's target when path_ is one)
    std::string tmp_;   // the temporary's name inside dir_fd_
    int dir_fd_ = -1;
    int fd_ = -1;
    bool committed_ = false;
};

// Throws what SafeWriter(path, inputs) would throw, leaving nothing behind: lets a command
// refuse an unwritable output before it spends minutes computing what goes there.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs = {});
// Throws UsageError when two of one command's outputs, (option, path) pairs such as
// ("--logits", "out.f32"), name the same file: by device and inode once symbolic links are
// followed, or for a file not there yet, by its folder's and its name. Call it after the
// folders are made.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);
// Writes `size` bytes at `data` to `path` through a SafeWriter.
void write_file_safely(const std::string& path, const void* data, size_t size,
                       const std::vector<std::string>& inputs = {});

}  // namespace lmscope
