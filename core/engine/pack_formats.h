// The x16 weight layouts the CPU matmul kernels read: every quantized GGUF type is repacked at
// load (engine/repack.h) into chunks of 16 rows, one chunk per block (Q4_0 / Q4_1 / Q8_0 /
// Q5_0 / Q5_1 / IQ4_NL: 32 elements) or super-block (K-quants, IQ4_XS: 256 elements), so one
// 512-bit register holds the same 4 bytes of each of the 16 rows and one VNNI instruction makes
// 16 rows x 4 products. The activations are quantized to 8 bits in blocks of 32 (BlockQ8) for
// every type, so matrices of different types (Q4_K_M mixes Q4_K and Q6_K) share one quantized
// input.
//
// Q4_0 / Q4_1 / Q8_0 keep their own layouts (kernels.h). The others ("x formats") share one
// generic layout described by an XLayout row: each element is an unsigned integer q of 2 to 6
// bits (or a 4-bit index into the IQ4 codebook), and
//     value = D * sc * (q - offset) - M * mn        (min kinds Per32 / Per16)
//     value = D * sc * (q - offset) + M             (min kind Block: Q5_1)
// with D (and M) an f16 per row and chunk, sc / mn small integers per row and sub-block of 32
// elements (Per32) or per half of it (Per16), sc = 1 and mn = 0 where the type has none.
//
// A chunk ([16 rows] x [super elements]) is laid out as
//     f16 D[16]; (f16 M[16] when min != None)
//     then per sub-block of 32 elements, in order:
//       i8 sc[16] (Per32) or i8 sc[2][16] (Per16: [half][row])
//       i8 mn[16] (Per32) or i8 mn[2][16] (Per16)
//       the bit planes of q, 64 bytes each (byte 4 r + p of a plane belongs to row r):
//         nibble plane k (k = 0..3):  byte p: q(4k + p) & 15  |  (q(16 + 4k + p) & 15) << 4
//         2-bit plane h (h = 0, 1):   byte p, bits 2k..2k+1: two bits of q(16h + 4k + p), k = 0..3
//         1-bit plane:                byte p, bit w: one bit of q(4w + p), w = 0..7
//       the nibble or the base 2-bit planes hold q's low bits; a 2-bit plane above a nibble
//       holds bits 4..5 (Q6_K), a 1-bit plane bit 4 (Q5_x) or bit 2 (Q3_K).
// So word w (w = 0..7, 4 bytes a row) of a decoded sub-block holds elements 4w..4w+3, as word w
// of an activation block does.
#pragma once

#include <cstdint>
#include <optional>

#include "gguf/tensor_type.h"

namespace lmscope::engine::kernels {

// Every format the packed kernels read, one kernel each (Kernels::packed).
enum class PackFormat : uint8_t { Q4_0, Q4_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, Q5_0, Q5_1, IQ4_NL, IQ4_XS };
constexpr int kNumPackFormats = 12;
// The first x format (the ones before it have layouts of their own, kernels.h).
constexpr int kFirstXFormat = int(PackFormat::Q2_K);

enum class XScale : uint8_t { None, Per32, Per16 };
enum class XMin : uint8_t { None, Block, Per32, Per16 };

struct XLayout {
    int super;          // elements per chunk column (32 or 256)
    bool nibble;        // 4-bit base planes
    bool two;           // a 2-bit plane pair
    int two_shift;      // its bits' place in q (0: the base; 4: above the nibble)
    bool one;           // a 1-bit plane
    int one_shift;      // its bit's place in q
    bool codebook;      // q is an index into gguf's IQ4 codebook (value = D * sc * table[q])
    int offset;         // subtracted from q (not for codebook types)
    XScale scale;
    XMin min;

    constexpr int n_sub() const { return super / 32; }
    constexpr int head_bytes() const { return min == XMin::None ? 32 : 64; }
    constexpr int sc_bytes() const { return scale == XScale::Per32 ? 16 : scale == XScale::Per16 ? 32 : 0; }
    constexpr int mn_bytes() const { return min == XMin::Per32 ? 16 : min == XMin::Per16 ? 32 : 0; }
    constexpr int plane_bytes() const { return 64 * ((nibble ? 4 : 0) + (two ? 2 : 0) + (one ? 1 : 0)); }
    constexpr int sub_bytes() const { return sc_bytes() + mn_bytes() + plane_bytes(); }
    constexpr int chunk_bytes() const { return head_bytes() + n_sub() * sub_bytes(); }
};

// Indexed by PackFormat - kFirstXFormat.
inline constexpr XLayout kXLayouts[] = {
    // super nib   two   @  one   @  cb     off scale           min
    {256, false, true, 0, false, 0, false, 0, XScale::Per16, XMin::Per16},  // Q2_K: d sc q - dmin mn
    {256, false, true, 0, true, 2, false, 4, XScale::Per16, XMin::None},    // Q3_K: d (s6 - 32) (q3 - 4)
    {256, true, false, 0, false, 0, false, 0, XScale::Per32, XMin::Per32},  // Q4_K: d sc q - dmin mn
    {256, true, false, 0, true, 4, false, 0, XScale::Per32, XMin::Per32},   // Q5_K
    {256, true, true, 4, false, 0, false, 32, XScale::Per16, XMin::None},   // Q6_K: d sc (q6 - 32)
    {32, true, false, 0, true, 4, false, 16, XScale::None, XMin::None},     // Q5_0: d (q5 - 16)
    {32, true, false, 0, true, 4, false, 0, XScale::None, XMin::Block},     // Q5_1: d q5 + m
    {32, true, false, 0, false, 0, true, 0, XScale::None, XMin::None},      // IQ4_NL: d table[q]
    {256, true, false, 0, false, 0, true, 0, XScale::Per32, XMin::None},    // IQ4_XS: d (ls - 32) table[q]
};
static_assert(sizeof(kXLayouts) / sizeof(kXLayouts[0]) == kNumPackFormats - kFirstXFormat);

constexpr bool is_x_format(PackFormat f) { return int(f) >= kFirstXFormat; }
constexpr const XLayout& x_layout(PackFormat f) { return kXLayouts[int(f) - kFirstXFormat]; }

// The packed format of a GGUF type, or nullopt (F32 / F16 / BF16 and the unsupported types).
std::optional<PackFormat> pack_format(gguf::TensorType t);
// Bytes of one chunk (16 rows x elements_per_chunk) and its column width in elements.
int chunk_bytes(PackFormat f);
int elements_per_chunk(PackFormat f);

}  // namespace lmscope::engine::kernels
