// The CPU backend's key/value cache: per layer, K and V of the positions held, stored as f16
// (default), q8_0 or q4_0 (GGUF block layouts, quantized with gguf::quantize_row), with its bytes
// measured from the storage and truncation (rewind, branching, prefix reuse).
//
// A global layer keeps every position, in pages of kPage positions allocated as its rows are
// written (open_layer, a layer at a time) and freed as they go. A local (sliding-window) layer of window W only ever reads the
// last W positions, so it keeps them in a ring: position p lives in slot p % capacity, the
// capacity is W + kRewindSlack between steps (the slack lets short rewinds resume) and grows for
// a step of n rows to W - 1 + n (its first row still sees its window while the last is written).
// A rewind further back than a ring still holds forgets every position (the caller feeds them
// again).
//
// The bytes held are measured: each layer counts the rows it holds (the step's rows as they are
// written, less every position that leaves: a truncation, a local layer's position sliding out
// of its window) and multiplies them by the storage type's row size (its block layout). The formula (kv/kv_math.h) is a separate computation, which they
// should equal: 2 x kv_heads x row bytes x (sum over global layers of n + sum over local layers
// of min(n, W)).
//
// Offload (a resident budget): before each attention over a global layer (its step's rows
// written), the layer keeps its newest pages in memory and writes the older ones not yet in the
// file, whole, to a private temporary file (KvOffloadFile); then every page of it in the file is
// read back into one staging buffer shared by the layers, which the attention reads them from.
// The rows and the order the attention reads them in are the same, so the results are
// bit-identical to a cache held whole in memory.
#pragma once

