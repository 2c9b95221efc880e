#include "common/hostile_files.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "engine/session.h"
#include "tokenizer/spm_proto.h"
#include "tokenizer/tokenizer.h"
#include "trace/trace_file.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <initializer_list>
#include <cstdio>
#include <cstring>
#include <random>

namespace lmscope::testing::hostile {

using gguf::Value;
using gguf::ValueType;
using nlohmann::json;

// ---- GgufEdit --------------------------------------------------------------------------------

GgufEdit::GgufEdit(const gguf::File& file) : alignment_(uint32_t(file.alignment())) {
    for (const auto& [key, value] : file.metadata())
        if (key != "general.alignment") kv_.emplace_back(key, value);
    for (const gguf::TensorInfo& t : file.tensors())
        tensors_.push_back({t.name, t.type, std::vector<int64_t>(t.ne.begin(), t.ne.begin() + t.n_dims),
                            Bytes(t.data, t.data + t.n_bytes)});
}

const Value* GgufEdit::find(const std::string& key) const {
    for (const auto& [k, v] : kv_)
        if (k == key) return &v;
    return nullptr;
}

GgufEdit& GgufEdit::set(const std::string& key, Value value) {
    for (auto& [k, v] : kv_)
        if (k == key) {
            v = std::move(value);
            return *this;
        }
    kv_.emplace_back(key, std::move(value));
    return *this;
}

GgufEdit& GgufEdit::erase(const std::string& key) {
    std::erase_if(kv_, [&](const auto& kv) { return kv.first == key; });
    return *this;
}

GgufEdit& GgufEdit::truncate_array(const std::string& key, size_t n) {
    const Value* v = find(key);
    if (!v) throw UsageError("hostile: no key " + key);
    Value::Array a = v->as_array();
    a.items.resize(std::min(n, a.items.size()));
    return set(key, Value(std::move(a)));
}

GgufEdit& GgufEdit::set_item(const std::string& key, size_t index, Value::Scalar item) {
    const Value* v = find(key);
    if (!v) throw UsageError("hostile: no key " + key);
    Value::Array a = v->as_array();
    a.items.at(index) = std::move(item);
    return set(key, Value(std::move(a)));
}

GgufEdit::Tensor& GgufEdit::tensor(const std::string& name) {
    for (Tensor& t : tensors_)
        if (t.name == name) return t;
    throw UsageError("hostile: no tensor " + name);
}

GgufEdit& GgufEdit::reshape(const std::string& name, std::vector<int64_t> ne) {
    Tensor& t = tensor(name);
    int64_t rows = 1;
    for (size_t d = 1; d < ne.size(); ++d) rows *= ne[d];
    t.data.assign(gguf::row_bytes(t.type, ne[0]) * size_t(rows), 0);  // zeros: scale 0 in every block
    t.ne = std::move(ne);
    return *this;
}

GgufEdit& GgufEdit::fill_tensor(const std::string& name, const Bytes& pattern) {
    Tensor& t = tensor(name);
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = pattern[i % pattern.size()];
    return *this;
}

GgufEdit& GgufEdit::retype_tensor(const std::string& name, gguf::TensorType type, Bytes data) {
    Tensor& t = tensor(name);
    int64_t n = 1;
    for (int64_t e : t.ne) n *= e;
    if (data.size() != gguf::row_bytes(type, n))
        throw UsageError("hostile: " + std::to_string(data.size()) + " bytes for " + name + " as " +
                         std::string(gguf::type_name(type)));
    t.type = type;
    t.data = std::move(data);
    return *this;
}

GgufEdit& GgufEdit::erase_tensor(const std::string& name) {
    tensor(name);  // must exist
    std::erase_if(tensors_, [&](const Tensor& t) { return t.name == name; });
    return *this;
}

GgufEdit& GgufEdit::rename_keys(const std::string& from, const std::string& to) {
    for (auto& [k, v] : kv_)
        if (k.rfind(from, 0) == 0) k = to + k.substr(from.size());
    return *this;
}

GgufEdit& GgufEdit::copy_tensor(const std::string& from, const std::string& name) {
    Tensor copy = tensor(from);
    copy.name = name;
    tensors_.push_back(std::move(copy));
    return *this;
}

GgufEdit& GgufEdit::fuse_tensors(const std::vector<std::string>& parts, const std::string& name) {
    Tensor fused{name, tensor(parts.front()).type, tensor(parts.front()).ne, {}};
    fused.ne.back() = 0;
    for (const std::string& p : parts) {
        const Tensor& t = tensor(p);
        if (t.type != fused.type || t.ne.size() != 2 || t.ne[0] != fused.ne[0])
            throw Error("fuse_tensors: " + p + " does not match " + parts.front());
        fused.ne[1] += t.ne[1];
        fused.data.insert(fused.data.end(), t.data.begin(), t.data.end());
    }
    for (const std::string& p : parts) erase_tensor(p);
    tensors_.push_back(std::move(fused));
    return *this;
}

Bytes GgufEdit::bytes() const {
    gguf::Writer w;
    if (alignment_ != 32) w.set_alignment(alignment_);
    for (const auto& [k, v] : kv_) w.set(k, v);
    for (const Tensor& t : tensors_) w.add_tensor(t.name, t.type, t.ne, t.data.data(), t.data.size());
    return w.to_bytes();
}

const char* part_name(Part p) {
    switch (p) {
    case Part::Metadata: return "metadata";
    case Part::Tensors: return "tensors";
    case Part::Vocab: return "vocabulary";
    }
    return "?";
}

Bytes real_trace(const std::string& model_path) {
    auto model = engine::Model::load(model_path);
    const auto tokenizer = tok::load_tokenizer(model->file());
    engine::BackendOptions bo;
    bo.n_threads = 2;
    bo.n_ctx = 64;
    const auto backend = engine::make_backend("cpu", model, bo);
    engine::SessionOptions so;
    so.sampling.temperature = 0.0f;
    so.capture.mode = trace::CaptureMode::Full;
    engine::Session session(*backend, *tokenizer, so);
    session.prefill(tokenizer->encode_ids("The quick brown fox jumps", true));
    for (int i = 0; i < 3; ++i) session.decode();
    return trace::serialize_trace(session.trace());
}

void write_file(const std::string& path, const Bytes& bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw IoError(path + ": cannot write: " + std::strerror(errno));
    // (an empty file: no fwrite, whose buffer must not be null even for 0 bytes)
    const bool ok = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (std::fclose(f) != 0 || !ok) throw IoError(path + ": write failed");
}

// ---- GGUF models -----------------------------------------------------------------------------

namespace {

Value u32(uint32_t v) { return Value(Value::Scalar(v)); }
Value i32(int32_t v) { return Value(Value::Scalar(v)); }
Value u64(uint64_t v) { return Value(Value::Scalar(v)); }
Value f32(float v) { return Value(Value::Scalar(v)); }
Value f64(double v) { return Value(Value::Scalar(v)); }
Value str(const char* s) { return Value::string(s); }

std::function<void(GgufEdit&)> set_key(const char* key, Value v) {
    return [key, v](GgufEdit& e) { e.set(key, v); };
}
std::function<void(GgufEdit&)> erase_key(const char* key) {
    return [key](GgufEdit& e) { e.erase(key); };
}
std::function<void(GgufEdit&)> reshape(const char* name, std::vector<int64_t> ne) {
    return [name, ne](GgufEdit& e) { e.reshape(name, ne); };
}

// The id of the first token of type `type` in tokenizer.ggml.token_type.
size_t first_of_type(const GgufEdit& e, int32_t type) {
    const Value::Array& a = e.find("tokenizer.ggml.token_type")->as_array();
    for (size_t i = 0; i < a.items.size(); ++i)
        if (Value(a.items[i]).to_int() == type) return i;
    throw UsageError("hostile: no token of type " + std::to_string(type));
}

}  // namespace

const std::vector<GgufCase>& model_cases() {
    constexpr const char* H = "llama.attention.head_count";
    constexpr const char* KV = "llama.attention.head_count_kv";
    constexpr const char* T = "tokenizer.ggml.tokens";
    static const std::vector<GgufCase> cases = {
        // hyperparameters that disagree with each other, missing or absurd
        {"zero heads", Part::Metadata, set_key(H, u32(0)), H, "zero attention heads"},
        {"heads do not divide the width", Part::Metadata, set_key(H, u32(6)), H, "is not a multiple of 6 heads"},
        {"KV heads do not divide heads", Part::Metadata, set_key(KV, u32(3)), KV, "not a multiple of 3 KV heads"},
        {"zero KV heads", Part::Metadata, set_key(KV, u32(0)), KV, "zero KV heads"},
        {"more KV heads than heads", Part::Metadata, set_key(KV, u32(16)), KV, "not a multiple of 16 KV heads"},
        {"zero block count", Part::Metadata, set_key("llama.block_count", u32(0)), "llama.block_count", "zero layers"},
        {"missing block count", Part::Metadata, erase_key("llama.block_count"), "llama.block_count", "missing"},
        {"missing embedding length", Part::Metadata, erase_key("llama.embedding_length"), "llama.embedding_length", "missing"},
        {"missing feed-forward length", Part::Metadata, erase_key("llama.feed_forward_length"), "llama.feed_forward_length", "missing"},
        {"missing head count", Part::Metadata, erase_key(H), H, "missing"},
        {"missing RMS epsilon", Part::Metadata, erase_key("llama.attention.layer_norm_rms_epsilon"), "llama.attention.layer_norm_rms_epsilon", "missing"},
        {"missing context length", Part::Metadata, erase_key("llama.context_length"), "llama.context_length", "missing"},
        {"missing architecture", Part::Metadata, erase_key("general.architecture"), "general.architecture", "missing"},
        {"unknown architecture", Part::Metadata, set_key("general.architecture", str("mamba")), "general.architecture", "unsupported architecture 'mamba'"},
        {"context length 0", Part::Metadata, set_key("llama.context_length", u32(0)), "llama.context_length", "zero context length"},
        {"block count as text", Part::Metadata, set_key("llama.block_count", str("three")), "llama.block_count", "is string"},
        {"huge block count", Part::Metadata, set_key("llama.block_count", u64(1ull << 40)), "llama.block_count", "exceeds the limit"},
        {"huge but allowed block count", Part::Tensors, set_key("llama.block_count", u32(60000)), "blk.3.attn_norm.weight", "missing tensor"},
        {"huge width", Part::Metadata, set_key("llama.embedding_length", u64(1ull << 33)), "llama.embedding_length", "exceeds the limit"},
        {"huge head count", Part::Metadata, set_key(H, u32(1u << 20)), H, "exceeds the limit"},
        {"odd rotated dimensions", Part::Metadata, set_key("llama.rope.dimension_count", u32(31)), "llama.rope.dimension_count", "must be even"},
        {"rotated dimensions beyond the head", Part::Metadata, set_key("llama.rope.dimension_count", u32(64)), "llama.rope.dimension_count", "do not fit a head of 32"},
        {"zero RMS epsilon", Part::Metadata, set_key("llama.attention.layer_norm_rms_epsilon", f32(0)), "llama.attention.layer_norm_rms_epsilon", "must be in (0, 1)"},
        {"negative RoPE base", Part::Metadata, set_key("llama.rope.freq_base", f32(-10000)), "llama.rope.freq_base", "must be positive"},
        {"tokens disagree with the embeddings", Part::Tensors, [](GgufEdit& e) { e.truncate_array(T, 1000).truncate_array("tokenizer.ggml.scores", 1000).truncate_array("tokenizer.ggml.token_type", 1000).set("llama.vocab_size", u32(1000)); }, "token_embd.weight", "expected [256, 1000]"},
        // Found by an outside attack (round 3): values the checks passed, after which every run
        // failed for another reason (NaN logits from finite weights) or ran another model.
        {"RoPE base 1e-45", Part::Metadata, set_key("llama.rope.freq_base", f32(1e-45f)), "llama.rope.freq_base", "infinite in float32"},
        {"RoPE base 1e-300 as float64", Part::Metadata, set_key("llama.rope.freq_base", f64(1e-300)), "llama.rope.freq_base", "infinite in float32"},
        {"RoPE scaling factor 1e-38", Part::Metadata, [](GgufEdit& e) { e.set("llama.rope.scaling.type", str("linear")).set("llama.rope.scaling.factor", f32(1e-38f)); }, "llama.rope.scaling.factor", "infinite in float32"},
        {"RMS epsilon 1e-300 as float64", Part::Metadata, set_key("llama.attention.layer_norm_rms_epsilon", f64(1e-300)), "llama.attention.layer_norm_rms_epsilon", "is 0 as a float32"},
        {"sliding window wider than the context", Part::Metadata, set_key("llama.attention.sliding_window", u32(2147483646)), "llama.attention.sliding_window", "wider than the llama.context_length"},
        {"value heads wider than key heads", Part::Metadata, set_key("llama.attention.value_length", u32(64)), "llama.attention.value_length", "value heads of 64 differ from key heads of 32"},
        {"value length as text", Part::Metadata, set_key("llama.attention.value_length", str("32")), "llama.attention.value_length", "string"},
        {"vocab_size disagrees with the tokens", Part::Metadata, set_key("llama.vocab_size", u32(999)), "llama.vocab_size", "999 tokens, but the vocabulary holds 1024"},
        {"vocab_size as a float", Part::Metadata, set_key("llama.vocab_size", f32(1024)), "llama.vocab_size", "float"},
        {"one block of three", Part::Tensors, set_key("llama.block_count", u32(1)), "blk.", "but llama.block_count is 1 (the model would leave it out)"},
        {"a layer tensor no recipe reads", Part::Tensors, [](GgufEdit& e) { e.copy_tensor("blk.0.attn_norm.weight", "blk.0.attn_rot_embd"); }, "blk.0.attn_rot_embd", "a layer tensor the llama recipe does not read"},
        // tensors: shapes that disagree with the spec, missing tensors
        {"wq wrong", Part::Tensors, reshape("blk.0.attn_q.weight", {256, 128}), "blk.0.attn_q.weight", "shape [256, 128], expected [256, 256]"},
        {"wk wrong", Part::Tensors, reshape("blk.1.attn_k.weight", {256, 256}), "blk.1.attn_k.weight", "expected [256, 64]"},
        {"wo transposed", Part::Tensors, reshape("blk.2.attn_output.weight", {256, 128}), "blk.2.attn_output.weight", "expected [256, 256]"},
        {"ffn_gate wrong", Part::Tensors, reshape("blk.0.ffn_gate.weight", {256, 256}), "blk.0.ffn_gate.weight", "expected [256, 512]"},
        {"ffn_down transposed", Part::Tensors, reshape("blk.2.ffn_down.weight", {256, 512}), "blk.2.ffn_down.weight", "shape [256, 512], expected [512, 256]"},
        {"token_embd vocab mismatch", Part::Tensors, reshape("token_embd.weight", {256, 1000}), "token_embd.weight", "expected [256, 1024]"},
        {"norm 2-D", Part::Tensors, reshape("blk.1.attn_norm.weight", {256, 2}), "blk.1.attn_norm.weight", "expected [256]"},
        {"output norm short", Part::Tensors, reshape("output_norm.weight", {128}), "output_norm.weight", "expected [256]"},
        {"missing tensor", Part::Tensors, [](GgufEdit& e) { e.erase_tensor("blk.2.ffn_up.weight"); }, "blk.2.ffn_up.weight", "missing tensor"},
        {"missing embeddings", Part::Tensors, [](GgufEdit& e) { e.erase_tensor("token_embd.weight"); }, "token_embd.weight", "missing tensor"},
        // the vocabulary
        {"scores shorter than tokens", Part::Vocab, [](GgufEdit& e) { e.truncate_array("tokenizer.ggml.scores", 1023); }, "tokenizer.ggml.scores", "has 1023 entries, but tokenizer.ggml.tokens has 1024"},
        {"types shorter than tokens", Part::Vocab, [](GgufEdit& e) { e.truncate_array("tokenizer.ggml.token_type", 10); }, "tokenizer.ggml.token_type", "has 10 entries"},
        {"token type out of range", Part::Vocab, [](GgufEdit& e) { e.set_item("tokenizer.ggml.token_type", 7, int32_t(9)); }, "tokenizer.ggml.token_type", "entry 7 is 9"},
        {"bos beyond the vocabulary", Part::Vocab, set_key("tokenizer.ggml.bos_token_id", u32(1024)), "tokenizer.ggml.bos_token_id", "is 1024, outside the vocabulary of 1024 tokens"},
        {"eos beyond the vocabulary", Part::Vocab, set_key("tokenizer.ggml.eos_token_id", u32(70000)), "tokenizer.ggml.eos_token_id", "outside the vocabulary"},
        {"unk beyond the vocabulary", Part::Vocab, set_key("tokenizer.ggml.unknown_token_id", u32(5000)), "tokenizer.ggml.unknown_token_id", "outside the vocabulary"},
        {"pad beyond the vocabulary", Part::Vocab, set_key("tokenizer.ggml.padding_token_id", u32(0xFFFFFFFEu)), "tokenizer.ggml.padding_token_id", "outside the vocabulary"},
        {"negative bos", Part::Vocab, set_key("tokenizer.ggml.bos_token_id", i32(-5)), "tokenizer.ggml.bos_token_id", "is -5"},
        {"byte piece not <0xHH>", Part::Vocab, [](GgufEdit& e) { e.set_item(T, first_of_type(e, 6), std::string("<0xZZ>")); }, T, "has type byte but reads '<0xZZ>'"},
        {"normal piece typed byte", Part::Vocab, [](GgufEdit& e) { e.set_item("tokenizer.ggml.token_type", first_of_type(e, 1), int32_t(6)); }, T, "has type byte"},
        {"unknown tokenizer model", Part::Vocab, set_key("tokenizer.ggml.model", str("wordpiece")), "tokenizer.ggml.model", "'wordpiece' is not supported"},
        {"missing tokenizer model", Part::Vocab, erase_key("tokenizer.ggml.model"), "tokenizer.ggml.model", "missing"},
        {"scores as text", Part::Vocab, [](GgufEdit& e) { e.set("tokenizer.ggml.scores", Value::array(ValueType::STRING, std::vector<Value::Scalar>(1024, std::string("x")))); }, "tokenizer.ggml.scores", "string"},
        {"no unknown token", Part::Vocab, [](GgufEdit& e) { e.erase("tokenizer.ggml.unknown_token_id").set_item("tokenizer.ggml.token_type", first_of_type(e, 2), int32_t(1)); }, "tokenizer.ggml.unknown_token_id", "no token has type unknown"},
        {"duplicate pieces", Part::Vocab, [](GgufEdit& e) { e.set_item(T, 600, std::get<std::string>(e.find(T)->as_array().items[601])); }, T, "duplicate"},
        {"NUL in a piece", Part::Vocab, [](GgufEdit& e) { e.set_item(T, 700, std::string("ab\0cd", 5)); }, T, "NUL"},
        {"every token control", Part::Vocab, [](GgufEdit& e) {
             const size_t unk = first_of_type(e, 2);
             for (size_t i = 0; i < 1024; ++i)
                 if (i != unk) e.set_item("tokenizer.ggml.token_type", i, int32_t(3));
         }, "tokenizer.ggml.token_type", "no piece is a normal one"},
        {"chat template as an array", Part::Metadata, [](GgufEdit& e) {
             e.set("tokenizer.chat_template", Value::array(ValueType::STRING, std::vector<Value::Scalar>(2, std::string("{{ x }}"))));
         }, "tokenizer.chat_template", "expected string"},
        {"add_bos without bos", Part::Vocab, [](GgufEdit& e) { e.erase("tokenizer.ggml.bos_token_id").set("tokenizer.ggml.add_bos_token", Value(Value::Scalar(true))); }, "tokenizer.ggml.bos_token_id", "missing, but tokenizer.ggml.add_bos_token is true"},
    };
    return cases;
}

const std::vector<GgufCase>& bpe_vocab_cases() {
    constexpr const char* M = "tokenizer.ggml.merges";
    static const std::vector<GgufCase> cases = {
        {"merge of unknown tokens", Part::Vocab, [](GgufEdit& e) { e.set_item(M, 5, std::string("zq\xC4\xA0 xw7")); }, M, "entry 5"},
        {"merge result unknown", Part::Vocab, [](GgufEdit& e) { e.set_item(M, 3, std::string("t h")); e.set_item(M, 4, std::string("th th")); }, M, "entry 4"},
        {"merge without a space", Part::Vocab, [](GgufEdit& e) { e.set_item(M, 0, std::string("abc")); }, M, "is not 'left right'"},
        {"missing merges", Part::Vocab, erase_key(M), M, "missing"},
        {"unknown pre-tokenizer", Part::Vocab, set_key("tokenizer.ggml.pre", str("klingon")), "tokenizer.ggml.pre", "'klingon' is not supported"},
        {"types shorter than tokens", Part::Vocab, [](GgufEdit& e) { e.truncate_array("tokenizer.ggml.token_type", 100); }, "tokenizer.ggml.token_type", "has 100 entries"},
        {"eos beyond the vocabulary", Part::Vocab, set_key("tokenizer.ggml.eos_token_id", u32(50257)), "tokenizer.ggml.eos_token_id", "outside the vocabulary of 50257 tokens"},
        {"empty vocabulary", Part::Vocab, [](GgufEdit& e) { e.truncate_array("tokenizer.ggml.tokens", 0); }, "tokenizer.ggml.tokens", "empty"},
        // Found by an outside attack (round 3): without the symbol of byte 0xC3 ('Ã'), "héllo
        // wörld" encoded as "hllo wrld" (exit 0).
        {"no token for byte 0xC3", Part::Vocab, [](GgufEdit& e) {
             const std::string symbol = "\xC3\x83";  // 'Ã'
             const auto& tokens = e.find("tokenizer.ggml.tokens")->as_array().items;
             const auto at = std::find(tokens.begin(), tokens.end(), Value::Scalar(symbol));
             e.set_item("tokenizer.ggml.tokens", size_t(at - tokens.begin()), std::string("<no 0xC3>"));
             std::vector<Value::Scalar> merges;  // those of the symbol go with it
             for (const Value::Scalar& m : e.find(M)->as_array().items) {
                 const std::string& text = std::get<std::string>(m);
                 const size_t space = text.find(' ');
                 if (text.substr(0, space) != symbol && text.substr(space + 1) != symbol) merges.push_back(m);
             }
             e.set(M, Value::array(ValueType::STRING, std::move(merges)));
         }, "tokenizer.ggml.tokens", "has no token for byte 0xC3 ('\xC3\x83')"},
    };
    return cases;
}

// ---- SentencePiece .model files --------------------------------------------------------------

namespace {

// The base with the bytes of normalizer_spec.precompiled_charsmap changed in place by `edit`.
Bytes edit_charsmap(const Bytes& in, const std::function<void(uint8_t* charsmap, size_t size)>& edit) {
    Bytes out = in;
    const std::string_view data(reinterpret_cast<const char*>(in.data()), in.size());
    tok::ProtoReader top(data, "base", "ModelProto");
    while (top.next()) {
        if (top.field() != 3) continue;
        tok::ProtoReader n(top.as_bytes(), "base", "normalizer_spec");
        while (n.next()) {
            if (n.field() != 2) continue;
            const std::string_view map = n.as_bytes();
            edit(out.data() + (map.data() - data.data()), map.size());
            return out;
        }
    }
    throw Error("base: no precompiled_charsmap to edit");
}

// Rewrites the trie of a charsmap (`m`, as edit_charsmap gives it; the base's holds more
// than 768 units) as all zeros but a root whose children lie at 256 ^ byte and the `units`
// given (index, value).
void small_trie(uint8_t* m, std::initializer_list<std::pair<uint32_t, uint32_t>> units) {
    const uint32_t n = (uint32_t(m[0]) | uint32_t(m[1]) << 8 | uint32_t(m[2]) << 16 | uint32_t(m[3]) << 24) / 4;
    if (n < 768) throw Error("base: the charsmap's trie is too small to rewrite");
    std::fill(m + 4, m + 4 + 4 * size_t(n), uint8_t(0));
    auto set = [m](uint32_t i, uint32_t u) {
        for (int k = 0; k < 4; ++k) m[4 + 4 * size_t(i) + size_t(k)] = uint8_t(u >> (8 * k));
    };
    set(0, 256u << 10);
    for (const auto& [i, u] : units) set(i, u);
}

// Re-encodes a ModelProto with each piece (piece, score, type) passed through `edit`; a
// piece the function drops (returns false) is left out.
using PieceEdit = std::function<bool(size_t index, std::string& piece, float& score, int& type)>;
Bytes edit_pieces(const Bytes& in, const PieceEdit& edit) {
    const std::string_view data(reinterpret_cast<const char*>(in.data()), in.size());
    tok::ProtoReader top(data, "base", "ModelProto");
    tok::ProtoWriter out;
    size_t index = 0;
    while (top.next()) {
        if (top.field() != 1) {
            out.bytes(top.field(), top.as_bytes());  // trainer and normalizer specs as they are
            continue;
        }
        tok::ProtoReader p(top.as_bytes(), "base", "piece");
        std::string piece;
        float score = 0;
        int type = 1;
        while (p.next()) {
            if (p.field() == 1) piece = std::string(p.as_bytes());
            else if (p.field() == 2) score = p.as_float();
            else if (p.field() == 3) type = p.as_int32();
        }
        if (!edit(index++, piece, score, type)) continue;
        tok::ProtoWriter w;
        w.bytes(1, piece);
        w.fixed32_float(2, score);
        w.varint(3, uint64_t(type));
        out.bytes(1, w.data());
    }
    return Bytes(out.data().begin(), out.data().end());
}

// Replaces field `field` of the trainer spec with a varint `value`.
Bytes set_trainer_varint(const Bytes& in, uint32_t field, int32_t value) {
    const std::string_view data(reinterpret_cast<const char*>(in.data()), in.size());
    tok::ProtoReader top(data, "base", "ModelProto");
    tok::ProtoWriter out;
    while (top.next()) {
        if (top.field() != 2) {
            out.bytes(top.field(), top.as_bytes());
            continue;
        }
        tok::ProtoReader t(top.as_bytes(), "base", "trainer_spec");
        tok::ProtoWriter spec;
        while (t.next()) {
            if (t.field() == field) continue;
            if (t.wire() == 0) spec.varint(t.field(), t.as_varint());
            else if (t.wire() == 2) spec.bytes(t.field(), t.as_bytes());
            else if (t.wire() == 5) spec.fixed32_float(t.field(), t.as_float());
        }
        spec.int32(field, value);
        out.bytes(2, spec.data());
    }
    return Bytes(out.data().begin(), out.data().end());
}

}  // namespace

const std::vector<BytesCase>& spm_model_cases() {
    static const std::vector<BytesCase> cases = {
        {"random bytes", [](const Bytes&) {
             std::mt19937 rng(8);
             Bytes b(4096);
             for (uint8_t& x : b) x = uint8_t(rng());
             return b;
         }, "ModelProto", ""},
        {"empty", [](const Bytes&) { return Bytes(); }, "pieces", "no pieces"},
        // Found by fuzzing: SentencePiece's normalizer walks the table without bounds checks.
        {"charsmap unit points outside its trie", [](const Bytes& b) {
             return edit_charsmap(b, [](uint8_t* m, size_t) {
                 small_trie(m, {{0x148, 0x48 | uint32_t(0xfffff) << 10}});  // 'H' leads 1M units on
             });
         }, "normalizer_spec.precompiled_charsmap", "unit 328 points outside"},
        // Found by an outside attack: the root's label is never checked, so a root with bit 31
        // (a value) set gave a huge offset (SIGSEGV).
        {"charsmap root is a value", [](const Bytes& b) {
             return edit_charsmap(b, [](uint8_t* m, size_t) { m[7] |= 0x80; });
         }, "normalizer_spec.precompiled_charsmap", "unit 0 (the root) is a value, not a node"},
        // ... and a child whose value unit is none (bit 31 clear): its 31 low bits, 32M, were
        // read as the offset of its replacement (a heap over-read into the output).
        {"charsmap value unit holds no value", [](const Bytes& b) {
             return edit_charsmap(b, [](uint8_t* m, size_t) {
                 // 'H' (unit 256 ^ 0x48) has a value (bit 8) at unit 512, which is a node
                 // (label 0, an offset of 32768 units, inside the trie)
                 small_trie(m, {{0x148, 0x48 | 1u << 8 | (0x148u ^ 512) << 10}, {512, 1u << 25}});
             });
         }, "normalizer_spec.precompiled_charsmap", "unit 328 has a value at unit 512, which holds none"},
        {"charsmap trie size past its end", [](const Bytes& b) {
             return edit_charsmap(b, [](uint8_t* m, size_t) { m[3] = 0x7f; });
         }, "normalizer_spec.precompiled_charsmap", "does not fit"},
        {"truncated", [](const Bytes& b) { return Bytes(b.begin(), b.begin() + long(b.size() / 2)); }, "ModelProto", "runs past the end"},
        {"one byte cut", [](const Bytes& b) { return Bytes(b.begin(), b.end() - 1); }, "ModelProto", ""},
        {"duplicate pieces", [](const Bytes& b) {
             std::string previous;
             return edit_pieces(b, [&](size_t i, std::string& piece, float&, int&) {
                 if (i == 500) piece = previous;
                 previous = piece;
                 return true;
             });
         }, "pieces[500]", "duplicate"},
        {"no unknown piece", [](const Bytes& b) {
             return edit_pieces(b, [](size_t, std::string&, float&, int& type) {
                 if (type == 2) type = 3;  // <unk> becomes a control piece
                 return true;
             });
         }, "trainer_spec.unk_id", "not unknown"},
        {"NUL in a piece", [](const Bytes& b) {
             return edit_pieces(b, [](size_t i, std::string& piece, float&, int&) {
                 if (i == 400) piece = std::string("\xE2\x96\x81" "a\0b", 6);
                 return true;
             });
         }, "pieces[400]", "NUL"},
        {"empty piece", [](const Bytes& b) {
             return edit_pieces(b, [](size_t i, std::string& piece, float&, int&) {
                 if (i == 300) piece.clear();
                 return true;
             });
         }, "pieces[300]", "empty"},
        {"piece type out of range", [](const Bytes& b) {
             return edit_pieces(b, [](size_t i, std::string&, float&, int& type) {
                 if (i == 9) type = 9;
                 return true;
             });
         }, "pieces[9].type", "is 9, expected 1..6"},
        {"byte piece not <0xHH>", [](const Bytes& b) {
             return edit_pieces(b, [](size_t, std::string& piece, float&, int& type) {
                 if (piece == "<0x41>") {
                     piece = "<0xG1>";
                     type = 6;
                 }
                 return true;
             });
         }, "pieces[", "has type byte but reads '<0xG1>'"},
        {"unk id beyond the pieces", [](const Bytes& b) { return set_trainer_varint(b, 40, 5000); }, "trainer_spec.unk_id", "outside the vocabulary of 1024 pieces"},
        {"bos id beyond the pieces", [](const Bytes& b) { return set_trainer_varint(b, 41, 1024); }, "trainer_spec.bos_id", "is 1024"},
        {"unknown model type", [](const Bytes& b) { return set_trainer_varint(b, 3, 9); }, "trainer_spec.model_type", "is 9"},
    };
    return cases;
}

// ---- trace files ----------------------------------------------------------------------------

namespace {

uint64_t header_len(const Bytes& b) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | b[size_t(i)];
    return n;
}
json header_of(const Bytes& b) { return json::parse(b.begin() + 8, b.begin() + 8 + long(header_len(b))); }

Bytes assemble_text(std::string text, const Bytes& b) {
    text.append((8 - text.size() % 8) % 8, ' ');
    Bytes out;
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(uint64_t(text.size()) >> (8 * i)));
    out.insert(out.end(), text.begin(), text.end());
    out.insert(out.end(), b.begin() + 8 + long(header_len(b)), b.end());
    return out;
}

