// Writes the seed corpora of the harnesses, derived from the fixtures in ../shared/testdata
// (and the sample model's chat template when it is there), so nothing large is committed:
//   lmscope-fuzz-seeds OUT_DIR     -> OUT_DIR/<harness>/<seed files>
// Seeds are small: each fixture GGUF is shrunk to one layer, a narrow width and a 300-token
// vocabulary (the first rows of the real tensors, the first tokens of the real vocabulary), so
// the fuzzer mutates real layouts quickly. The trace seeds are real sessions on a shrunk model
// (trace_file, trace_writer); json_depth gets their JSON and lists nested around the cap.
#include "fuzz_common.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "engine/session.h"
#include "gguf/gguf.h"
#include "tokenizer/spm_proto.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/vocab.h"
#include "trace/trace_file.h"
#include "util/error.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace lmscope;

namespace {

constexpr size_t kVocabKeep = 300;  // tokens kept of each vocabulary (all 256 byte pieces)
// Chat turns after a template (chat_template harness): NUL, then role byte + text, 0x01 between.
const std::string kTurns = std::string(1, '\0') + "\x03You are kind.\x01\x01Hi\x01\x02Hello!\x01\x01" "Bye";

void write_file(const fs::path& path, const void* data, size_t size) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char*>(data), std::streamsize(size));
    if (!out) throw IoError(path.string() + ": cannot write");
}
void write_file(const fs::path& path, const std::string& s) { write_file(path, s.data(), s.size()); }

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A gzip stream of `bytes` (RFC 1952), for the seeds of readers that take gzip.
std::string gzip(const std::string& bytes) {
    z_stream zs{};
    if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw Error("gzip: cannot start the compressor");
    std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = static_cast<uInt>(bytes.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) throw Error("gzip: compression failed");
    return out;
}

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The same scalar type as `v`, holding n.
gguf::Value with_number(const gguf::Value& v, uint64_t n) {
    return gguf::Value(std::visit(
        [n](const auto& x) -> gguf::Value::Scalar {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::string>) return x;
            else return static_cast<T>(n);
        },
        v.as_scalar()));
}

// Keeps the merges whose two parts and their join are all among the kept tokens.
gguf::Value kept_merges(const gguf::Value& merges, const std::set<std::string>& tokens) {
    std::vector<gguf::Value::Scalar> kept;
    for (const gguf::Value::Scalar& m : merges.as_array().items) {
        const std::string& s = std::get<std::string>(m);
        const size_t space = s.find(' ');
        if (space == std::string::npos) continue;
        const std::string left = s.substr(0, space), right = s.substr(space + 1);
        if (tokens.count(left) && tokens.count(right) && tokens.count(left + right)) kept.push_back(m);
    }
    return gguf::Value::array(gguf::ValueType::STRING, std::move(kept));
}

