// stdout as the commands write it. main() ignores SIGPIPE and routes std::cout through
// StdoutBuffer, which writes to file descriptor 1 itself and keeps the errno of the first
// failed write: a closed pipe is then a write error like a full disk. stdout_ok() flushes and
// says whether every write so far succeeded; check_stdout() throws the first error at the end
// of a command, after its files are saved. A command that streams (run) stops producing once
// stdout_ok() is false.
#pragma once

#include <array>
#include <streambuf>

namespace lmscope::cli {

class StdoutBuffer : public std::streambuf {
public:
    StdoutBuffer();
    ~StdoutBuffer() override;
    int error() const { return error_; }  // errno of the first failed write, or 0
    // std::cout's buffer before this one, put back when this one is destroyed: static
    // destructors that run later (another library's std::ios_base::Init flushing std::cout at
    // exit) must not reach a destroyed buffer.
    void set_previous(std::streambuf* previous) { previous_ = previous; }

protected:
    int_type overflow(int_type ch) override;
    int sync() override;

private:
    bool drain();
    std::array<char, 1 << 16> buffer_;
    int error_ = 0;
    std::streambuf* previous_ = nullptr;
};

// Installs a StdoutBuffer under std::cout for the life of the program.
void route_stdout();
bool stdout_ok();
// Throws IoError "stdout: write failed: REASON" when a write to stdout failed.
void check_stdout();

}  // namespace lmscope::cli