Bytes assemble(const json& header, const Bytes& b) { return assemble_text(header.dump(), b); }

// `text` with the string "@DEEP@" replaced by `depth` nested lists: built as text, since
// building them as JSON values would recurse as deep.
std::string nest(std::string text, int depth) {
    const std::string mark = "\"@DEEP@\"";
    return text.replace(text.find(mark), mark.size(), std::string(size_t(depth), '[') + std::string(size_t(depth), ']'));
}

using Maker = std::function<Bytes(const Bytes&)>;
Maker on_header(std::function<void(json&)> edit) {
    return [edit](const Bytes& b) {
        json h = header_of(b);
        edit(h);
        return assemble(h, b);
    };
}
Maker on_trace(std::function<void(json&)> edit) {
    return on_header([edit](json& h) {
        json t = json::parse(h["__metadata__"]["trace"].get<std::string>());
        edit(t);
        h["__metadata__"]["trace"] = t.dump();
    });
}
// `edit` puts "@DEEP@" in the header (or, with in_trace, the trace document), which becomes
// `depth` nested lists.
Maker deep(bool in_trace, int depth, std::function<void(json&)> edit) {
    return [=](const Bytes& b) {
        json h = header_of(b);
        if (!in_trace) {
            edit(h);
            return assemble_text(nest(h.dump(), depth), b);
        }
        json t = json::parse(h["__metadata__"]["trace"].get<std::string>());
        edit(t);
        h["__metadata__"]["trace"] = nest(t.dump(), depth);
        return assemble(h, b);
    };
}
Maker set_length(std::function<uint64_t(const Bytes&)> n) {
    return [n](const Bytes& b) {
        Bytes out = b;
        const uint64_t v = n(b);
        for (int i = 0; i < 8; ++i) out[size_t(i)] = uint8_t(v >> (8 * i));
        return out;
    };
}
Maker poke_i32(std::string name, size_t index, int32_t value) {
    return [name, index, value](const Bytes& b) {
        Bytes out = b;
        const uint64_t begin = header_of(b)[name]["data_offsets"][0].get<uint64_t>();
        std::memcpy(out.data() + 8 + header_len(b) + begin + 4 * index, &value, 4);
        return out;
    };
}
Maker offsets(std::string name, int64_t d_begin, int64_t d_end) {
    return on_header([name, d_begin, d_end](json& h) {
        json& o = h[name]["data_offsets"];
        o[0] = uint64_t(int64_t(o[0].get<uint64_t>()) + d_begin);
        o[1] = uint64_t(int64_t(o[1].get<uint64_t>()) + d_end);
    });
}

}  // namespace

