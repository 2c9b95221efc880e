// Dispatch of dequantize_row / quantize_row by tensor type, and whole-tensor dequantization.
#include "gguf/quant.h"

#include "gguf/quant_blocks.h"
#include "util/error.h"

#include <cstring>
#include <limits>
#include <string>

namespace lmscope::gguf {
namespace {

[[noreturn]] void throw_unsupported(TensorType type) {
    throw UnsupportedError("unsupported tensor type " + std::string(type_name(type)));
}

// Blocks in a row of n elements; throws when n is negative or not a multiple of the block.
int64_t block_count(TensorType type, int64_t n) {
    const TypeTraits t = traits(type);
    if (n < 0 || n % t.block_size != 0)
        throw UsageError("row of " + std::to_string(n) + " elements is not a whole number of " +
                         std::string(t.name) + " blocks of " + std::to_string(t.block_size));
    return n / t.block_size;
}

}  // namespace

void dequantize_row(TensorType type, const void* src, float* dst, int64_t n) {
    using namespace detail;
    const auto* bytes = static_cast<const uint8_t*>(src);
    if (!is_supported(type)) throw_unsupported(type);
    const int64_t nb = block_count(type, n);
    switch (type) {
        case TensorType::F32: if (n > 0) std::memcpy(dst, src, size_t(n) * sizeof(float)); return;
        case TensorType::F16: return dequant_f16(bytes, dst, n);
        case TensorType::BF16: return dequant_bf16(bytes, dst, n);
        case TensorType::Q4_0: return dequant_q4_0(reinterpret_cast<const BlockQ4_0*>(bytes), dst, nb);
        case TensorType::Q4_1: return dequant_q4_1(reinterpret_cast<const BlockQ4_1*>(bytes), dst, nb);
        case TensorType::Q5_0: return dequant_q5_0(reinterpret_cast<const BlockQ5_0*>(bytes), dst, nb);
        case TensorType::Q5_1: return dequant_q5_1(reinterpret_cast<const BlockQ5_1*>(bytes), dst, nb);
        case TensorType::Q8_0: return dequant_q8_0(reinterpret_cast<const BlockQ8_0*>(bytes), dst, nb);
        case TensorType::Q2_K: return dequant_q2_k(reinterpret_cast<const BlockQ2_K*>(bytes), dst, nb);
        case TensorType::Q3_K: return dequant_q3_k(reinterpret_cast<const BlockQ3_K*>(bytes), dst, nb);
        case TensorType::Q4_K: return dequant_q4_k(reinterpret_cast<const BlockQ4_K*>(bytes), dst, nb);
        case TensorType::Q5_K: return dequant_q5_k(reinterpret_cast<const BlockQ5_K*>(bytes), dst, nb);
        case TensorType::Q6_K: return dequant_q6_k(reinterpret_cast<const BlockQ6_K*>(bytes), dst, nb);
        case TensorType::IQ4_NL: return dequant_iq4_nl(reinterpret_cast<const BlockIQ4_NL*>(bytes), dst, nb);
        case TensorType::IQ4_XS: return dequant_iq4_xs(reinterpret_cast<const BlockIQ4_XS*>(bytes), dst, nb);
        default: throw_unsupported(type);
    }
}

std::vector<float> dequantize(const TensorInfo& tensor) {
    const std::string field = "tensor " + tensor.name;
    if (!is_supported(tensor.type)) throw_unsupported(tensor.type);
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    const int64_t row = tensor.ne[0];
    int64_t rows = 1;
    bool bad_shape = row < 0;
    for (int i = 1; i < 4 && !bad_shape; ++i) {
        const int64_t e = tensor.ne[static_cast<size_t>(i)];
        bad_shape = e < 0 || (e > 0 && rows > kMax / e);
        if (!bad_shape) rows *= e;
    }
    if (bad_shape || (rows > 0 && row > kMax / rows))
        throw FormatError("", field, "bad shape " + tensor.shape_string());
    const int64_t n = row * rows;
    if (row % traits(tensor.type).block_size != 0)
        throw FormatError("", field, "row length " + std::to_string(row) +
                                         " is not a multiple of the block size");
    const size_t rb = row_bytes(tensor.type, row);
    if (rows > 0 && rb > std::numeric_limits<size_t>::max() / size_t(rows))
        throw FormatError("", field, "size overflows");
    if (rb * size_t(rows) != tensor.n_bytes || (n > 0 && tensor.data == nullptr))
        throw FormatError("", field, "holds " + std::to_string(tensor.n_bytes) + " bytes, " +
                                         std::string(type_name(tensor.type)) + " " +
                                         tensor.shape_string() + " needs " +
                                         std::to_string(rb * size_t(rows)));
    std::vector<float> out(static_cast<size_t>(n));  // [rows][row]
    for (int64_t r = 0; r < rows; ++r)
        dequantize_row(tensor.type, tensor.data + size_t(r) * rb, out.data() + r * row, row);
    return out;
}

bool can_quantize(TensorType type) { return is_supported(type); }

void quantize_row(TensorType type, const float* src, void* dst, int64_t n) {
    using namespace detail;
    auto* bytes = static_cast<uint8_t*>(dst);
    if (!can_quantize(type)) throw_unsupported(type);
    const int64_t nb = block_count(type, n);
    switch (type) {
        case TensorType::F32: if (n > 0) std::memcpy(dst, src, size_t(n) * sizeof(float)); return;
        case TensorType::F16: return quant_f16(src, bytes, n);
        case TensorType::BF16: return quant_bf16(src, bytes, n);
        case TensorType::Q4_0: return quant_q4_0(src, reinterpret_cast<BlockQ4_0*>(bytes), nb);
        case TensorType::Q4_1: return quant_q4_1(src, reinterpret_cast<BlockQ4_1*>(bytes), nb);
        case TensorType::Q5_0: return quant_q5_0(src, reinterpret_cast<BlockQ5_0*>(bytes), nb);
        case TensorType::Q5_1: return quant_q5_1(src, reinterpret_cast<BlockQ5_1*>(bytes), nb);
        case TensorType::Q8_0: return quant_q8_0(src, reinterpret_cast<BlockQ8_0*>(bytes), nb);
        case TensorType::Q2_K: return quant_q2_k(src, reinterpret_cast<BlockQ2_K*>(bytes), nb);
        case TensorType::Q3_K: return quant_q3_k(src, reinterpret_cast<BlockQ3_K*>(bytes), nb);
        case TensorType::Q4_K: return quant_q4_k(src, reinterpret_cast<BlockQ4_K*>(bytes), nb);
        case TensorType::Q5_K: return quant_q5_k(src, reinterpret_cast<BlockQ5_K*>(bytes), nb);
        case TensorType::Q6_K: return quant_q6_k(src, reinterpret_cast<BlockQ6_K*>(bytes), nb);
        case TensorType::IQ4_NL: return quant_iq4_nl(src, reinterpret_cast<BlockIQ4_NL*>(bytes), nb);
        case TensorType::IQ4_XS: return quant_iq4_xs(src, reinterpret_cast<BlockIQ4_XS*>(bytes), nb);
        default: throw_unsupported(type);
    }
}

}  // namespace lmscope::gguf
