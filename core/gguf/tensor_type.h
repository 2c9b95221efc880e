// ggml tensor types as stored in GGUF files: ids, names, block layouts.
// Every type id the format defines is known (so the reader can validate any file); the
// subset lmscope can dequantize is listed by is_supported().
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lmscope::gguf {

enum class TensorType : uint32_t {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3,
    // 4 and 5 (Q4_2, Q4_3) were removed from the format
    Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9,
    Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15,
    IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21, IQ2_S = 22,
    IQ4_XS = 23, I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, IQ1_M = 29, BF16 = 30,
    // 31..33 and 36..38 (repacked Q4_0 / IQ4_NL variants) were removed from the format
    TQ1_0 = 34, TQ2_0 = 35, MXFP4 = 39,
};

struct TypeTraits {
    std::string_view name;  // "Q4_K"
    uint32_t block_size;    // elements per block (1 for plain types)
    uint32_t type_size;     // bytes per block
};

// Traits of a type id read from a file, or nullopt when the id is not a known ggml type.
std::optional<TypeTraits> type_traits(uint32_t type_id);
// Traits of a known type (never fails).
TypeTraits traits(TensorType type);
std::string_view type_name(TensorType type);
// Parse "Q8_0" (case-insensitive) into a type; nullopt when unknown.
std::optional<TensorType> type_from_name(std::string_view name);

// True when dequantize_row() implements this type:
// F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS.
bool is_supported(TensorType type);

// Bytes of a row of n elements; n must be a multiple of the block size (checked by callers).
size_t row_bytes(TensorType type, int64_t n);

}  // namespace lmscope::gguf