const std::vector<BytesCase>& trace_cases() {
    static const std::vector<BytesCase> cases = {
        // the header length
        {"empty file", [](const Bytes&) { return Bytes(); }, "header length", "too short"},
        {"seven bytes", [](const Bytes& b) { return Bytes(b.begin(), b.begin() + 7); }, "header length", "too short"},
        {"header length zero", set_length([](const Bytes&) { return 0; }), "header", "is not valid JSON"},
        {"header length over the cap", set_length([](const Bytes&) { return uint64_t(1) << 40; }), "header length", "exceeds the limit"},
        {"header length all ones", set_length([](const Bytes&) { return ~uint64_t(0); }), "header length", "exceeds the limit"},
        {"header length past the end", set_length([](const Bytes& b) { return b.size(); }), "header length", "runs past the end"},
        {"header length cuts the JSON", set_length([](const Bytes& b) { return header_len(b) - 16; }), "header", "is not valid JSON"},
        {"header length into the data", set_length([](const Bytes& b) { return header_len(b) + 8; }), "data_offsets", ""},
        {"data cut short", [](const Bytes& b) { return Bytes(b.begin(), b.end() - 3); }, "data_offsets", ""},
        {"data with trailing bytes", [](const Bytes& b) { Bytes o = b; o.resize(o.size() + 16); return o; }, "data_offsets", "of the"},
        // JSON header fields
        {"header is a list", on_header([](json& h) { h = json::array({h}); }), "header", "is not a JSON object"},
        {"no metadata", on_header([](json& h) { h.erase("__metadata__"); }), "__metadata__", "missing"},
        {"format renamed", on_header([](json& h) { h["__metadata__"]["format"] = "safetensors"; }), "__metadata__.format", "is not lmscope-trace"},
        {"version 99", on_header([](json& h) { h["__metadata__"]["version"] = "99"; }), "__metadata__.version", "'99' is not supported"},
        {"trace document cut", on_header([](json& h) { std::string t = h["__metadata__"]["trace"]; h["__metadata__"]["trace"] = t.substr(0, t.size() / 2); }), "__metadata__.trace", "is not valid JSON"},
        {"trace document a list", on_header([](json& h) { h["__metadata__"]["trace"] = "[1, 2]"; }), "__metadata__.trace", "is not a JSON object"},
        // tensor offsets, dtypes, shapes
        {"dtype unknown", on_header([](json& h) { h["step.1.attention"]["dtype"] = "F64"; }), "step.1.attention.dtype", "'F64' is not F16, F32 or I32"},
        {"dtype swapped", on_header([](json& h) { h["step.0.entropy"]["dtype"] = "I32"; }), "step.0.entropy.dtype", "is I32, expected F32"},
        {"shape larger than its bytes", on_header([](json& h) { h["step.0.attention"]["shape"][0] = h["step.0.attention"]["shape"][0].get<uint64_t>() * 2; }), "step.0.attention.data_offsets", "do not hold shape"},
        {"shape overflowing", on_header([](json& h) { h["step.0.entropy"]["shape"] = {1ull << 62, 1ull << 62, 16}; }), "step.0.entropy.shape", "more bytes than the file holds"},
        {"shape negative", on_header([](json& h) { h["step.2.max_weight"]["shape"][1] = -8; }), "step.2.max_weight.shape[1]", "not a non-negative integer"},
        {"shape of nine dimensions", on_header([](json& h) { h["step.0.entropy"]["shape"] = json::array({1, 1, 1, 1, 1, 1, 1, 1, 1}); }), "step.0.entropy.shape", "more than 8 dimensions"},
        {"shape rearranged", on_header([](json& h) { auto& s = h["step.0.entropy"]["shape"]; std::swap(s[0], s[2]); }), "step.0.entropy.shape", "does not match the step header's counts"},
        {"offsets reversed", on_header([](json& h) { auto& o = h["step.0.planes"]["data_offsets"]; std::swap(o[0], o[1]); }), "step.0.planes.data_offsets", "begin is after end"},
        {"offsets shifted", offsets("step.2.argmax_key", 4, 4), "step.2.argmax_key.data_offsets", ""},
        {"offsets past the data", on_header([](json& h) { h["step.0.planes"]["data_offsets"] = {0, 1ull << 40}; }), "step.0.planes.data_offsets", "past the data section"},
        {"offsets overlapping", on_header([](json& h) { h["step.0.max_weight"]["data_offsets"] = h["step.0.entropy"]["data_offsets"]; }), "data_offsets", "overlaps"},
        {"offsets leaving a gap", offsets("step.1.planes", 4, 4), "data_offsets", ""},
        {"offsets huge", on_header([](json& h) { h["step.1.entropy"]["data_offsets"] = {~0ull - 8, ~0ull}; }), "step.1.entropy.data_offsets", "past the data section"},
        {"offsets not numbers", on_header([](json& h) { h["step.0.entropy"]["data_offsets"] = {"0", "5"}; }), "step.0.entropy.data_offsets", "not a pair of non-negative integers"},
        {"tensor of no step", on_header([](json& h) { h["step.9.entropy"] = h["step.2.entropy"]; h.erase("step.2.entropy"); }), "step.2.entropy", "missing"},
        // arrays against the step header
        {"plane layer out of range", poke_i32("step.0.planes", 0, 3), "step.0.planes[0]", "layer 3 is out of range"},
        {"plane head out of range", poke_i32("step.1.planes", 5, 8), "step.1.planes[1]", "head 8 is out of range"},
        {"plane first row negative", poke_i32("step.0.planes", 2, -1), "step.0.planes[0]", "rows start at -1"},
        {"plane rows zero", poke_i32("step.0.planes", 3, 0), "step.0.planes[0]", "count 0"},
        {"plane rows beyond the step", poke_i32("step.1.planes", 3, 2), "step.1.planes[0]", "outside the step's 1 rows"},
        {"plane start moved", poke_i32("step.2.planes", 2, 1000), "step.2.attention.shape", "does not match"},
        {"argmax key beyond the position", poke_i32("step.0.argmax_key", 0, 100), "step.0.argmax_key[0]", "is not visible"},
        // the step documents: counts and ranges
        {"step index", on_trace([](json& t) { t["steps"][2]["index"] = 7; }), "steps[2].index", "outside"},
        {"parent ahead", on_trace([](json& t) { t["steps"][1]["parent"] = 2; }), "steps[1].parent", "outside"},
        {"plane count up", on_trace([](json& t) { t["steps"][0]["attention"]["planes"] = 23; }), "step.0.planes.shape", "does not match"},
        {"layer count up", on_trace([](json& t) { t["steps"][1]["attention"]["n_layer"] = 4; }), "steps[1]", ""},
        {"head count huge", on_trace([](json& t) { t["steps"][0]["attention"]["n_head"] = 1 << 30; }), "steps[0].attention.n_head", "outside"},
        {"rows beyond tokens", on_trace([](json& t) { t["steps"][1]["attention"]["n_rows"] = 5; }), "steps[1].attention.n_rows", "outside"},
        {"no tokens", on_trace([](json& t) { t["steps"][0]["tokens"] = json::array(); }), "steps[0].tokens", "is empty"},
        {"decode of many tokens", on_trace([](json& t) { t["steps"][1]["tokens"] = {5, 6, 7}; }), "steps[1].tokens", "decode"},
        {"token beyond the vocabulary", on_trace([](json& t) { t["steps"][0]["tokens"][1] = 5000; }), "steps[0].tokens[1]", "outside the vocabulary of 1024"},
        {"chosen beyond the vocabulary", on_trace([](json& t) { t["steps"][2]["logits"]["chosen"] = 99999; }), "steps[2].logits.chosen", "outside the vocabulary of 1024"},
        {"candidate beyond the vocabulary", on_trace([](json& t) { t["steps"][0]["logits"]["stages"][0]["top"][0][0] = 4096; }), "steps[0].logits.stages[0].top[0]", "outside the vocabulary of 1024"},
        {"survivors beyond the vocabulary", on_trace([](json& t) { t["steps"][0]["logits"]["stages"][0]["survivors"] = 1 << 30; }), "steps[0].logits.stages[0].survivors", "vocabulary of 1024"},
        {"vocabulary size zero", on_trace([](json& t) { t["tokenizer"]["n_vocab"] = 0; }), "trace.tokenizer.n_vocab", "outside"},
        {"first position jumps", on_trace([](json& t) { t["steps"][1]["first_pos"] = 40; }), "steps[1].first_pos", ""},
        {"ablated head not a pair", on_trace([](json& t) { t["steps"][1]["ablated"] = {{0, 1, 2}}; }), "steps[1].ablated[0]", "is not a [layer, head] pair"},
        {"ablated head past the heads", on_trace([](json& t) { t["steps"][1]["ablated"] = {{0, 999}}; }), "steps[1].ablated[0][1]", ""},
        {"ablated as text", on_trace([](json& t) { t["steps"][1]["ablated"] = "1:2"; }), "steps[1].ablated", "is not an array"},
        {"skipped not a pair", on_trace([](json& t) { t["steps"][1]["skipped"] = {{0}}; }), "steps[1].skipped[0]", "is not a [layer, \"attn\" or \"ffn\"] pair"},
        {"skipped unknown part", on_trace([](json& t) { t["steps"][1]["skipped"] = {{0, "mlp"}}; }), "steps[1].skipped[0][1]", "is neither \"attn\" nor \"ffn\""},
        {"skipped past the layers", on_trace([](json& t) { t["steps"][1]["skipped"] = {{99, "ffn"}}; }), "steps[1].skipped[0][0]", ""},
        {"skipped as text", on_trace([](json& t) { t["steps"][1]["skipped"] = "1:attn"; }), "steps[1].skipped", "is not an array"},
        {"KV tokens disagree", on_trace([](json& t) { t["steps"][2]["kv"]["tokens"] = 999; }), "steps[2].kv.tokens", ""},
        {"KV total not the sum", on_trace([](json& t) { t["steps"][0]["kv"]["bytes_total"] = 7; }), "steps[0].kv.bytes_total", "is not the sum"},
        {"layer times count", on_trace([](json& t) { t["steps"][0]["layer_ms"].push_back(1.0); }), "steps[0].layer_ms", "has 4 entries for 3 layers"},
        {"spec layers huge", on_trace([](json& t) { t["model"]["spec"]["n_layer"] = 2147483647; }), "trace.model.spec.n_layer", ""},
        {"spec heads disagree", on_trace([](json& t) { t["model"]["spec"]["n_head"] = 9; }), "trace.model.spec.n_head", ""},
        {"spec KV heads huge", on_trace([](json& t) { t["model"]["spec"]["n_head_kv"] = 2147483647; t["model"]["spec"]["head_dim"] = 2147483647; }), "trace.model.spec.n_head_kv", ""},
        {"dropped count", on_trace([](json& t) { t["budget"]["dropped_steps"] = 2; }), "trace.budget.dropped_steps", "does not match"},
        {"piece id negative", on_trace([](json& t) { t["pieces"][0][0] = -1; }), "trace.pieces[0][0]", "outside"},
        {"piece repeated", on_trace([](json& t) { t["pieces"].push_back(t["pieces"][0]); }), "trace.pieces[", "repeats token"},
        {"steps not a list", on_trace([](json& t) { t["steps"] = 3; }), "trace.steps", ""},
        // Found by an outside attack (round 3): values the JSON holds but a float32 does not
        // (replay showed p=inf), repeated keys (which value counts depends on the reader),
        // non-finite arrays, and another kind of file
        {"probability 1e308", on_trace([](json& t) { t["steps"][0]["logits"]["chosen_prob"] = 1e308; }), "steps[0].logits.chosen_prob", "1e+308 is beyond the range of a float32"},
        {"candidate logit -1e39", on_trace([](json& t) { t["steps"][0]["logits"]["stages"][0]["top"][0][1] = -1e39; }), "steps[0].logits.stages[0].top[0][1]", "beyond the range of a float32"},
        {"key repeated in the trace document", on_header([](json& h) {
             std::string t = h["__metadata__"]["trace"];
             h["__metadata__"]["trace"] = t.insert(1, "\"steps\":[],");
         }), "__metadata__.trace", "has the key 'steps' twice in one object"},
        {"key repeated in the header", [](const Bytes& b) { return assemble_text("{\"__metadata__\":{}," + header_of(b).dump().substr(1), b); }, "header", "has the key '__metadata__' twice"},
        {"attention weight NaN", poke_i32("step.0.attention", 0, 0x7e007e00), "step.0.attention[0]", "is not finite"},
        {"head entropy infinite", poke_i32("step.1.entropy", 0, 0x7f800000), "step.1.entropy[0]", "is not finite"},
        {"budget zero", on_trace([](json& t) { t["budget"]["bytes"] = 0; }), "trace.budget.bytes", "is 0"},
        {"a GGUF model", [](const Bytes&) { return Bytes{'G', 'G', 'U', 'F', 3, 0, 0, 0, 0, 0, 0, 0}; }, "header", "the file is a GGUF model file, not an lmscope trace"},
        // nesting and size of what is copied and printed
        {"header nested 100000 deep", deep(false, 100000, [](json& h) { h["step.0.planes"]["x"] = "@DEEP@"; }), "header", "nests deeper than 64 levels"},
        {"tokenizer nested 100000 deep", deep(true, 100000, [](json& t) { t["tokenizer"]["x"] = "@DEEP@"; }), "__metadata__.trace", "nests deeper than 64 levels"},
        {"sampling nested 64 deep", deep(true, 64, [](json& t) { t["sampling"]["x"] = "@DEEP@"; }), "__metadata__.trace", "nests deeper than 64 levels"},
        {"model spec nested deep", deep(true, 5000, [](json& t) { t["model"]["spec"]["x"] = "@DEEP@"; }), "__metadata__.trace", "nests deeper than 64 levels"},
        {"capture of 5000 values", on_trace([](json& t) { t["capture"]["x"] = json::array(); t["capture"]["x"].get_ref<json::array_t&>().resize(5000); }), "trace.capture", "holds more than 4096 values"},
    };
    return cases;
}

}  // namespace lmscope::testing::hostile
