// Exact IEEE binary16 and bfloat16 conversions, inline so loops (block decoders, kernels)
// vectorize them. Use them through fp16_to_fp32() etc. in gguf/quant.h.
#pragma once

#include <bit>
#include <cstdint>

namespace lmscope::gguf::detail {

static_assert(std::endian::native == std::endian::little,
              "GGUF data is little-endian; big-endian hosts are not supported");

// Exact: every half is a float. Written with masks, not branches, so loops vectorize.
inline float half_to_float(uint16_t h) {
    const uint32_t sign = (uint32_t(h) & 0x8000u) << 16;
    const uint32_t em = uint32_t(h) & 0x7fffu;                      // exponent and mantissa
    const uint32_t normal = (em << 13) + ((127u - 15u) << 23);       // rebias the exponent
    const uint32_t special = 0x7f800000u | ((em & 0x3ffu) << 13);    // inf, NaN with payload
    const uint32_t tiny = std::bit_cast<uint32_t>(float(em) * 0x1p-24f);  // zero, subnormal
    const uint32_t is_special = 0u - uint32_t(em >= 0x7c00u);  // all ones or zero
    const uint32_t is_normal = 0u - uint32_t(em >= 0x0400u);
    const uint32_t bits = (special & is_special) | (normal & is_normal & ~is_special) |
                          (tiny & ~is_normal);
    return std::bit_cast<float>(bits | sign);
}

// Round to nearest, ties to even; overflow gives inf; NaN stays a quiet NaN.
inline uint16_t float_to_half(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)  // NaN: quiet, top payload bits kept
        return static_cast<uint16_t>(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    if (ax >= 0x477ff000u)  // >= 65520 (halfway above 65504): rounds to inf
        return static_cast<uint16_t>(sign | 0x7c00u);
    if (ax < 0x38800000u) {  // below 2^-14: a half subnormal (or zero)
        // Adding 0.5 puts the half's subnormal unit (2^-24) at the float's last mantissa
        // bit, so the hardware's round-to-nearest-even does the rounding.
        const float v = std::bit_cast<float>(ax) + 0.5f;
        return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(v) - 0x3f000000u));
    }
    const uint32_t odd = (ax >> 13) & 1u;
    const uint32_t r = ax + ((15u - 127u) << 23) + 0xfffu + odd;  // rebias and round
    return static_cast<uint16_t>(sign | (r >> 13));
}

inline float bf16_to_float(uint16_t h) { return std::bit_cast<float>(uint32_t(h) << 16); }

// Round to nearest, ties to even; NaN stays a quiet NaN.
inline uint16_t float_to_bf16(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
    return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

}  // namespace lmscope::gguf::detail
