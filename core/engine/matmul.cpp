#include "engine/matmul.h"

#include "engine/repack.h"

#include "gguf/quant.h"

#include "util/error.h"

#include <algorithm>
#include <cblas.h>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

// OpenBLAS's thread count setter, when the BLAS in use is OpenBLAS (weak: absent elsewhere).
extern "C" void openblas_set_num_threads(int) __attribute__((weak));

namespace lmscope::engine {

namespace {

using gguf::TensorType;

constexpr int64_t kBlasMinRows = 16;  // from this many activation rows, dequantize + sgemm
constexpr int64_t kTileRows = 128;  // weight rows dequantized per sgemm call

constexpr size_t kHugePage = size_t(2) << 20;

// Drops the whole pages of [p, p + n) from this process (a read-only file mapping: they are
// read again from the page cache if touched later).
void release_pages(const uint8_t* p, size_t n) {
    const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    const uintptr_t b = (reinterpret_cast<uintptr_t>(p) + page - 1) & ~(page - 1);
    const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + n) & ~(page - 1);
    if (b < e) madvise(reinterpret_cast<void*>(b), e - b, MADV_DONTNEED);
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

std::optional<kernels::PackFormat> Linear::pack_format() const { return kernels::pack_format(type); }

size_t Linear::group_bytes() const {
    const auto f = pack_format();
    if (!f || n_in % kernels::elements_per_chunk(*f) != 0) return 0;
    return size_t(n_in / kernels::elements_per_chunk(*f)) * size_t(kernels::chunk_bytes(*f));
}

size_t Linear::packed_bytes() const {
    return size_t((n_out + kernels::kPackRows - 1) / kernels::kPackRows) * group_bytes();
}

PackedWeights::~PackedWeights() {
    if (base_) munmap(base_, mapped_);
}

void PackedWeights::pack(std::span<Linear* const> ws) {
    if (base_) throw UsageError("PackedWeights::pack: already packed");
    size_t total = 0;  // each matrix 64-byte aligned
    for (const Linear* w : ws) total += (w->packed_bytes() + 63) & ~size_t(63);
    if (total == 0) return;
    mapped_ = (total + kHugePage - 1) / kHugePage * kHugePage;
    // map one huge page more, to start at a 2 MiB boundary; give the slack back
    void* raw = mmap(nullptr, mapped_ + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw IoError("packed weights: cannot map " + std::to_string(mapped_) + " bytes");
    uint8_t* r = static_cast<uint8_t*>(raw);
    base_ = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(r) + kHugePage - 1) & ~(kHugePage - 1));
    if (base_ > r) munmap(r, size_t(base_ - r));
    if (base_ + mapped_ < r + mapped_ + kHugePage) munmap(base_ + mapped_, size_t(r + mapped_ + kHugePage - (base_ + mapped_)));
    madvise(base_, mapped_, MADV_HUGEPAGE);  // a hint: without huge pages it still works
    bytes_ = total;
    size_t off = 0;
    for (Linear* w : ws) {
        const size_t bytes = w->packed_bytes();
        if (bytes == 0) continue;
        // in slices of 1024 rows, each slice's file pages released once packed, so a large matrix
        // (a tied embedding) is never held twice
        constexpr int64_t kSlice = 64 * kernels::kPackRows;
        for (int64_t r0 = 0; r0 < w->n_out; r0 += kSlice) {
            const int64_t n = std::min(kSlice, w->n_out - r0);
            pack_rows(*w->pack_format(), w->row(r0), w->row_bytes, n, w->n_in,
                      base_ + off + size_t(r0 / kernels::kPackRows) * w->group_bytes());
            release_pages(w->row(r0), w->row_bytes * size_t(n));
        }
        w->packed = base_ + off;
        off += (bytes + 63) & ~size_t(63);
    }
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
    : pool_(pool), k_(k), slot_buf_(size_t(pool.size())), slot_ex_(size_t(pool.size())) {
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
        fused = fused && w->packed && w->n_in == ws[0]->n_in;
    if (fused) return run_q8(ws, x, n_rows, ys);
    for (size_t i = 0; i < ws.size(); ++i) {
        if (ws[i]->type == TensorType::F16)
            run_f16(*ws[i], x, n_rows, ys[i]);
        else if (n_rows >= kBlasMinRows)
            run_blas(*ws[i], x, n_rows, ys[i]);
        else
            run_float(*ws[i], x, n_rows, ys[i]);
    }
}

void MatMul::run_row(const Linear& w, const float* x, float* y, const PieceDone& done) {
    if (w.packed) {
        const Linear* ws[1] = {&w};
        float* ys[1] = {y};
        run_q8(ws, x, 1, ys, &done);
    } else if (w.type == TensorType::F16) {
        run_f16(w, x, 1, y, &done);
    } else {
        run_float(w, x, 1, y, &done);
    }
}

void MatMul::run_q8(std::span<const Linear* const> ws, const float* x, int64_t n_rows,
                    std::span<float* const> ys, const PieceDone* done) {
    if (done && (n_rows != 1 || ws.size() != 1)) throw UsageError("matmul: pieces are handed over for one matrix and one row");
    const int64_t n_in = ws[0]->n_in;
    const int64_t nb = n_in / kernels::kQ8Block;
    xq_.resize(size_t(n_rows * nb));  // [n_rows][nb], shared by every matrix
    pool_.parallel_for(n_rows, 1, [&](int64_t t0, int64_t t1, int) {
        for (int64_t t = t0; t < t1; ++t) k_.quantize_q8(x + t * n_in, xq_.data() + t * nb, n_in);
    });
    constexpr int64_t R = kernels::kPackRows;
    int64_t total = 0;  // the matrices' groups of 16 rows, one after another, split over the threads
    for (const Linear* w : ws) total += (w->n_out + R - 1) / R;
    const kernels::BlockQ8* xq = xq_.data();
    constexpr int64_t kPieceGroups = kPieceRows / R;
    // pieces handed over go to the slot's own accumulator, in its order: the plain split
    auto each_share = [&](auto&& body) {
        if (done) pool_.parallel_for(total, 1, body);
        else pool_.parallel_for_balanced(total, 1, body);
    };
    each_share([&](int64_t g0, int64_t g1, int slot) {
        int64_t first = 0;  // global index of matrix i's group 0
        for (size_t i = 0; i < ws.size(); ++i) {
            const Linear& w = *ws[i];
            const int64_t n_groups = (w.n_out + R - 1) / R;
            const int64_t q0 = std::max<int64_t>(g0 - first, 0), q1 = std::min<int64_t>(g1 - first, n_groups);
            first += n_groups;
            if (q0 >= q1) continue;
            const kernels::PackedKernel kernel = k_.packed[int(*w.pack_format())];
            const size_t group_bytes = w.group_bytes();
            float* y = ys[i];
            const int64_t n_chunks = (n_rows + kernels::kMaxActs - 1) / kernels::kMaxActs;
            // several chunks: a group's values expanded once for them all, where that pays
            const kernels::Expansion& expansion = k_.expanded[int(*w.pack_format())];
            void* ex = nullptr;  // [nb][bytes_per_block]: group g, expanded
            if (expansion.expand && n_chunks > 1) {
                std::vector<ExLine>& buf = slot_ex_[size_t(slot)];
                buf.resize(size_t((nb * expansion.bytes_per_block + kExLine - 1) / kExLine));
                ex = buf.data();
            }
            for (int64_t g = q0; g < q1; ++g) {
                const uint8_t* wg = w.packed + size_t(g) * group_bytes;
                const int rows = int(std::min<int64_t>(R, w.n_out - g * R));
                if (ex) expansion.expand(wg, nb, ex);
                for (int64_t t = 0, c = 0; t < n_rows; t += kernels::kMaxActs, ++c) {
                    // prefill: the next group's lines into L1, a share per chunk of activation rows
                    // (the stream from DRAM stalls the kernel's first chunk otherwise); decode's
                    // single chunk is left to the hardware prefetchers
                    if (n_chunks > 1 && g + 1 < q1)
                        for (size_t off = group_bytes * size_t(c) / size_t(n_chunks) / 64 * 64;
                             off < group_bytes * size_t(c + 1) / size_t(n_chunks); off += 64)
                            __builtin_prefetch(wg + group_bytes + off, 0, 3);
                    const int na = int(std::min<int64_t>(kernels::kMaxActs, n_rows - t));
                    float* yt = y + t * w.n_out + g * R;
                    if (ex) expansion.kernel(wg, ex, nb, xq + t * nb, nb, na, rows, yt, w.n_out);
                    else kernel(wg, nb, xq + t * nb, nb, na, rows, yt, w.n_out);
                }
                if (done && (g + 1 == q1 || (g + 1 - q0) % kPieceGroups == 0)) {
                    const int64_t r0 = (q0 + (g - q0) / kPieceGroups * kPieceGroups) * R, r1 = std::min(w.n_out, (g + 1) * R);
                    (*done)(y + r0, r0, r1, slot);
                }
            }
        }
    });
}

void MatMul::run_f16(const Linear& w, const float* x, int64_t n_rows, float* y, const PieceDone* done) {
    constexpr int64_t kRowStep = 4;  // weight rows in fours (dot_f16_rows' unit)
    const int64_t steps = (w.n_out + kRowStep - 1) / kRowStep;
    pool_.parallel_for(steps, 1, [&](int64_t s0, int64_t s1, int slot) {
        const int64_t b = s0 * kRowStep, e = std::min(w.n_out, s1 * kRowStep);
        for (int64_t r0 = b; r0 < e; r0 += kPieceRows) {  // in pieces, each handed over while in cache
            const int64_t r1 = std::min(e, r0 + kPieceRows);
            const auto* rows = reinterpret_cast<const uint16_t*>(w.row(r0));  // [r1 - r0][n_in]
            for (int64_t t = 0; t < n_rows; t += kernels::kMaxActs) {  // each weight row read once per 8 inputs
                const int nq = int(std::min<int64_t>(kernels::kMaxActs, n_rows - t));
                k_.dot_f16_rows(rows, size_t(w.n_in), x + t * w.n_in, nq, w.n_in, r1 - r0, y + t * w.n_out + r0,
                                size_t(w.n_out));
            }
            if (done) (*done)(y + r0, r0, r1, slot);
        }
    });
}

void MatMul::run_float(const Linear& w, const float* x, int64_t n_rows, float* y, const PieceDone* done) {
    pool_.run([&](int ti, int nt) {
        const int64_t per = (w.n_out + nt - 1) / nt;
        const int64_t n0 = std::min(w.n_out, int64_t(ti) * per), n1 = std::min(w.n_out, n0 + per);
        std::vector<float>& buf = slot_buf_[size_t(ti)];  // [n_in] one dequantized row
        if (w.type != TensorType::F32 && w.type != TensorType::BF16) buf.resize(size_t(w.n_in));
        for (int64_t n = n0; n < n1; ++n) {
            for (int64_t t = 0; t < n_rows; ++t) {
                const float* xt = x + t * w.n_in;
                float v;
                if (w.type == TensorType::F32) {
                    v = k_.dot_f32(reinterpret_cast<const float*>(w.row(n)), xt, w.n_in);
                } else if (w.type == TensorType::BF16) {
                    v = k_.dot_bf16(reinterpret_cast<const uint16_t*>(w.row(n)), xt, w.n_in);
                } else {
                    if (t == 0) gguf::dequantize_row(w.type, w.row(n), buf.data(), w.n_in);
                    v = k_.dot_f32(buf.data(), xt, w.n_in);
                }
                y[t * w.n_out + n] = v;
            }
            if (done && (n + 1 == n1 || (n + 1 - n0) % kPieceRows == 0)) {
                const int64_t r0 = n0 + (n - n0) / kPieceRows * kPieceRows;
                (*done)(y + r0, r0, n + 1, ti);
            }
        }
    });
}

void MatMul::run_blas(const Linear& w, const float* x, int64_t n_rows, float* y) {
    pool_.run([&](int ti, int nt) {
        // this slot's weight rows, in multiples of the tile size where possible
        const int64_t per = (w.n_out + nt - 1) / nt;
        const int64_t n0 = std::min(w.n_out, int64_t(ti) * per), n1 = std::min(w.n_out, n0 + per);
        std::vector<float>& tile = slot_buf_[size_t(ti)];  // [kTileRows][n_in]
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
