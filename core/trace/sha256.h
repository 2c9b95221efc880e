// SHA-256 (FIPS 180-4), used to identify a model by the bytes of its GGUF header.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace lmscope::trace {

class Sha256 {
public:
    Sha256();
    void update(const uint8_t* data, size_t size);
    std::array<uint8_t, 32> finish();  // the object must not be updated afterwards

private:
    void block(const uint8_t* p);  // one 64-byte block
    std::array<uint32_t, 8> h_;
    std::array<uint8_t, 64> buf_{};
    size_t buf_len_ = 0;
    uint64_t total_ = 0;  // bytes hashed so far
};

// Lower-case hex digest of a buffer.
std::string sha256_hex(const uint8_t* data, size_t size);

}  // namespace lmscope::trace
