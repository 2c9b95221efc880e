#include "engine/repack.h"

#include "engine/kernels.h"
#include "gguf/quant_blocks.h"
#include "util/error.h"

#include <cstring>

namespace lmscope::engine {

namespace kernels {

std::optional<PackFormat> pack_format(gguf::TensorType t) {
    using T = gguf::TensorType;
    switch (t) {
    case T::Q4_0: return PackFormat::Q4_0;
    case T::Q4_1: return PackFormat::Q4_1;
    case T::Q8_0: return PackFormat::Q8_0;
    case T::Q2_K: return PackFormat::Q2_K;
    case T::Q3_K: return PackFormat::Q3_K;
    case T::Q4_K: return PackFormat::Q4_K;
    case T::Q5_K: return PackFormat::Q5_K;
    case T::Q6_K: return PackFormat::Q6_K;
    case T::Q5_0: return PackFormat::Q5_0;
    case T::Q5_1: return PackFormat::Q5_1;
    case T::IQ4_NL: return PackFormat::IQ4_NL;
    case T::IQ4_XS: return PackFormat::IQ4_XS;
    default: return std::nullopt;
    }
}

int chunk_bytes(PackFormat f) {
    switch (f) {
    case PackFormat::Q4_0: return kChunkQ4_0;
    case PackFormat::Q4_1: return kChunkQ4_1;
    case PackFormat::Q8_0: return kChunkQ8_0;
    default: return x_layout(f).chunk_bytes();
    }
}

int elements_per_chunk(PackFormat f) { return is_x_format(f) ? x_layout(f).super : kQ8Block; }

}  // namespace kernels

namespace {

using kernels::PackFormat;
using kernels::XLayout;
using namespace gguf::detail;

template <class B>
const B& as(const uint8_t* p) {
    return *reinterpret_cast<const B*>(p);  // every field is a byte array: any address will do
}

void fill(int8_t* v, int n, int x) {
    for (int i = 0; i < n; ++i) v[i] = int8_t(x);
}

// The element order of every unpacker below follows the matching dequant_* in core/gguf.
void unpack_q2_k(const BlockQ2_K& b, XBlock& o) {
    o.d = load_u16(b.d), o.m = load_u16(b.dmin);
    for (int g = 0; g < 16; ++g) o.sc[g] = int8_t(b.scales[g] & 0x0f), o.mn[g] = int8_t(b.scales[g] >> 4);
    for (int e = 0; e < 256; ++e) {  // half e / 128, shift 2 ((e % 128) / 32), byte e % 32
        const int h = e / 128, r = e % 128;
        o.q[e] = uint8_t((b.qs[32 * h + r % 32] >> (2 * (r / 32))) & 3);
    }
}

void unpack_q3_k(const BlockQ3_K& b, XBlock& o) {
    o.d = load_u16(b.d);
    for (int g = 0; g < 16; ++g) o.sc[g] = int8_t(scale_q3_k(b.scales, g));
    for (int e = 0; e < 256; ++e) {
        const int h = e / 128, r = e % 128;
        const int lo = (b.qs[32 * h + r % 32] >> (2 * (r / 32))) & 3;
        const int hi = (b.hmask[e % 32] >> (e / 32)) & 1;
        o.q[e] = uint8_t(lo | (hi << 2));  // value = d sc (q - 4)
    }
}

// Q4_K / Q5_K: chunk c of 64 elements: low nibbles group 2c, high nibbles group 2c + 1.
template <class B>
void unpack_q45_k(const B& b, const uint8_t* qh, XBlock& o) {
    o.d = load_u16(b.d), o.m = load_u16(b.dmin);
    for (int g = 0; g < 8; ++g) {
        int sc, mn;
        scale_min_k4(b.scales, g, sc, mn);
        fill(o.sc + 2 * g, 2, sc);
        fill(o.mn + 2 * g, 2, mn);
    }
    for (int e = 0; e < 256; ++e) {
        const int g = e / 32, l = e % 32;
        const uint8_t byte = b.qs[32 * (g / 2) + l];
        int q = g % 2 ? byte >> 4 : byte & 0x0f;
        if (qh) q |= ((qh[l] >> g) & 1) << 4;
        o.q[e] = uint8_t(q);
    }
}

void unpack_q6_k(const BlockQ6_K& b, XBlock& o) {
    o.d = load_u16(b.d);
    for (int g = 0; g < 16; ++g) o.sc[g] = b.scales[g];
    for (int e = 0; e < 256; ++e) {  // half h: element 32 j + l from ql[64h + l + 32 (j % 2)], nibble j / 2
        const int h = e / 128, j = (e % 128) / 32, l = e % 32;
        const uint8_t lo = b.ql[64 * h + l + 32 * (j % 2)];
        const int nib = j / 2 ? lo >> 4 : lo & 0x0f;
        const int hi = (b.qh[32 * h + l] >> (2 * j)) & 3;
        o.q[e] = uint8_t(nib | (hi << 4));  // value = d sc (q - 32)
    }
}

// Q5_0 / Q5_1: byte j holds elements j (low) and j + 16 (high); bit e of qh is element e's 5th.
void unpack_q5(const uint8_t* qs, uint32_t qh, XBlock& o) {
    fill(o.sc, 16, 1);
    for (int e = 0; e < 32; ++e) {
        const int nib = e < 16 ? qs[e] & 0x0f : qs[e - 16] >> 4;
        o.q[e] = uint8_t(nib | (((qh >> e) & 1u) << 4));
    }
}

void unpack_iq4(const uint8_t* qs, int n, XBlock& o) {  // groups of 32 as Q4_0's nibble order
    for (int e = 0; e < n; ++e) {
        const uint8_t* g = qs + 16 * (e / 32);
        const int l = e % 32;
        o.q[e] = uint8_t(l < 16 ? g[l] & 0x0f : g[l - 16] >> 4);
    }
}

// Writes row i of a chunk from its XBlock (pack_formats.h's layout).
void write_x_row(const XLayout& L, const XBlock& b, int i, uint8_t* chunk) {
    std::memcpy(chunk + 2 * i, &b.d, 2);
    if (L.min != kernels::XMin::None) std::memcpy(chunk + 32 + 2 * i, &b.m, 2);
    uint8_t* s = chunk + L.head_bytes();
    for (int j = 0; j < L.n_sub(); ++j, s += L.sub_bytes()) {
        uint8_t* p = s;
        auto put_pair = [&](const int8_t* v, kernels::XScale kind) {  // sc or mn of this sub-block
            if (kind == kernels::XScale::Per32) {
                p[i] = uint8_t(v[2 * j]);
                p += 16;
            } else if (kind == kernels::XScale::Per16) {
                p[i] = uint8_t(v[2 * j]);
                p[16 + i] = uint8_t(v[2 * j + 1]);
                p += 32;
            }
        };
        put_pair(b.sc, L.scale);
        put_pair(b.mn, L.min == kernels::XMin::Per32   ? kernels::XScale::Per32
                       : L.min == kernels::XMin::Per16 ? kernels::XScale::Per16
                                                       : kernels::XScale::None);
        const uint8_t* q = b.q + 32 * j;  // [32]
        uint8_t* row = p + 4 * i;         // byte p of this row's word in a plane: row[plane * 64 + p]
        int plane = 0;
        if (L.nibble) {
            for (int k = 0; k < 4; ++k, ++plane)
                for (int e = 0; e < 4; ++e)
                    row[64 * plane + e] = uint8_t((q[4 * k + e] & 15) | ((q[16 + 4 * k + e] & 15) << 4));
        }
        if (L.two) {
            for (int h = 0; h < 2; ++h, ++plane)
                for (int e = 0; e < 4; ++e) {
                    uint8_t v = 0;
                    for (int k = 0; k < 4; ++k) v |= uint8_t(((q[16 * h + 4 * k + e] >> L.two_shift) & 3) << (2 * k));
                    row[64 * plane + e] = v;
                }
        }
        if (L.one) {
            for (int e = 0; e < 4; ++e) {
                uint8_t v = 0;
                for (int w = 0; w < 8; ++w) v |= uint8_t(((q[4 * w + e] >> L.one_shift) & 1) << w);
                row[64 * plane + e] = v;
            }
        }
    }
}

// Q4_0 / Q4_1 / Q8_0 (kernels.h): a GGUF block is f16 d, (Q4_1: f16 m,) quants; its quant
// bytes go to the chunk in 4-byte words.
void write_q8dot_row(PackFormat f, const uint8_t* src, int i, uint8_t* chunk) {
    constexpr int R = kernels::kPackRows;
    const bool has_min = f == PackFormat::Q4_1;
    const size_t block = f == PackFormat::Q4_0 ? 18 : has_min ? 20 : 34;
    const size_t head = has_min ? 4 : 2, qs = block - head;  // block header, quant bytes
    const size_t qs0 = 2 * R * (has_min ? 2 : 1);            // chunk offset of the quants
    std::memcpy(chunk + 2 * i, src, 2);
    if (has_min) std::memcpy(chunk + 2 * R + 2 * i, src + 2, 2);
    for (size_t k = 0; k < qs / 4; ++k) std::memcpy(chunk + qs0 + k * 4 * R + 4 * size_t(i), src + head + 4 * k, 4);
}

}  // namespace

void unpack_x_block(PackFormat f, const uint8_t* p, XBlock& o) {
    switch (f) {
    case PackFormat::Q2_K: return unpack_q2_k(as<BlockQ2_K>(p), o);
    case PackFormat::Q3_K: return unpack_q3_k(as<BlockQ3_K>(p), o);
    case PackFormat::Q4_K: return unpack_q45_k(as<BlockQ4_K>(p), nullptr, o);
    case PackFormat::Q5_K: return unpack_q45_k(as<BlockQ5_K>(p), as<BlockQ5_K>(p).qh, o);
    case PackFormat::Q6_K: return unpack_q6_k(as<BlockQ6_K>(p), o);
    case PackFormat::Q5_0: {
        const auto& b = as<BlockQ5_0>(p);
        o.d = load_u16(b.d);
        return unpack_q5(b.qs, load_u32(b.qh), o);
    }
    case PackFormat::Q5_1: {
        const auto& b = as<BlockQ5_1>(p);
        o.d = load_u16(b.d), o.m = load_u16(b.m);
        return unpack_q5(b.qs, load_u32(b.qh), o);
    }
    case PackFormat::IQ4_NL: {
        const auto& b = as<BlockIQ4_NL>(p);
        o.d = load_u16(b.d);
        fill(o.sc, 16, 1);
        return unpack_iq4(b.qs, 32, o);
    }
    case PackFormat::IQ4_XS: {
        const auto& b = as<BlockIQ4_XS>(p);
        o.d = load_u16(b.d);
        for (int g = 0; g < 8; ++g) fill(o.sc + 2 * g, 2, scale_iq4_xs(b, g));
        return unpack_iq4(b.qs, 256, o);
    }
    default: throw UsageError("unpack_x_block: not an x format");
    }
}

void pack_rows(PackFormat f, const uint8_t* rows, size_t row_bytes, int64_t n_out, int64_t n_in, uint8_t* dst) {
    constexpr int64_t R = kernels::kPackRows;
    const int64_t per = kernels::elements_per_chunk(f);
    const int64_t n_chunks = n_in / per;                     // chunks across a group of rows
    const size_t chunk = size_t(kernels::chunk_bytes(f));
    const size_t block = row_bytes / size_t(n_chunks);       // bytes of one GGUF block of a row
    XBlock xb;
    for (int64_t n = 0; n < n_out; ++n) {
        const int64_t g = n / R;
        const int i = int(n % R);
        for (int64_t b = 0; b < n_chunks; ++b) {
            const uint8_t* src = rows + size_t(n) * row_bytes + size_t(b) * block;
            uint8_t* c = dst + (size_t(g) * size_t(n_chunks) + size_t(b)) * chunk;
            if (kernels::is_x_format(f)) {
                unpack_x_block(f, src, xb);
                write_x_row(kernels::x_layout(f), xb, i, c);
            } else {
                write_q8dot_row(f, src, i, c);
            }
        }
    }
}

}  // namespace lmscope::engine