// A fixture GGUF shrunk to one layer, width E (a multiple of every tensor's block size) and
// kVocabKeep tokens; a vocabulary-only file just gets its arrays cut.
std::vector<uint8_t> shrink(const gguf::File& f) {
    const std::string arch = f.opt_string("general.architecture").value_or("");
    const uint64_t n_vocab = f.has("tokenizer.ggml.tokens") ? f.array_size("tokenizer.ggml.tokens") : 0;
    const uint64_t keep = std::min<uint64_t>(n_vocab, kVocabKeep);

    uint32_t block = 32;
    for (const gguf::TensorInfo& t : f.tensors()) block = std::max(block, gguf::traits(t.type).block_size);
    const int64_t E = block, F = block == 32 ? 64 : block;
    std::map<int64_t, int64_t> dims;  // original dimension -> shrunk
    if (!arch.empty() && f.has(arch + ".embedding_length")) {
        const int64_t e0 = int64_t(f.get_uint(arch + ".embedding_length"));
        const int64_t heads = int64_t(f.get_uint(arch + ".attention.head_count"));
        const int64_t kv_heads = int64_t(f.opt_uint(arch + ".attention.head_count_kv").value_or(uint64_t(heads)));
        dims[int64_t(f.get_uint(arch + ".feed_forward_length"))] = F;
        dims[e0 / heads * kv_heads] = E / heads * kv_heads;
        dims[e0] = E;
        dims[int64_t(n_vocab)] = int64_t(keep);
    }

    std::set<std::string> kept_tokens;
    gguf::Writer w;
    for (const auto& [key, value] : f.metadata()) {
        if (key == "general.alignment") continue;
        if (value.is_array()) {
            const gguf::Value::Array& a = value.as_array();
            if (key == "tokenizer.ggml.merges") continue;  // after the tokens, below
            if (key.rfind("tokenizer.ggml.", 0) == 0 && a.items.size() == n_vocab) {
                std::vector<gguf::Value::Scalar> items(a.items.begin(), a.items.begin() + keep);
                if (key == "tokenizer.ggml.tokens")
                    for (const auto& s : items) kept_tokens.insert(std::get<std::string>(s));
                w.set(key, gguf::Value::array(a.elem_type, std::move(items)));
            } else {
                w.set(key, value);
            }
            continue;
        }
        const gguf::ValueType type = value.type();
        const bool integer = type != gguf::ValueType::STRING && type != gguf::ValueType::BOOL &&
                             type != gguf::ValueType::FLOAT32 && type != gguf::ValueType::FLOAT64;
        const std::optional<uint64_t> n = integer ? value.to_uint() : std::nullopt;
        if (ends_with(key, "_token_id") && n && *n >= keep) continue;
        if (!arch.empty() && n) {
            const int64_t heads = int64_t(f.get_uint(arch + ".attention.head_count"));
            if (key == arch + ".embedding_length") { w.set(key, with_number(value, E)); continue; }
            if (key == arch + ".feed_forward_length") { w.set(key, with_number(value, F)); continue; }
            if (key == arch + ".block_count") { w.set(key, with_number(value, 1)); continue; }
            if (key == arch + ".context_length") { w.set(key, with_number(value, 64)); continue; }
            if (key == arch + ".rope.dimension_count") { w.set(key, with_number(value, E / heads)); continue; }
            if (key == arch + ".attention.sliding_window") { w.set(key, with_number(value, 16)); continue; }
            if (key == arch + ".vocab_size") { w.set(key, with_number(value, keep)); continue; }
        }
        w.set(key, value);
    }
    if (const gguf::Value* merges = f.find("tokenizer.ggml.merges"))
        w.set("tokenizer.ggml.merges", kept_merges(*merges, kept_tokens));

    for (const gguf::TensorInfo& t : f.tensors()) {
        if (t.name.rfind("blk.", 0) == 0 && t.name.rfind("blk.0.", 0) != 0) continue;
        std::vector<int64_t> ne(t.ne.begin(), t.ne.begin() + t.n_dims);
        for (int64_t& d : ne)
            if (auto it = dims.find(d); it != dims.end()) d = it->second;
        int64_t rows = 1;
        for (size_t i = 1; i < ne.size(); ++i) rows *= ne[i];
        const size_t old_row = gguf::row_bytes(t.type, t.ne[0]), new_row = gguf::row_bytes(t.type, ne[0]);
        std::vector<uint8_t> bytes;  // [rows][new_row]: the first bytes of the first rows
        for (int64_t r = 0; r < rows; ++r)
            bytes.insert(bytes.end(), t.data + size_t(r) * old_row, t.data + size_t(r) * old_row + new_row);
        w.add_tensor(t.name, t.type, ne, bytes.data(), bytes.size());
    }
    return w.to_bytes();
}

// `bytes` (a GGUF) with the metadata `changes` set (appended when new).
std::vector<uint8_t> with_metadata(const std::vector<uint8_t>& bytes,
                                   const std::vector<std::pair<std::string, gguf::Value>>& changes) {
    const gguf::File f = gguf::File::from_memory(bytes.data(), bytes.size(), "seed.gguf");
    gguf::Writer w;
    for (const auto& [key, value] : f.metadata())
        if (key != "general.alignment") w.set(key, value);
    for (const auto& [key, value] : changes) w.set(key, value);
    for (const gguf::TensorInfo& t : f.tensors())
        w.add_tensor(t.name, t.type, std::vector<int64_t>(t.ne.begin(), t.ne.begin() + t.n_dims), t.data, t.n_bytes);
    return w.to_bytes();
}

