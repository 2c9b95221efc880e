#include "cli/bandwidth.h"

#include "engine/thread_pool.h"
#include "util/clock.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace lmscope::cli {

namespace {

using Words = uint64_t __attribute__((vector_size(16)));  // two 64-bit lanes: SSE2 everywhere

// Sum of words [begin, end): four independent accumulators keep the loads in flight.
Words sum_words(const Words* w, int64_t begin, int64_t end) {
    Words a{}, b{}, c{}, d{};
    int64_t i = begin;
    for (; i + 4 <= end; i += 4) {
        a += w[i];
        b += w[i + 1];
        c += w[i + 2];
        d += w[i + 3];
    }
    for (; i < end; ++i) a += w[i];
    return a + b + c + d;
}

}  // namespace

ReadBandwidth measure_read_bandwidth(size_t bytes, int threads, int passes) {
    constexpr size_t kMinBytes = size_t(64) << 20;
    const int64_t n = int64_t(std::max(bytes, kMinBytes) / sizeof(Words));
    std::vector<Words> buffer(static_cast<size_t>(n));  // [n] 16-byte words
    for (int64_t i = 0; i < n; ++i) buffer[size_t(i)] = Words{uint64_t(i), uint64_t(i) * 3};  // pages touched
    engine::ThreadPool pool(std::max(1, threads));
    std::vector<Words> partial(size_t(pool.size()));
    ReadBandwidth r;
    r.buffer_bytes = size_t(n) * sizeof(Words);
    r.threads = pool.size();
    volatile uint64_t sink = 0;  // the sums are used: the reads cannot be optimised away
    for (int pass = 0; pass < std::max(1, passes); ++pass) {
        const auto t0 = Clock::now();
        pool.parallel_for(n, 4096, [&](int64_t b, int64_t e, int t) { partial[size_t(t)] = sum_words(buffer.data(), b, e); });
        const double s = seconds_since(t0);
        for (const Words& w : partial) sink = sink + w[0] + w[1];
        if (s > 0) r.bytes_per_s = std::max(r.bytes_per_s, double(r.buffer_bytes) / s);
    }
    return r;
}

uint64_t decode_weight_bytes(const engine::Model& model) {
    const model::ModelSpec& s = model.spec();
    uint64_t bytes = 0;
    for (const gguf::TensorInfo& t : model.file().tensors()) {
        if (t.name == "token_embd.weight" && !s.tied_output) {
            bytes += t.n_bytes / uint64_t(std::max(1, s.n_vocab()));  // the fed token's row
            continue;
        }
        bytes += t.n_bytes;
    }
    return bytes;
}

}  // namespace lmscope::cli
