#include "cli/memory_estimate.h"

#include "engine/kv_cache.h"
#include "util/error.h"

#include <cstdio>
#include <unistd.h>

namespace lmscope::cli {

namespace {

// a * b * ..., saturating
uint64_t product(std::initializer_list<uint64_t> factors) {
    uint64_t p = 1;
    for (uint64_t f : factors)
        if (__builtin_mul_overflow(p, f, &p)) return UINT64_MAX;
    return p;
}

uint64_t sum(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace

uint64_t physical_memory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : UINT64_MAX;
}

std::string gib(uint64_t bytes) {
    char buf[32];
    if (bytes < (uint64_t(1) << 30))
        std::snprintf(buf, sizeof(buf), "%.0f MiB", double(bytes) / double(uint64_t(1) << 20));
    else
        std::snprintf(buf, sizeof(buf), "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
    return buf;
}

void check_memory(const std::string& command, const std::vector<MemoryPart>& parts) {
    uint64_t total = 0;
    for (const MemoryPart& p : parts) total = sum(total, p.bytes);
    const uint64_t have = physical_memory();
    if (total <= have) return;
    std::string detail;
    for (const MemoryPart& p : parts) {
        if (p.bytes == 0) continue;
        detail += (detail.empty() ? "" : ", ") + gib(p.bytes) + " for " + p.what;
    }
    throw Error(command + ": needs " + gib(total) + " (" + detail + "), more than this machine's " + gib(have) +
                " of memory");
}

MemoryPart weights_part(const engine::Model& m) {
    uint64_t bytes = 0;
    for (const gguf::TensorInfo& t : m.file().tensors()) bytes = sum(bytes, t.n_bytes);
    return {"the model's matrices", bytes};
}

MemoryPart kv_part(const model::ModelSpec& s, KvType type, int64_t positions) {
    const engine::KvShape shape{s.n_layer(), s.n_head_kv(), s.head_dim(), type};
    const uint64_t bytes = product({shape.bytes(1), uint64_t(positions)});
    return {"the KV cache (" + std::to_string(positions) + " positions, " + std::string(kv_type_name(type)) + ")",
            bytes};
}

MemoryPart activations_part(const model::ModelSpec& s, int64_t rows, bool all_logits) {
    // per row: the residual, normed and projection rows, q, k, v, the attention output, gate
    // and up, as float (cpu_backend.cpp), and one row of logits
    const uint64_t E = uint64_t(s.n_embd()), QD = uint64_t(s.n_head()) * uint64_t(s.head_dim());
    const uint64_t KD = uint64_t(s.n_head_kv()) * uint64_t(s.head_dim()), F = uint64_t(s.n_ff());
    const uint64_t per_row = 4 * (3 * E + 2 * QD + 2 * KD + 2 * F);
    const uint64_t logits = product({uint64_t(all_logits ? rows : 1), uint64_t(s.n_vocab()), 4});
    return {"the activations of " + std::to_string(rows) + " rows", sum(product({per_row, uint64_t(rows)}), logits)};
}

MemoryPart planes_part(const model::ModelSpec& s, int64_t rows, int64_t keys) {
    return {"the attention planes (layers x heads x " + std::to_string(rows) + " x " + std::to_string(keys) + " floats)",
            product({uint64_t(s.n_layer()), uint64_t(s.n_head()), uint64_t(rows), uint64_t(keys), 4})};
}

}  // namespace lmscope::cli