// Values the checks must refuse or bound (an outside attack, #33): bases and factors whose RoPE
// angles overflow float32, float64 values near 1e-300, a window near 2^31, declared sizes that
// disagree, more layers than tensors, and a 64 KiB name of terminal escapes.
int extreme_hyperparameter_seeds(const std::vector<uint8_t>& model, const std::string& name, const fs::path& out) {
    const std::string a = gguf::File::from_memory(model.data(), model.size(), "seed.gguf").get_string("general.architecture") + ".";
    using V = gguf::Value;
    using S = gguf::Value::Scalar;
    std::string escapes;
    while (escapes.size() < (64u << 10)) escapes += "\x1b]0;title\x07\x1b[2J\r\n";
    const std::vector<std::pair<std::string, std::vector<std::pair<std::string, V>>>> variants = {
        {"rope-base-1e-45", {{a + "rope.freq_base", V(S(1e-45f))}}},
        {"rope-base-1e-300-f64", {{a + "rope.freq_base", V(S(1e-300))}}},
        {"rope-scaling-1e-38", {{a + "rope.scaling.type", V::string("linear")}, {a + "rope.scaling.factor", V(S(1e-38f))}}},
        {"rms-eps-1e-300-f64", {{a + "attention.layer_norm_rms_epsilon", V(S(1e-300))}}},
        {"window-2147483646", {{a + "attention.sliding_window", V(S(uint32_t(2147483646)))}}},
        {"window-2147483646-context-2147483647", {{a + "attention.sliding_window", V(S(uint32_t(2147483646)))},
                                                  {a + "context_length", V(S(uint32_t(2147483647)))}}},
        {"value-length-wider", {{a + "attention.value_length", V(S(uint32_t(4096)))}}},
        {"vocab-size-7", {{a + "vocab_size", V(S(uint32_t(7)))}}},
        {"block-count-3", {{a + "block_count", V(S(uint32_t(3)))}}},
        {"long-name-escapes", {{"general.name", V::string(escapes)}}},
    };
    for (const auto& [variant, changes] : variants) {
        const std::vector<uint8_t> bytes = with_metadata(model, changes);
        write_file(out / "model_load" / (name + "-" + variant + ".gguf"), bytes.data(), bytes.size());
        write_file(out / "gguf_reader" / (name + "-" + variant + ".gguf"), bytes.data(), bytes.size());
    }
    return int(variants.size()) * 2;
}

// The strings of a vocab suite's .inp file (separated by "\n__ggml_vocab_test__\n").
std::vector<std::string> suite_strings(const fs::path& inp) {
    const std::string all = read_file(inp);
    const std::string sep = "\n__ggml_vocab_test__\n";
    std::vector<std::string> out;
    for (size_t at = 0; at < all.size();) {
        const size_t end = all.find(sep, at);
        out.push_back(all.substr(at, end == std::string::npos ? std::string::npos : end - at));
        if (end == std::string::npos) break;
        at = end + sep.size();
    }
    return out;
}

