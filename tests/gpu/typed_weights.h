// Weights of every GGUF type the CUDA backend decodes, for its tests: blocks of random quants
// with finite scales, and a fixture model whose every weight matrix is re-encoded in one type
// (gguf::quantize_row where it can make the type, random blocks of the original blocks'
// magnitude where it cannot yet).
#pragma once

#include "common/hostile_files.h"
#include "gguf/gguf.h"
#include "gguf/quant.h"
#include "gpu/kernels/weight_blocks.cuh"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace lmscope::testing {

// The types the device decodes (every one gguf::is_supported lists, and IQ4_NL / IQ4_XS).
inline const std::vector<gguf::TensorType>& device_weight_types() {
    using T = gguf::TensorType;
    static const std::vector<T> types = {T::F32,  T::F16,  T::BF16, T::Q4_0, T::Q4_1, T::Q5_0,
                                         T::Q5_1, T::Q8_0, T::Q2_K, T::Q3_K, T::Q4_K, T::Q5_K,
                                         T::Q6_K, T::IQ4_NL, T::IQ4_XS};
    return types;
}

// Byte offsets of a block's f16 scale fields (d, and dmin or m), from its layout.
inline std::vector<size_t> f16_fields(gguf::TensorType type) {
    using T = gguf::TensorType;
    namespace d = gguf::detail;
    switch (type) {
        case T::Q4_0: return {offsetof(d::BlockQ4_0, d)};
        case T::Q4_1: return {offsetof(d::BlockQ4_1, d), offsetof(d::BlockQ4_1, m)};
        case T::Q5_0: return {offsetof(d::BlockQ5_0, d)};
        case T::Q5_1: return {offsetof(d::BlockQ5_1, d), offsetof(d::BlockQ5_1, m)};
        case T::Q8_0: return {offsetof(d::BlockQ8_0, d)};
        case T::IQ4_NL: return {offsetof(d::BlockIQ4_NL, d)};
        case T::Q2_K: return {offsetof(d::BlockQ2_K, d), offsetof(d::BlockQ2_K, dmin)};
        case T::Q3_K: return {offsetof(d::BlockQ3_K, d)};
        case T::Q4_K: return {offsetof(d::BlockQ4_K, d), offsetof(d::BlockQ4_K, dmin)};
        case T::Q5_K: return {offsetof(d::BlockQ5_K, d), offsetof(d::BlockQ5_K, dmin)};
        case T::Q6_K: return {offsetof(d::BlockQ6_K, d)};
        case T::IQ4_XS: return {offsetof(d::BlockIQ4_XS, d)};
        default: return {};
    }
}

// Largest magnitude and mean of the values the device decoder gives for the block at b.
template <class D>
void block_stats(const uint8_t* b, float& absmax, float& mean) {
    absmax = 0;
    double sum = 0;
    for (int c = 0; c < D::kBlock / gpu::kernels::kChunk; ++c) {
        float v[gpu::kernels::kChunk];
        D::decode8(b, c, v);
        for (float x : v) {
            absmax = std::max(absmax, std::fabs(x));
            sum += x;
        }
    }
    mean = float(sum / D::kBlock);
}

// n values of `type` (n a multiple of its block) with random contents. Float types: normal
// values times amax[i / 32]. Block types: random quant and scale bytes, then the f16 scale
// fields set so that block i's largest magnitude is about amax[i] and, for the types with a
// minimum, its mean about 0 (the decoded values are linear in those fields).
inline hostile::Bytes random_weights(gguf::TensorType type, int64_t n, const std::vector<float>& amax,
                                     std::mt19937& rng) {
    const gguf::TypeTraits tr = gguf::traits(type);
    const int64_t nb = n / int64_t(tr.block_size);
    hostile::Bytes out(gguf::row_bytes(type, n));
    std::uniform_int_distribution<int> byte(0, 255);
    if (f16_fields(type).empty()) {  // F32, F16, BF16
        std::normal_distribution<float> normal(0.0f, 0.4f);
        std::vector<float> v(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) v[size_t(i)] = normal(rng) * amax[size_t(i / 32) % amax.size()];
        gguf::quantize_row(type, v.data(), out.data(), n);
        return out;
    }
    for (uint8_t& x : out) x = uint8_t(byte(rng));
    const std::vector<size_t> fields = f16_fields(type);
    for (int64_t b = 0; b < nb; ++b) {
        uint8_t* blk = out.data() + size_t(b) * tr.type_size;
        auto set = [&](size_t field, float v) { gguf::detail::store_u16(blk + field, gguf::fp32_to_fp16(v)); };
        auto stats = [&](float& absmax, float& mean) {
            gpu::kernels::visit_decoder(type, [&](auto dec) { block_stats<decltype(dec)>(blk, absmax, mean); });
        };
        float m = 0, mean = 0;
        set(fields[0], 1.0f);
        if (fields.size() == 2) {  // d and a minimum: choose the minimum's scale so the block's mean is 0
            float m1, mean1, m2, mean2;
            set(fields[1], 0.0f);
            stats(m1, mean1);
            set(fields[0], 0.0f);
            set(fields[1], 1.0f);
            stats(m2, mean2);
            set(fields[0], 1.0f);
            set(fields[1], mean2 != 0.0f ? -mean1 / mean2 : 0.0f);
        }
        stats(m, mean);
        const float scale = m > 0 ? amax[size_t(b) % amax.size()] / m : 0.0f;
        for (size_t f : fields) set(f, gguf::fp16_to_fp32(gguf::detail::load_u16(blk + f)) * scale);
    }
    return out;
}

// Which type a weight matrix (by tensor name) gets in a re-encoded model.
using TypeOf = std::function<gguf::TensorType(const std::string& name)>;

// The file with every 2-D weight matrix (embeddings included; norms stay F32) re-encoded as
// type_of(name): through gguf::quantize_row where it can make the type, else random blocks
// whose magnitudes follow the original's blocks.
inline hostile::Bytes retyped_model(const gguf::File& f, const TypeOf& type_of, uint32_t seed) {
    hostile::GgufEdit e(f);
    std::mt19937 rng(seed);
    for (const gguf::TensorInfo& t : f.tensors()) {
        if (t.n_dims != 2) continue;
        const gguf::TensorType type = type_of(t.name);
        const int64_t block = int64_t(gguf::traits(type).block_size);
        if (t.ne[0] % block != 0) continue;
        const std::vector<float> v = gguf::dequantize(t);
        const int64_t n = int64_t(v.size());
        hostile::Bytes data(gguf::row_bytes(type, n));
        if (gguf::can_quantize(type)) {
            gguf::quantize_row(type, v.data(), data.data(), n);
        } else {
            std::vector<float> amax(size_t(n / block));  // [block] the original's largest magnitude
            for (size_t i = 0; i < v.size(); ++i)
                amax[i / size_t(block)] = std::max(amax[i / size_t(block)], std::fabs(v[i]));
            data = random_weights(type, n, amax, rng);
        }
        e.retype_tensor(t.name, type, std::move(data));
    }
    return e.bytes();
}

}  // namespace lmscope::testing
