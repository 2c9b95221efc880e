// NumPy's .npy format (version 1.0) for float32 arrays, which numpy.load reads directly:
//   "\x93NUMPY", major 1, minor 0, a little-endian uint16 header length, then the header, a
//   Python dict literal "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" padded
//   with spaces and ended by '\n' so that the data starts at a multiple of 64 bytes; then the
//   values, C order (the last dimension fastest), little-endian.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lmscope {

// The bytes before the data of a float32 array of that shape (a 0-d array for an empty shape).
std::string npy_f32_header(std::span<const int64_t> shape);
// Writes the array to `path` through a SafeWriter (inputs: files that must not be replaced).
// data.size() must be the product of shape (UsageError otherwise).
void write_npy_f32(const std::string& path, std::span<const int64_t> shape, std::span<const float> data,
                   const std::vector<std::string>& inputs = {});

}  // namespace lmscope
