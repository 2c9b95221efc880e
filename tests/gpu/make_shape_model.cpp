// make_shape_model OUT.gguf SHAPE [TYPE]: writes a llama-architecture GGUF with random weights
// and a published model's shapes, for timing the backends on model sizes the repository does
// not ship (speed does not depend on the weights' values). No tokenizer: the vocabulary size
// comes from token_embd.weight, so `lmscope-cli bench` runs it (with pseudo-random ids).
//   SHAPE: llama-3.2-1b | smollm2-135m
//   TYPE: f16 (default), or any type gguf::quantize_row makes (q8_0, q4_1, bf16, ...) whose
//   block divides the shape's rows (smollm2's 576 takes no 256-element K-quant).
// A tool for scripts/gpu_check.sh, built with the cuda tests.
#include "gguf/gguf.h"
#include "gguf/quant.h"
#include "util/error.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace lmscope;

namespace {

struct Shape {
    const char* name;
    uint32_t n_embd, n_layer, n_head, n_kv, n_ff, n_vocab, n_ctx;
    float rope_base;
};

constexpr Shape kShapes[] = {
    {"llama-3.2-1b", 2048, 16, 32, 8, 8192, 128256, 131072, 500000.0f},
    {"smollm2-135m", 576, 30, 9, 3, 1536, 49152, 8192, 100000.0f},
};

// Uniform values in [-a, a] from a xorshift generator (deterministic).
class Random {
public:
    float next(float a) {
        x_ ^= x_ << 13;
        x_ ^= x_ >> 7;
        x_ ^= x_ << 17;
        return a * (float(x_ >> 40) / float(1u << 23) - 1.0f);
    }

private:
    uint64_t x_ = 0x9E3779B97F4A7C15ull;
};

void add_matrix(gguf::Writer& w, Random& rng, const std::string& name, gguf::TensorType type,
                int64_t cols, int64_t rows) {
    std::vector<float> row(static_cast<size_t>(cols));
    const size_t rb = gguf::row_bytes(type, cols);
    std::vector<uint8_t> data(rb * size_t(rows));
    const float a = 1.0f / std::sqrt(float(cols));  // keeps activations of order one
    for (int64_t r = 0; r < rows; ++r) {
        for (float& v : row) v = rng.next(a);
        gguf::quantize_row(type, row.data(), data.data() + size_t(r) * rb, cols);
    }
    w.add_tensor(name, type, {cols, rows}, data.data(), data.size());
}

void add_ones(gguf::Writer& w, const std::string& name, int64_t n) {
    const std::vector<float> ones(static_cast<size_t>(n), 1.0f);
    w.add_tensor(name, gguf::TensorType::F32, {n}, ones.data(), ones.size() * sizeof(float));
}

int run(int argc, char** argv) {
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: make_shape_model OUT.gguf llama-3.2-1b|smollm2-135m [TYPE (f16)]\n");
        return 2;
    }
    const Shape* s = nullptr;
    for (const Shape& c : kShapes)
        if (std::strcmp(c.name, argv[2]) == 0) s = &c;
    if (!s) throw UsageError(std::string("unknown shape ") + argv[2]);
    const std::string t = argc == 4 ? argv[3] : "f16";
    const std::optional<gguf::TensorType> parsed = gguf::type_from_name(t);
    if (!parsed) throw UsageError("unknown type " + t);
    const gguf::TensorType type = *parsed;
    if (!gguf::can_quantize(type)) throw UnsupportedError("cannot make type " + t + " (no quantizer for it)");
    const uint32_t block = gguf::traits(type).block_size;
    if (s->n_embd % block != 0 || s->n_ff % block != 0)
        throw UnsupportedError(std::string(s->name) + "'s rows are not whole " + t + " blocks");

    gguf::Writer w;
    const std::string a = "llama";
    using S = gguf::Value::Scalar;
    w.set("general.architecture", gguf::Value::string(a));
    w.set("general.name", gguf::Value::string(std::string(s->name) + " shapes, random weights"));
    w.set(a + ".block_count", gguf::Value(S(s->n_layer)));
    w.set(a + ".embedding_length", gguf::Value(S(s->n_embd)));
    w.set(a + ".feed_forward_length", gguf::Value(S(s->n_ff)));
    w.set(a + ".context_length", gguf::Value(S(s->n_ctx)));
    w.set(a + ".attention.head_count", gguf::Value(S(s->n_head)));
    w.set(a + ".attention.head_count_kv", gguf::Value(S(s->n_kv)));
    w.set(a + ".attention.layer_norm_rms_epsilon", gguf::Value(S(1e-5f)));
    w.set(a + ".rope.freq_base", gguf::Value(S(s->rope_base)));

    Random rng;
    const int64_t E = s->n_embd, hd = E / s->n_head;
    add_matrix(w, rng, "token_embd.weight", type, E, s->n_vocab);  // tied output head
    add_ones(w, "output_norm.weight", E);
    for (uint32_t l = 0; l < s->n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        add_ones(w, b + "attn_norm.weight", E);
        add_matrix(w, rng, b + "attn_q.weight", type, E, int64_t(s->n_head) * hd);
        add_matrix(w, rng, b + "attn_k.weight", type, E, int64_t(s->n_kv) * hd);
        add_matrix(w, rng, b + "attn_v.weight", type, E, int64_t(s->n_kv) * hd);
        add_matrix(w, rng, b + "attn_output.weight", type, int64_t(s->n_head) * hd, E);
        add_ones(w, b + "ffn_norm.weight", E);
        add_matrix(w, rng, b + "ffn_gate.weight", type, E, s->n_ff);
        add_matrix(w, rng, b + "ffn_up.weight", type, E, s->n_ff);
        add_matrix(w, rng, b + "ffn_down.weight", type, s->n_ff, E);
    }
    w.write(argv[1]);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_shape_model: error: %s\n", e.what());
        return 1;
    }
}
