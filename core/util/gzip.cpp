#include "util/gzip.h"

#include "util/bounded_file.h"
#include "util/error.h"

#include <zlib.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace lmscope {

bool is_gzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1F &&
           static_cast<unsigned char>(bytes[1]) == 0x8B;
}

std::string gunzip(std::string_view compressed, const std::string& name, size_t max_bytes) {
    if (compressed.size() > UINT32_MAX) throw FormatError(name, "gzip", "the compressed data is over 4 GiB");
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)  // 16: expect a gzip header and trailer
        throw FormatError(name, "gzip", "cannot start the decompressor");
    struct End {
        z_stream* s;
        ~End() { inflateEnd(s); }
    } end{&zs};
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    zs.avail_in = static_cast<uInt>(compressed.size());
    std::string out;
    char chunk[1 << 16];
    for (;;) {
        zs.next_out = reinterpret_cast<Bytef*>(chunk);
        zs.avail_out = sizeof chunk;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        const size_t produced = sizeof chunk - zs.avail_out;
        if (out.size() + produced > max_bytes)
            throw FormatError(name, "gzip", "decompresses to more than " + std::to_string(max_bytes) + " bytes");
        out.append(chunk, produced);
        if (rc == Z_STREAM_END) break;
        if (rc == Z_BUF_ERROR || (rc == Z_OK && zs.avail_in == 0 && produced == 0))
            throw FormatError(name, "gzip", "the compressed stream is truncated");
        if (rc != Z_OK)
            throw FormatError(name, "gzip", std::string("corrupt compressed data (") + (zs.msg ? zs.msg : "zlib error " + std::to_string(rc)) + ")");
    }
    if (zs.avail_in != 0)
        throw FormatError(name, "gzip", std::to_string(zs.avail_in) + " bytes follow the end of the compressed stream");
    return out;
}

std::string read_maybe_gzip(const std::string& path, size_t max_bytes) {
    const std::string bytes = read_bounded(path, max_bytes);
    return is_gzip(bytes) ? gunzip(bytes, path, max_bytes) : bytes;
}

}  // namespace lmscope
