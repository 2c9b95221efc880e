#include "util/npy.h"

#include "util/error.h"
#include "util/safe_writer.h"

#include <bit>

namespace lmscope {

static_assert(std::endian::native == std::endian::little, "the .npy writer stores the host's floats as '<f4'");

std::string npy_f32_header(std::span<const int64_t> shape) {
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    for (size_t i = 0; i < shape.size(); ++i) dict += (i ? ", " : "") + std::to_string(shape[i]);
    dict += shape.size() == 1 ? ",), }" : "), }";  // a 1-tuple is written (n,)
    // magic (6) + version (2) + length (2) + dict + padding + '\n' is a multiple of 64
    const size_t unpadded = 10 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict += '\n';
    const size_t len = dict.size();
    if (len > 0xffff) throw UsageError("npy: a shape of " + std::to_string(shape.size()) + " dimensions is too long");
    std::string out("\x93NUMPY\x01\x00", 8);
    out += char(len & 0xff);
    out += char(len >> 8);
    return out + dict;
}

void write_npy_f32(const std::string& path, std::span<const int64_t> shape, std::span<const float> data,
                   const std::vector<std::string>& inputs) {
    uint64_t count = 1;
    for (int64_t d : shape) {
        if (d < 0 || __builtin_mul_overflow(count, uint64_t(d), &count))
            throw UsageError(path + ": npy: invalid shape");
    }
    if (count != data.size())
        throw UsageError(path + ": npy: " + std::to_string(data.size()) + " values for a shape of " +
                         std::to_string(count));
    const std::string header = npy_f32_header(shape);
    SafeWriter w(path, inputs);
    w.write(header.data(), header.size());
    w.write(data.data(), data.size_bytes());
    w.commit();
}

}  // namespace lmscope
