// y = x W^T for one weight matrix, on the CPU, keeping quantized weights quantized.
//
// Paths (picked per call):
//   - every quantized type (Q4_0 / Q4_1 / Q5_0 / Q5_1 / Q8_0, the K-quants, IQ4_NL / IQ4_XS):
//     repacked at load, 16 rows interleaved per block or super-block (the x16 layouts of
//     pack_formats.h, written by repack.h) into one block of memory on transparent huge pages
//     (a contiguous stream per thread, no TLB miss every 4 KiB); the activation rows are
//     quantized to 8-bit blocks of 32 once for all matrices of the same input (as llama.cpp
//     does), and fused dequantize-and-dot kernels read the chunks directly, 16 weight rows per
//     VNNI instruction against up to 8 activation rows at once (prefill decodes each chunk once
//     for 8 rows). Measured faster than dequantize + sgemm here: Debian's OpenBLAS 0.3.21 does
//     not recognise this CPU and falls back to its SSE3 (Prescott) sgemm kernel. In decode the
//     AVX2 kernels ask for the weights 2 KiB ahead of the chunk they compute (without it, on
//     2 AVX2 cores, compute and memory took turns); the AVX-512 ones leave it to the hardware
//     prefetchers;
//   - F16 weights: float dot products (F16 converted in registers), several activation rows per
//     weight row in prefill (dot_f16_rows);
//   - F32 and BF16 weights, few rows: float dot products (BF16 converted in registers); many rows
//     (prefill): tiles of weight rows as float32 through OpenBLAS sgemm (single-threaded per
//     call, the pool splits the rows).
#pragma once

#include "engine/kernels.h"
#include "engine/thread_pool.h"
#include "gguf/gguf.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace lmscope::engine {

// A weight matrix as GGUF stores it: n_out rows of n_in values (ne[0] = n_in), row-major.
struct Linear {
    gguf::TensorType type = gguf::TensorType::F32;
    int64_t n_in = 0;
    int64_t n_out = 0;
    size_t row_bytes = 0;
    const uint8_t* data = nullptr;  // [n_out][row_bytes]
    // The same rows in an x16 layout (pack_formats.h), rows past n_out zero; null: not packed.
    const uint8_t* packed = nullptr;  // [ceil(n_out / 16)][n_in / elements_per_chunk][chunk bytes]

    static Linear from(const gguf::TensorInfo& t);
    const uint8_t* row(int64_t n) const { return data + size_t(n) * row_bytes; }
    // The x16 format of this matrix, nullopt when its type has none.
    std::optional<kernels::PackFormat> pack_format() const;
    // Bytes of one group of 16 packed rows, and of them all; 0 when there is no x16 format.
    size_t group_bytes() const;
    size_t packed_bytes() const;
};

// Packed copies of weight matrices, in one block of anonymous memory on transparent huge
// pages. After packing a matrix, the file pages it came from are released (they are read
// again from the page cache if the file's copy is used later).
class PackedWeights {
public:
    PackedWeights() = default;
    ~PackedWeights();
    PackedWeights(const PackedWeights&) = delete;
    PackedWeights& operator=(const PackedWeights&) = delete;

    // Packs every matrix of ws that has an x16 layout and points its `packed` at the copy.
    void pack(std::span<Linear* const> ws);
    size_t bytes() const { return bytes_; }

private:
    uint8_t* base_ = nullptr;  // [bytes_] 2 MiB aligned
    size_t bytes_ = 0;
    size_t mapped_ = 0;        // bytes_ rounded up to 2 MiB (the mapping's size)
};

class MatMul {
public:
    MatMul(ThreadPool& pool, const kernels::Kernels& k);

    // y[t][n] = sum_k W[n][k] * x[t][k]
    //   x: [n_rows][w.n_in]   y: [n_rows][w.n_out]
    void run(const Linear& w, const float* x, int64_t n_rows, float* y);
    // Several matrices of the same input (q/k/v, gate/up): ys[i] = x ws[i]^T. When all take
    // 8-bit activations, x is quantized once and all rows are split over the threads in one
    // job (fewer pool round trips per token).
    void run(std::span<const Linear* const> ws, const float* x, int64_t n_rows, std::span<float* const> ys);

    // Outputs [r0, r1) of y, final, handed over by the pool slot that wrote them
    // while they are still in its cache: a reduction over a large output, such as the
    // vocabulary, without a second pass over it.
    //   y_piece: [r1 - r0]
    using PieceDone = std::function<void(float* y_piece, int64_t r0, int64_t r1, int slot)>;
    // y = x W^T for one activation row (x: [w.n_in], y: [w.n_out]); every output is handed to
    // `done` exactly once, in pieces of at most kPieceRows.
    static constexpr int64_t kPieceRows = 1024;
    void run_row(const Linear& w, const float* x, float* y, const PieceDone& done);

private:
    void run_q8(std::span<const Linear* const> ws, const float* x, int64_t n_rows, std::span<float* const> ys,
                const PieceDone* done = nullptr);
    void run_f16(const Linear& w, const float* x, int64_t n_rows, float* y, const PieceDone* done = nullptr);
    void run_float(const Linear& w, const float* x, int64_t n_rows, float* y, const PieceDone* done = nullptr);
    void run_blas(const Linear& w, const float* x, int64_t n_rows, float* y);

    ThreadPool& pool_;
    const kernels::Kernels& k_;
    std::vector<kernels::BlockQ8> xq_;           // [n_rows][n_in / 32]
    std::vector<std::vector<float>> slot_buf_;   // [slot] -> dequantized row or tile
    static constexpr int64_t kExLine = 64;
    struct alignas(kExLine) ExLine {
        uint8_t bytes[kExLine];
    };
    std::vector<std::vector<ExLine>> slot_ex_;   // [slot] -> a weight group expanded (kernels::Expansion)
};

// Dequantizes rows [r0, r1) of w into dst ([r1 - r0][n_in] float).
void dequantize_rows(const kernels::Kernels& k, const Linear& w, int64_t r0, int64_t r1, float* dst);

}  // namespace lmscope::engine
