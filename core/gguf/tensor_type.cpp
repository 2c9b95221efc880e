// The table of ggml tensor types: name, elements per block and bytes per block for every id
// the GGUF format defines. Sizes follow the block structures of the format (QK_K = 256).
#include "gguf/tensor_type.h"

#include <array>
#include <cctype>

namespace lmscope::gguf {
namespace {

struct Entry {
    uint32_t id;
    TypeTraits traits;
};

// Block layouts (bytes per block in brackets):
//   Q4_0   32: f16 d, 16 B nibbles                                      [18]
//   Q4_1   32: f16 d, f16 m, 16 B nibbles                               [20]
//   Q5_0   32: f16 d, 4 B high bits, 16 B nibbles                       [22]
//   Q5_1   32: f16 d, f16 m, 4 B high bits, 16 B nibbles                [24]
//   Q8_0   32: f16 d, 32 x i8                                           [34]
//   Q8_1   32: f16 d, f16 s, 32 x i8                                    [36]
//   Q2_K  256: 16 B scales/mins, 64 B 2-bit quants, f16 d, f16 dmin     [84]
//   Q3_K  256: 32 B high bits, 64 B 2-bit quants, 12 B scales, f16 d    [110]
//   Q4_K  256: f16 d, f16 dmin, 12 B scales/mins, 128 B nibbles         [144]
//   Q5_K  256: f16 d, f16 dmin, 12 B scales/mins, 32 B high, 128 B lo   [176]
//   Q6_K  256: 128 B low nibbles, 64 B high 2 bits, 16 x i8 scales, f16 [210]
//   Q8_K  256: f32 d, 256 x i8, 16 x i16 block sums                     [292]
//   IQ2_XXS 256: f16 d, 32 x u16                                        [66]
//   IQ2_XS  256: f16 d, 32 x u16, 8 B scales                            [74]
//   IQ3_XXS 256: f16 d, 96 B                                            [98]
//   IQ1_S   256: f16 d, 32 B, 8 x u16                                   [50]
//   IQ4_NL   32: f16 d, 16 B nibbles                                    [18]
//   IQ3_S   256: f16 d, 64 B qs, 8 B qh, 32 B signs, 4 B scales         [110]
//   IQ2_S   256: f16 d, 64 B qs, 8 B qh, 8 B scales                     [82]
//   IQ4_XS  256: f16 d, u16 scales_h, 4 B scales_l, 128 B nibbles       [136]
//   IQ1_M   256: 32 B qs, 16 B qh, 8 B scales                           [56]
//   TQ1_0   256: 48 B base-3 quints, 4 B, f16 d                         [54]
//   TQ2_0   256: 64 B 2-bit quants, f16 d                               [66]
//   MXFP4    32: u8 shared exponent, 16 B e2m1 nibbles                  [17]
constexpr std::array<Entry, 32> kTable{{
    {0, {"F32", 1, 4}},
    {1, {"F16", 1, 2}},
    {2, {"Q4_0", 32, 18}},
    {3, {"Q4_1", 32, 20}},
    {6, {"Q5_0", 32, 22}},
    {7, {"Q5_1", 32, 24}},
    {8, {"Q8_0", 32, 34}},
    {9, {"Q8_1", 32, 36}},
    {10, {"Q2_K", 256, 84}},
    {11, {"Q3_K", 256, 110}},
    {12, {"Q4_K", 256, 144}},
    {13, {"Q5_K", 256, 176}},
    {14, {"Q6_K", 256, 210}},
    {15, {"Q8_K", 256, 292}},
    {16, {"IQ2_XXS", 256, 66}},
    {17, {"IQ2_XS", 256, 74}},
    {18, {"IQ3_XXS", 256, 98}},
    {19, {"IQ1_S", 256, 50}},
    {20, {"IQ4_NL", 32, 18}},
    {21, {"IQ3_S", 256, 110}},
    {22, {"IQ2_S", 256, 82}},
    {23, {"IQ4_XS", 256, 136}},
    {24, {"I8", 1, 1}},
    {25, {"I16", 1, 2}},
    {26, {"I32", 1, 4}},
    {27, {"I64", 1, 8}},
    {28, {"F64", 1, 8}},
    {29, {"IQ1_M", 256, 56}},
    {30, {"BF16", 1, 2}},
    {34, {"TQ1_0", 256, 54}},
    {35, {"TQ2_0", 256, 66}},
    {39, {"MXFP4", 32, 17}},
}};  // ids 4, 5, 31..33 and 36..38 are retired from the format and stay unknown

const Entry* find_entry(uint32_t id) {
    for (const Entry& e : kTable)
        if (e.id == id) return &e;
    return nullptr;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::toupper(static_cast<unsigned char>(a[i])) !=
            std::toupper(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

}  // namespace

std::optional<TypeTraits> type_traits(uint32_t type_id) {
    const Entry* e = find_entry(type_id);
    if (!e) return std::nullopt;
    return e->traits;
}

TypeTraits traits(TensorType type) {
    if (auto t = type_traits(static_cast<uint32_t>(type))) return *t;
    // A TensorType built from an unchecked integer: report it as an unknown type of size 0.
    return TypeTraits{"unknown", 1, 0};
}

std::string_view type_name(TensorType type) { return traits(type).name; }

std::optional<TensorType> type_from_name(std::string_view name) {
    if (name.empty()) return std::nullopt;
    for (const Entry& e : kTable)
        if (equal_ignoring_case(e.traits.name, name))
            return static_cast<TensorType>(e.id);
    return std::nullopt;
}

bool is_supported(TensorType type) {
    switch (type) {
        case TensorType::F32: case TensorType::F16: case TensorType::BF16:
        case TensorType::Q4_0: case TensorType::Q4_1: case TensorType::Q5_0:
        case TensorType::Q5_1: case TensorType::Q8_0: case TensorType::Q2_K:
        case TensorType::Q3_K: case TensorType::Q4_K: case TensorType::Q5_K:
        case TensorType::Q6_K: case TensorType::IQ4_NL: case TensorType::IQ4_XS:
            return true;
        default:
            return false;
    }
}

size_t row_bytes(TensorType type, int64_t n) {
    const TypeTraits t = traits(type);
    if (n <= 0) return 0;
    return static_cast<size_t>(n / t.block_size) * t.type_size;
}

}  // namespace lmscope::gguf