// Traces of real sessions on a shrunk model: full capture, and summaries with a branch.
void trace_seeds(const std::vector<uint8_t>& model_bytes, const fs::path& out) {
    const gguf::File file = gguf::File::from_memory(model_bytes.data(), model_bytes.size(), "seed.gguf");
    const std::unique_ptr<tok::Tokenizer> tokenizer = tok::load_tokenizer(file);
    const std::shared_ptr<const engine::Model> model =
        engine::Model::from_file(gguf::File::from_memory(model_bytes.data(), model_bytes.size(), "seed.gguf"));
    engine::BackendOptions bo;
    bo.n_threads = 1;
    bo.n_ctx = 16;
    for (int variant = 0; variant < 2; ++variant) {
        std::unique_ptr<engine::Backend> backend = engine::make_backend("cpu", model, bo);
        engine::SessionOptions so;
        so.capture.mode = variant == 0 ? trace::CaptureMode::Full : trace::CaptureMode::Summary;
        so.capture.logit_lens = variant == 1;
        engine::Session session(*backend, *tokenizer, so);
        const std::vector<int32_t> prompt = tokenizer->encode_ids("Hi there", true);
        session.prefill(prompt);
        session.decode();
        session.decode();
        if (variant == 1) {
            session.rewind(1);
            session.decode();
        }
        const std::vector<uint8_t> bytes = trace::serialize_trace(session.trace());
        const std::string name = "session-" + std::to_string(variant);
        write_file(out / "trace_file" / (name + ".trace"), bytes.data(), bytes.size());
        write_file(out / "trace_writer" / (name + ".trace"), bytes.data(), bytes.size());
        // json_depth: the trace's JSON header, and the session document inside it.
        uint64_t n = 0;
        for (int b = 7; b >= 0; --b) n = (n << 8) | bytes[size_t(b)];
        const std::string header(reinterpret_cast<const char*>(bytes.data()) + 8, size_t(n));
        write_file(out / "json_depth" / (name + "-header.json"), header);
        write_file(out / "json_depth" / (name + "-session.json"),
                   nlohmann::json::parse(header)["__metadata__"]["trace"].get<std::string>());
    }
    // A long prefill (summaries: its planes would not be a small seed), as an outside attack's
    // long traces (#33).
    {
        engine::BackendOptions long_bo = bo;
        long_bo.n_ctx = 400;
        std::unique_ptr<engine::Backend> backend = engine::make_backend("cpu", model, long_bo);
        engine::SessionOptions so;
        so.capture.mode = trace::CaptureMode::Summary;
        engine::Session session(*backend, *tokenizer, so);
        std::vector<int32_t> prompt(300);
        for (size_t i = 0; i < prompt.size(); ++i) prompt[i] = int32_t(3 + i % 200);
        session.prefill(prompt);
        session.decode();
        const std::vector<uint8_t> bytes = trace::serialize_trace(session.trace());
        write_file(out / "trace_file" / "session-long.trace", bytes.data(), bytes.size());
        write_file(out / "trace_writer" / "session-long.trace", bytes.data(), bytes.size());
    }
    // Nesting just under, at and past the cap.
    for (const int depth : {63, 64, 65})
        write_file(out / "json_depth" / ("nested-" + std::to_string(depth) + ".json"),
                   std::string(size_t(depth), '[') + std::string(size_t(depth), ']'));
}

}  // namespace

