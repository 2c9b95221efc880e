// IEEE binary16 storage for attention weights in traces (the trace part stands alone, so it
// carries its own two conversions rather than depending on core/gguf).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace lmscope::trace {

// Exact: every half is representable as a float.
inline float half_to_float(uint16_t h) {
    const uint32_t sign = (uint32_t(h) & 0x8000u) << 16;
    const uint32_t em = uint32_t(h) & 0x7fffu;
    uint32_t bits;
    if (em >= 0x7c00u)
        bits = 0x7f800000u | ((em & 0x3ffu) << 13);           // inf / NaN
    else if (em >= 0x0400u)
        bits = (em << 13) + (uint32_t(127 - 15) << 23);       // normal
    else
        bits = std::bit_cast<uint32_t>(float(em) * 0x1p-24f);  // zero / subnormal
    return std::bit_cast<float>(bits | sign);
}

// Round to nearest, ties to even; overflow gives inf; NaN stays NaN.
inline uint16_t float_to_half(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) return uint16_t(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0u));
    if (ax >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds past 65504
    if (ax < 0x38800000u) {
        // Below the smallest normal half: round |f| * 2^24 to an integer count of 2^-24 units.
        // (exact scaling; nearbyint rounds ties to even in the default rounding mode)
        const float units = std::nearbyint(std::bit_cast<float>(ax) * 0x1p24f);
        return uint16_t(sign | uint16_t(units));
    }
    const uint32_t mant_odd = (ax >> 13) & 1u;
    const uint32_t rounded = ax + 0xfffu + mant_odd;  // round to nearest even at bit 13
    return uint16_t(sign | uint16_t((rounded - (uint32_t(127 - 15) << 23)) >> 13));
}

}  // namespace lmscope::trace
