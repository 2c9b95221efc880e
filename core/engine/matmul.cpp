#include "engine/matmul.h"

#include "gguf/quant.h"

#include <algorithm>
#include <cblas.h>

// OpenBLAS's thread count setter, when the BLAS in use is OpenBLAS (weak: absent elsewhere).
extern "C" void openblas_set_num_threads(int) __attribute__((weak));

namespace lmscope::engine {

namespace {

using gguf::TensorType;

constexpr int64_t kBlasMinRows = 16;  // from this many activation rows, dequantize + sgemm
constexpr int64_t kTileRows = 128;  // weight rows dequantized per sgemm call

bool is_q8_dot_type(TensorType t) {
    return t == TensorType::Q4_0 || t == TensorType::Q4_1 || t == TensorType::Q8_0;
}

void blas_single_threaded() {
    static const bool done = [] {
        if (openblas_set_num_threads) openblas_set_num_threads(1);
        return true;
    }();
    (void)done;
}

}  // namespace

Linear Linear::from(const gguf::TensorInfo& t) {
    Linear l;
    l.type = t.type;
    l.n_in = t.ne[0];
    l.n_out = t.n_rows();
    l.row_bytes = gguf::row_bytes(t.type, t.ne[0]);
    l.data = t.data;
    return l;
}

void dequantize_rows(const kernels::Kernels& k, const Linear& w, int64_t r0, int64_t r1, float* dst) {
    for (int64_t r = r0; r < r1; ++r) {
        float* out = dst + (r - r0) * w.n_in;
        if (w.type == TensorType::F16)
            k.f16_to_f32(reinterpret_cast<const uint16_t*>(w.row(r)), out, w.n_in);
        else
            gguf::dequantize_row(w.type, w.row(r), out, w.n_in);
    }
}

MatMul::MatMul(ThreadPool& pool, const kernels::Kernels& k)
    : pool_(pool), k_(k), thread_buf_(size_t(pool.size())) {
    blas_single_threaded();
}

void MatMul::run(const Linear& w, const float* x, int64_t n_rows, float* y) {
    const Linear* ws[1] = {&w};
    float* ys[1] = {y};
    run(ws, x, n_rows, ys);
}

void MatMul::run(std::span<const Linear* const> ws, const float* x, int64_t n_rows,
                 std::span<float* const> ys) {
    if (n_rows <= 0 || ws.empty()) return;
    bool fused = true;
    for (const Linear* w : ws)
        fused = fused && is_q8_dot_type(w->type) && w->n_in % kernels::kQ8Block == 0 && w->n_in == ws[0]->n_in;
    if (fused) return run_q8(ws, x, n_rows, ys);
    for (size_t i = 0; i < ws.size(); ++i) {
        if (n_rows >= kBlasMinRows)
            run_blas(*ws[i], x, n_rows, ys[i]);
        else
            run_float(*ws[i], x, n_rows, ys[i]);
    }
}

void MatMul::run_q8(std::span<const Linear* const> ws, const float* x, int64_t n_rows,
                    std::span<float* const> ys) {
    const int64_t n_in = ws[0]->n_in;
    const int64_t nb = n_in / kernels::kQ8Block;
    xq_.resize(size_t(n_rows * nb));  // [n_rows][nb], shared by every matrix
    pool_.parallel_for(n_rows, 1, [&](int64_t t0, int64_t t1, int) {
        for (int64_t t = t0; t < t1; ++t) k_.quantize_q8(x + t * n_in, xq_.data() + t * nb, n_in);
    });
    int64_t total = 0;  // the matrices' rows, one after another, split over the threads
    for (const Linear* w : ws) total += w->n_out;
    const kernels::BlockQ8* xq = xq_.data();
    pool_.parallel_for(total, 16, [&](int64_t g0, int64_t g1, int) {
        int64_t first = 0;  // global index of matrix i's row 0
        for (size_t i = 0; i < ws.size(); first += ws[i]->n_out, ++i) {
            const Linear& w = *ws[i];
            const int64_t n0 = std::max<int64_t>(g0 - first, 0), n1 = std::min<int64_t>(g1 - first, w.n_out);
            if (n0 >= n1) continue;
            const bool q40 = w.type == TensorType::Q4_0, q41 = w.type == TensorType::Q4_1;
            auto rows = q40 ? k_.rows_q4_0 : q41 ? k_.rows_q4_1 : k_.rows_q8_0;
            auto tile = q40 ? k_.tile_q4_0 : q41 ? k_.tile_q4_1 : k_.tile_q8_0;
            auto col = q40 ? k_.col_q4_0 : q41 ? k_.col_q4_1 : k_.col_q8_0;
            constexpr int64_t R = kernels::kMaxTileRows;
            float* y = ys[i];
            int64_t n = n0;
            // 4 weight rows at a time: 4 x 4 tiles (prefill), then single activation rows
            for (; n + R <= n1; n += R) {
                if (n_rows < R && n + 2 * R <= n1)  // decode: the next 4 rows from L3 in time
                    for (size_t off = 0; off < R * w.row_bytes; off += 64) __builtin_prefetch(w.row(n + R) + off);
                float out[R * R];
                int64_t t = 0;
                for (; t + R <= n_rows; t += R) {
                    tile(w.row(n), w.row_bytes, xq + t * nb, nb, nb, out);
                    for (int64_t a = 0; a < R; ++a)
                        for (int64_t b = 0; b < R; ++b) y[(t + b) * w.n_out + n + a] = out[a * R + b];
                }
                for (; t < n_rows; ++t) {
                    col(w.row(n), w.row_bytes, xq + t * nb, nb, out);
                    for (int64_t a = 0; a < R; ++a) y[t * w.n_out + n + a] = out[a];
                }
            }
            // one weight row at a time (decode, and the rows left over)
            for (; n < n1; ++n) {
                const uint8_t* wr = w.row(n);
                if (n + 2 < n1)  // the row after next: from L3 in time
                    for (size_t off = 0; off < w.row_bytes; off += 64) __builtin_prefetch(w.row(n + 2) + off);
                float out[R];
                for (int64_t t = 0; t < n_rows; t += R) {
                    const int r = int(std::min<int64_t>(R, n_rows - t));
                    rows(wr, xq + t * nb, nb, r, nb, out);
                    for (int j = 0; j < r; ++j) y[(t + j) * w.n_out + n] = out[j];
                }
            }
        }
    });
}

void MatMul::run_float(const Linear& w, const float* x, int64_t n_rows, float* y) {
    pool_.run([&](int ti, int nt) {
        const int64_t per = (w.n_out + nt - 1) / nt;
        const int64_t n0 = std::min(w.n_out, int64_t(ti) * per), n1 = std::min(w.n_out, n0 + per);
        std::vector<float>& buf = thread_buf_[size_t(ti)];  // [n_in] one dequantized row
        if (w.type != TensorType::F32 && w.type != TensorType::F16) buf.resize(size_t(w.n_in));
        for (int64_t n = n0; n < n1; ++n) {
            for (int64_t t = 0; t < n_rows; ++t) {
                const float* xt = x + t * w.n_in;
                float v;
                if (w.type == TensorType::F32) {
                    v = k_.dot_f32(reinterpret_cast<const float*>(w.row(n)), xt, w.n_in);
                } else if (w.type == TensorType::F16) {
                    v = k_.dot_f16(reinterpret_cast<const uint16_t*>(w.row(n)), xt, w.n_in);
                } else {
                    if (t == 0) gguf::dequantize_row(w.type, w.row(n), buf.data(), w.n_in);
                    v = k_.dot_f32(buf.data(), xt, w.n_in);
                }
                y[t * w.n_out + n] = v;
            }
        }
    });
}

void MatMul::run_blas(const Linear& w, const float* x, int64_t n_rows, float* y) {
    pool_.run([&](int ti, int nt) {
        // this thread's weight rows, in multiples of the tile size where possible
        const int64_t per = (w.n_out + nt - 1) / nt;
        const int64_t n0 = std::min(w.n_out, int64_t(ti) * per), n1 = std::min(w.n_out, n0 + per);
        std::vector<float>& tile = thread_buf_[size_t(ti)];  // [kTileRows][n_in]
        for (int64_t r0 = n0; r0 < n1; r0 += kTileRows) {
            const int64_t r1 = std::min(n1, r0 + kTileRows);
            const float* wt;
            if (w.type == TensorType::F32) {
                wt = reinterpret_cast<const float*>(w.row(r0));
            } else {
                tile.resize(size_t(kTileRows * w.n_in));
                dequantize_rows(k_, w, r0, r1, tile.data());
                wt = tile.data();
            }
            // y[:, r0:r1] = x [n_rows][n_in] * wt^T [n_in][r1 - r0]
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(n_rows), int(r1 - r0), int(w.n_in),
                        1.0f, x, int(w.n_in), wt, int(w.n_in), 0.0f, y + r0, int(w.n_out));
        }
    });
}

}  // namespace lmscope::engine