// vocab_text harness: BERT's vocabulary as a vocab.txt (its first pieces and the specials), and
// a small tiktoken rank file (the 256 bytes, then merges of printable pairs), plain and gzip.
int vocab_text_seeds(const fs::path& data, const fs::path& out) {
    int n = 0;
    const fs::path bert = data / "vocab" / "ggml-vocab-bert-bge.gguf";
    if (fs::exists(bert)) {
        const tok::Vocab v = tok::read_vocab(gguf::File::open(bert.string()));
        std::string txt(1, '\0');
        for (int32_t id = 0; id < std::min<int32_t>(v.size(), 2500); ++id) txt += v.pieces[id] + "\n";
        write_file(out / "bert-vocab.txt", txt);
        ++n;
    }
    static const char* b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    auto base64 = [](const std::string& bytes) {
        std::string o;
        for (size_t i = 0; i < bytes.size(); i += 3) {
            const uint32_t a = uint8_t(bytes[i]), b = i + 1 < bytes.size() ? uint8_t(bytes[i + 1]) : 0,
                           c = i + 2 < bytes.size() ? uint8_t(bytes[i + 2]) : 0;
            const uint32_t w = a << 16 | b << 8 | c;
            o += b64[w >> 18];
            o += b64[(w >> 12) & 63];
            o += i + 1 < bytes.size() ? b64[(w >> 6) & 63] : '=';
            o += i + 2 < bytes.size() ? b64[w & 63] : '=';
        }
        return o;
    };
    std::string ranks;
    int rank = 0;
    for (int b = 0; b < 256; ++b) ranks += base64(std::string(1, char(b))) + " " + std::to_string(rank++) + "\n";
    for (const char* merge : {"  ", "th", "he", " t", "the", " the", "in", "er", "an", "ing"})
        ranks += base64(merge) + " " + std::to_string(rank++) + "\n";
    const std::string tiktoken(1, '\x01');  // the first byte picks the rank-file reader
    write_file(out / "ranks.tiktoken", tiktoken + ranks);
    write_file(out / "ranks.tiktoken.gz", tiktoken + gzip(ranks));
    return n + 2;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: lmscope-fuzz-seeds OUT_DIR\n");
        return 2;
    }
    const fs::path out(argv[1]);
    const fs::path data(fuzz::testdata_dir());
    int written = 0;
    try {
        // GGUF reader and model loading: shrunk models and vocabularies.
        std::vector<uint8_t> tiny_f32;
        for (const char* name : {"fx-gqa", "fx-mha-untied", "fx-gqa-Q8_0", "fx-gqa-Q4_1", "fx-gqa-Q4_K_M", "fx-gemma3"}) {
            const fs::path p = data / "models" / (std::string(name) + ".gguf");
            if (!fs::exists(p)) continue;
            const std::vector<uint8_t> small = shrink(gguf::File::open(p.string()));
            if (std::string(name) == "fx-gqa") tiny_f32 = small;
            write_file(out / "gguf_reader" / (std::string(name) + ".gguf"), small.data(), small.size());
            write_file(out / "model_load" / (std::string(name) + ".gguf"), small.data(), small.size());
            written += 2;
            if (std::string(name) == "fx-gqa" || std::string(name) == "fx-gemma3")
                written += extreme_hyperparameter_seeds(small, name, out);
        }
        const char* vocabs[] = {"llama-spm", "phi-3", "gpt-2", "deepseek-coder", "falcon", "starcoder"};
        for (size_t i = 0; i < std::size(vocabs); ++i) {
            const fs::path p = data / "vocab" / ("ggml-vocab-" + std::string(vocabs[i]) + ".gguf");
            if (!fs::exists(p)) continue;
            const gguf::File vocab_file = gguf::File::open(p.string());
            const std::vector<uint8_t> small = shrink(vocab_file);
            write_file(out / "gguf_reader" / p.filename(), small.data(), small.size());
            ++written;
            if (auto tmpl = vocab_file.opt_string("tokenizer.chat_template")) {
                write_file(out / "chat_template" / (std::string(vocabs[i]) + ".jinja"), *tmpl);
                ++written;
            }
            // SentencePiece vocabularies as .model files.
            if (vocab_file.get_string("tokenizer.ggml.model") == "llama") {
                const gguf::File sf = gguf::File::from_memory(small.data(), small.size(), p.string());
                write_file(out / "spm_model" / (std::string(vocabs[i]) + ".model"),
                           tok::model_proto_from_vocab(tok::read_vocab(sf)));
                ++written;
            }
            // Tokenizer: the suite's strings, for this tokenizer (plain) and the next (special on).
            const std::vector<std::string> strings = suite_strings(p.string() + ".inp");
            for (size_t s = 0; s < strings.size(); ++s) {
                const std::string plain = char(i) + strings[s];
                const std::string special = char((i + 1) | 0xC0) + strings[s];
                write_file(out / "tokenizer" / (std::string(vocabs[i]) + "-" + std::to_string(s)), plain);
                write_file(out / "tokenizer" / (std::string(vocabs[i]) + "-" + std::to_string(s) + "-special"), special);
                written += 2;
            }
        }
        written += vocab_text_seeds(data, out / "vocab_text");
        const fs::path spm = data / "tokenizer" / "fx-spm-1024.model";
        if (fs::exists(spm)) {
            write_file(out / "spm_model" / spm.filename(), read_file(spm));
            write_file(out / "tokenizer" / "fx-spm-chat", std::string(1, char(6 | 0x80)) + "<s>Hello <unk>\n\tworld 42");
            written += 2;
        }
        if (!tiny_f32.empty()) {
            trace_seeds(tiny_f32, out);
            written += 13;
        }
        if (const char* sample = std::getenv("LMSCOPE_SAMPLE_MODEL"); sample && fs::exists(sample)) {
            if (auto tmpl = gguf::File::open(sample).opt_string("tokenizer.chat_template")) {
                write_file(out / "chat_template" / "sample-model.jinja", *tmpl + kTurns);
                ++written;
            }
        }
        // Short templates with each family's marker (the detector's own cues), with turns.
        const char* markers[] = {
            "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}",
            "{{ bos_token }}[INST] <<SYS>>\n{{ system }}\n<</SYS>>\n\n{{ user }} [/INST]",
            "<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024",
            "<|user|>\n{{ message['content'] }}</s>\n<|assistant|>",
            "<start_of_turn>user\n{{ content }}<end_of_turn>\n<start_of_turn>model\n",
        };
        for (size_t i = 0; i < std::size(markers); ++i) {
            write_file(out / "chat_template" / ("marker-" + std::to_string(i)), std::string(markers[i]) + kTurns);
            ++written;
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "lmscope-fuzz-seeds: %s\n", e.what());
        return 1;
    }
    std::printf("lmscope-fuzz-seeds: %d seeds in %s (test data %s)\n", written, out.c_str(), data.c_str());
    return 0;
}
