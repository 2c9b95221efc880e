// A read-only memory map of a whole file (POSIX mmap). Move-only; unmaps on destruction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace lmscope {

class MappedFile {
public:
    MappedFile() = default;
    // Throws IoError naming the path and the OS reason.
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const uint8_t* data() const noexcept { return data_; }
    size_t size() const noexcept { return size_; }
    const std::string& path() const noexcept { return path_; }

private:
    void release() noexcept;
    std::string path_;
    const uint8_t* data_ = nullptr;  // [size_] bytes, nullptr for an empty file
    size_t size_ = 0;
};

}  // namespace lmscope