#include "gguf/tensor_type.h"
#include "util/page_allocator.h"
#include "util/types.h"

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace lmscope::engine {

gguf::TensorType kv_storage_type(KvType type);  // F16, Q8_0, Q4_0

// Geometry of a cache. Its bytes are the KV formula's (kv/kv_math.h), exact: one head's K (or
// V) row for one position takes kv::row_bytes(head_dim, type) bytes (f16: 2 per value; q8_0:
// 34 per 32 values; q4_0: 18 per 32 values), so f16 gives the textbook 2 x layers x kv_heads x
// head_dim x tokens x 2 bytes. The shape must be valid (KvCache checks it).
struct KvShape {
    int32_t n_layer = 0;
    int32_t n_kv_head = 0;
    int32_t head_dim = 0;
    KvType type = KvType::F16;

    size_t row_bytes() const;               // one head, one position, K or V
    size_t bytes_per_token_layer() const;   // K + V of all kv heads, one layer, one position
    size_t bytes(int64_t n_tokens) const;   // K + V, all layers kept whole, n_tokens positions
};

class KvOffloadFile;

class KvCache {
public:
    // Positions a local layer keeps beyond its window between steps, so that rewinding up to
    // this many tokens resumes without feeding the sequence again.
    static constexpr int32_t kRewindSlack = 64;
    // Positions of one page of a global layer (a multiple of 4, so that the attention's
    // four-key units fall alike however the pages are split).
    static constexpr int32_t kPage = 64;

    // windows: [n_layer] 0 = a global layer, W > 0 = a local layer seeing its last W positions;
    // empty = every layer global. resident_budget > 0: at most that many bytes of the cache stay
    // in memory; the older pages of the global layers go to a KvOffloadFile (the local layers'
    // rings stay, and the global layers keep at least one page each, which may exceed a budget
    // too small for them). Throws UsageError when the type cannot store rows of head_dim values
    // (q8_0 / q4_0 need head_dim to be a multiple of 32), a dimension is not positive or the
    // windows do not match the layers; IoError when the offload file cannot be created.
    KvCache(KvShape shape, int32_t n_ctx, std::vector<int32_t> windows = {}, uint64_t resident_budget = 0);
    ~KvCache();

    const KvShape& shape() const { return shape_; }
    int32_t n_ctx() const { return n_ctx_; }
    int32_t n_tokens() const { return n_tokens_; }  // positions 0 .. n_tokens-1 fed
    int32_t window(int32_t layer) const { return windows_[size_t(layer)]; }
    // Positions the layer has room for in memory: its ring, or its resident pages.
    int32_t capacity(int32_t layer) const;

    // ---- measured from the storage ----
    // One head's K (or V) row as stored: the storage type's block bytes per block of values.
    size_t row_bytes() const { return row_bytes_; }
    // Rows (positions) the layer holds, in memory and in the file: counted as the step's rows are
    // written and committed, and as positions leave: a truncation, a local layer's position
    // sliding out of its window (its slot then only serves a rewind into the slack, which takes
    // it back) or overwritten.
    int64_t rows(int32_t layer) const;
    size_t layer_bytes(int32_t layer) const;  // rows(layer) x K and V x kv heads x row_bytes()
    size_t total_bytes() const;               // all layers
    size_t resident_bytes() const;            // memory the rows' storage takes: rings and resident pages
    size_t offloaded_bytes() const;           // bytes of the rows in the offload file
    size_t staging_bytes() const;             // the buffer the file's pages are read into, one layer at a time
    size_t allocated_bytes() const;           // resident_bytes() + staging_bytes()
    uint64_t bytes_moved() const { return moved_; }  // written to and read from the file, ever
    bool offloads() const { return file_ != nullptr; }
    int32_t resident_pages() const { return keep_pages_; }  // per global layer, when offloading

    // Whether truncate(n) keeps n positions: every local layer still holds the window before n.
    bool resumable(int32_t n) const;
    // Forgets every position >= n (n <= n_tokens()); forgets them all when !resumable(n).
    void truncate(int32_t n);

    // ---- backend side ----
    // Makes room to write positions [pos0, pos0 + n) (pos0 == n_tokens(), pos0 + n <= n_ctx())
    // while each of those rows still sees its window; the held count is unchanged. A page of pos0
    // that a truncation left in the file is read back (IoError when it cannot be).
    void reserve(int32_t pos0, int32_t n);
    // Before the step's rows of one layer are written: a global layer's pages for them are
    // allocated now, a layer at a time, so that with offload only the layer being computed holds
    // its step's rows beyond the budget.
    void open_layer(int32_t layer);
    // Stores K and V of one layer at one position of the reserved step, after open_layer(layer)
    // (rows of one layer may be written from several threads at once).
    //   k, v: [n_kv_head][head_dim] float
    // to_f16: how an f16 cache converts them (a vectorised kernel with gguf's round-to-nearest-
    // even bits, kernels.h f32_to_f16); null: gguf::quantize_row.
    using ToF16 = void (*)(const float* src, uint16_t* dst, int64_t n);
    void write(int32_t layer, int32_t pos, const float* k, const float* v, ToF16 to_f16 = nullptr);
    // Before the attention of a global layer reads it (its step's rows written): its pages beyond
    // resident_pages() go to the file, oldest first (offload), then every page of it in the file
    // is read into the staging buffer (stage: the rows k_row / v_row give for them until the next
    // stage()). IoError when the file refuses.
    void offload(int32_t layer);
    void stage(int32_t layer);
    // Marks positions [0, n) as fed (after every layer has written them): the step's written rows
    // are committed; local layers give back the room a long step took.
    void set_n_tokens(int32_t n);

    // Stored rows (storage type layout), [head_dim] values each, of a position the layer holds
    // (a global layer's position in the file: after stage(layer)).
    const uint8_t* k_row(int32_t layer, int32_t pos, int32_t kv_head) const { return row(layer, pos, kv_head, 0); }
    const uint8_t* v_row(int32_t layer, int32_t pos, int32_t kv_head) const { return row(layer, pos, kv_head, 1); }
    // How many positions from pos on lie in consecutive slots (a kv head's rows are row bytes
    // apart) before the layer's ring wraps or its page ends.
    int32_t contiguous(int32_t layer, int32_t pos) const {
        const int32_t cap = windows_[size_t(layer)] > 0 ? capacity_[size_t(layer)] : kPage;
        return cap - pos % cap;
    }

private:
    using Bytes = std::vector<uint8_t, PageAllocator<uint8_t>>;

    const uint8_t* row(int32_t layer, int32_t pos, int32_t kv_head, int kv) const {
        const size_t l = size_t(layer);
        if (windows_[l] > 0) return (kv ? v_ : k_)[l].data() + ring_offset(layer, pos, kv_head);
        const int32_t p = pos / kPage;
        const uint8_t* page = p < offloaded_[l] ? staging_.data() + size_t(p) * page_bytes_ : pages_[l][size_t(p)].data();
        return page + ((size_t(kv) * size_t(shape_.n_kv_head) + size_t(kv_head)) * kPage + size_t(pos % kPage)) * row_bytes_;
    }
    size_t ring_offset(int32_t layer, int32_t pos, int32_t kv_head) const {
        const int32_t cap = capacity_[size_t(layer)];
        return (size_t(kv_head) * size_t(cap) + size_t(pos % cap)) * row_bytes_;
    }
    // Re-lays a local layer out in `capacity` slots, keeping the newest of its held positions.
    void relayout(int32_t layer, int32_t capacity);
    // A local layer's held positions become [max(first_, n_tokens - W), n_tokens): counts those
    // that left or came back.
    void count_window(size_t layer);
    uint64_t file_offset(size_t layer, int32_t page) const;  // of a global layer's page

    KvShape shape_;
    int32_t n_ctx_ = 0;
    int32_t n_tokens_ = 0;
    int32_t step_end_ = 0;           // positions [n_tokens, step_end) reserved for the step
    size_t row_bytes_ = 0;           // one head's row, from the storage type's block layout
    size_t page_bytes_ = 0;          // K and V of a global layer's page: [2][kv_head][kPage][row_bytes]
    std::vector<int32_t> windows_;   // [layer] 0 = global, W = local
    std::vector<int32_t> capacity_;  // [layer] a local layer's ring slots (0 until the first reserve)
    std::vector<int32_t> first_;     // [layer] oldest position still stored (0 on global layers)
    std::vector<int64_t> rows_;      // [layer] positions held, committed
    std::vector<int32_t> held_from_; // [layer] oldest position counted in rows_ (0 on global layers)
    std::unique_ptr<std::atomic<int64_t>[]> step_rows_;  // [layer] rows written in the step in progress
    std::vector<Bytes> k_;           // [layer] local: [kv_head][slot][row_bytes]
    std::vector<Bytes> v_;           // [layer] local: [kv_head][slot][row_bytes]
    std::vector<std::vector<Bytes>> pages_;  // [layer][page] global: [2][kv_head][kPage][row_bytes], empty when not in memory
    std::vector<int32_t> offloaded_; // [layer] pages [0, offloaded) are in the file (global layers)
    std::vector<int32_t> global_index_;  // [layer] the global layer's index among them (its region of the file)
    int32_t keep_pages_ = 0;         // pages a global layer keeps in memory when offloading (0: no offload)
    std::unique_ptr<KvOffloadFile> file_;
    Bytes staging_;                  // [page][2][kv_head][kPage][row_bytes] the staged layer's file pages
    uint64_t moved_ = 0;
};

}  // namespace lmscope::engine
