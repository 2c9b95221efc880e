// Requantizing a GGUF model: the plan of each tensor's type (the rules in requantize.h), the
// row-parallel conversion, the write through the safe writer and the read-back check.
#include "gguf/requantize.h"

#include "gguf/quant.h"
#include "util/error.h"
#include "util/safe_writer.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <thread>

namespace lmscope::gguf {
namespace {

// general.file_type numbers are llama.cpp's llama_ftype values. A plain K type is named by
// the llama_ftype of its "S" mix (the mostly-that-type file): Q3_K_S, Q4_K_S, Q5_K_S.
const std::vector<QuantTarget> kTargets = {
    {"F32", TensorType::F32, false, 0},       {"F16", TensorType::F16, false, 1},
    {"BF16", TensorType::BF16, false, 32},    {"Q8_0", TensorType::Q8_0, false, 7},
    {"Q6_K", TensorType::Q6_K, false, 18},    {"Q5_K_M", TensorType::Q5_K, true, 17},
    {"Q5_K", TensorType::Q5_K, false, 16},    {"Q5_1", TensorType::Q5_1, false, 9},
    {"Q5_0", TensorType::Q5_0, false, 8},     {"Q4_K_M", TensorType::Q4_K, true, 15},
    {"Q4_K", TensorType::Q4_K, false, 14},    {"Q4_1", TensorType::Q4_1, false, 3},
    {"Q4_0", TensorType::Q4_0, false, 2},     {"IQ4_XS", TensorType::IQ4_XS, false, 30},
    {"IQ4_NL", TensorType::IQ4_NL, false, 25}, {"Q3_K", TensorType::Q3_K, false, 11},
    {"Q2_K", TensorType::Q2_K, false, 10},
};

constexpr uint32_t kQuantizationVersion = 2;  // GGML_QNT_VERSION: the block formats' version

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}
bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

bool is_weight_matrix(const TensorInfo& t) {
    if (t.n_dims < 2 || !ends_with(t.name, "weight")) return false;
    for (std::string_view skip : {"_norm.weight", "ffn_gate_inp.weight"})
        if (contains(t.name, skip)) return false;
    return t.name != "position_embd.weight" && t.name != "token_types.weight";
}

// N of a "blk.N." name, or -1.
int layer_of(std::string_view name) {
    if (name.substr(0, 4) != "blk.") return -1;
    int layer = 0;
    size_t i = 4;
    for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])); ++i) {
        layer = layer * 10 + (name[i] - '0');
        if (layer > (1 << 20)) return -1;
    }
    return i > 4 && i < name.size() && name[i] == '.' ? layer : -1;
}

// llama.cpp's use_more_bits: the first and last eighth of the layers, and every third between.
bool use_more_bits(int layer, int n_layer) {
    return layer < n_layer / 8 || layer >= 7 * n_layer / 8 || (layer - n_layer / 8) % 3 == 2;
}

// The shape fallback of a type (see requantize.h).
TensorType fallback_of(TensorType t) {
    switch (t) {
        case TensorType::Q2_K: case TensorType::Q3_K: case TensorType::IQ4_XS: return TensorType::IQ4_NL;
        case TensorType::Q4_K: return TensorType::Q5_0;
        case TensorType::Q5_K: return TensorType::Q5_1;
        case TensorType::Q6_K: return TensorType::Q8_0;
        default: return TensorType::F16;
    }
}

bool fits(TensorType t, int64_t row) { return row % int64_t(traits(t).block_size) == 0; }

// The mix's choice for one weight matrix (before the shape fallback).
TensorType mix_type(const QuantTarget& target, const TensorInfo& t, bool is_output, int n_layer) {
    if (is_output) return fits(TensorType::Q6_K, t.ne[0]) ? TensorType::Q6_K : TensorType::Q8_0;
    const int layer = layer_of(t.name);
    if ((contains(t.name, "attn_v.weight") || contains(t.name, "ffn_down")) && layer >= 0 &&
        use_more_bits(layer, n_layer))
        return TensorType::Q6_K;
    if (contains(t.name, "attn_qkv.weight"))
        return target.base == TensorType::Q4_K ? TensorType::Q5_K : TensorType::Q6_K;
    return target.base;
}

void copy_metadata(const File& in, const QuantTarget& target, Writer& w) {
    for (const auto& [key, value] : in.metadata()) {
        if (key == "general.alignment") w.set_alignment(static_cast<uint32_t>(in.alignment()));
        else w.set(key, value);
    }
    w.set("general.file_type", Value(Value::Scalar(target.file_type)));
    w.set("general.quantization_version", Value(Value::Scalar(kQuantizationVersion)));
}

// The tensor's rows converted to `to`: dequantized row by row and quantized, `threads` ranges
// of rows in parallel.
std::vector<uint8_t> convert(const TensorInfo& t, TensorType to, int threads) {
    const int64_t row = t.ne[0], rows = t.n_rows();
    const size_t in_bytes = row_bytes(t.type, row), out_bytes = row_bytes(to, row);
    std::vector<uint8_t> out(out_bytes * size_t(rows));  // [rows][out_bytes]
    auto work = [&](int64_t r0, int64_t r1) {
        std::vector<float> x(static_cast<size_t>(row));  // [row] one row as float
        for (int64_t r = r0; r < r1; ++r) {
            dequantize_row(t.type, t.data + size_t(r) * in_bytes, x.data(), row);
            quantize_row(to, x.data(), out.data() + size_t(r) * out_bytes, row);
        }
    };
    const int n = int(std::clamp<int64_t>(threads, 1, std::max<int64_t>(rows, 1)));
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> errors(static_cast<size_t>(n));
    for (int i = 1; i < n; ++i)
        pool.emplace_back([&, i] {
            try {
                work(rows * i / n, rows * (i + 1) / n);
            } catch (...) {
                errors[size_t(i)] = std::current_exception();
            }
        });
    try {
        work(0, rows / n);
    } catch (...) {
        errors[0] = std::current_exception();
    }
    for (std::thread& th : pool) th.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    return out;
}

// The written file against the plan: tensor count, names, types, shapes, file type.
void check_written(const std::string& path, const File& in, const std::vector<TensorPlan>& plan,
                   const QuantTarget& target) {
    const File out = File::open(path);
    if (out.tensors().size() != plan.size())
        throw Error(path + ": read back " + std::to_string(out.tensors().size()) + " tensors, wrote " +
                    std::to_string(plan.size()));
    for (size_t i = 0; i < plan.size(); ++i) {
        const TensorInfo& got = out.tensors()[i];
        const TensorInfo& src = in.tensors()[i];
        if (got.name != plan[i].name || got.type != plan[i].to || got.n_dims != src.n_dims || got.ne != src.ne)
            throw Error(path + ": tensor " + std::to_string(i) + " reads back as '" + got.name + "' " +
                        std::string(type_name(got.type)) + " " + got.shape_string() + ", wrote '" + plan[i].name +
                        "' " + std::string(type_name(plan[i].to)) + " " + src.shape_string());
    }
    if (out.opt_uint("general.file_type") != std::optional<uint64_t>(target.file_type))
        throw Error(path + ": general.file_type does not read back as " + std::to_string(target.file_type));
}

}  // namespace

const std::vector<QuantTarget>& quant_targets() { return kTargets; }

std::optional<QuantTarget> quant_target(std::string_view name) {
    for (const QuantTarget& t : kTargets) {
        if (t.name.size() != name.size()) continue;
        bool same = true;
        for (size_t i = 0; i < name.size() && same; ++i)
            same = std::toupper(static_cast<unsigned char>(name[i])) == static_cast<unsigned char>(t.name[i]);
        if (same) return t;
    }
    return std::nullopt;
}

std::string quant_target_names() {
    std::string s;
    for (const QuantTarget& t : kTargets) s += (s.empty() ? "" : ", ") + std::string(t.name);
    return s;
}

std::vector<TensorPlan> plan_requantize(const File& in, const QuantTarget& target) {
    int n_layer = 0;
    for (const TensorInfo& t : in.tensors()) n_layer = std::max(n_layer, layer_of(t.name) + 1);
    const bool has_output = in.find_tensor("output.weight") != nullptr;
    std::vector<TensorPlan> plan;
    for (const TensorInfo& t : in.tensors()) {
        TensorPlan p;
        p.name = t.name;
        p.row = t.ne[0];
        p.from = p.to = p.wanted = t.type;
        p.weight = is_weight_matrix(t);
        if (p.weight) {
            if (!is_supported(t.type))
                throw UnsupportedError(in.path() + ": tensor '" + t.name + "': type " +
                                       std::string(type_name(t.type)) + " cannot be read to requantize it");
            const bool is_output = t.name == "output.weight" || (!has_output && t.name == "token_embd.weight");
            p.wanted = target.mix ? mix_type(target, t, is_output, n_layer) : target.base;
            p.to = p.wanted;
            if (!fits(p.to, t.ne[0])) {
                p.fallback = true;
                p.to = fallback_of(p.to);
                if (!fits(p.to, t.ne[0])) p.to = TensorType::F16;
            }
        }
        plan.push_back(std::move(p));
    }
    return plan;
}

RequantizeResult requantize(const File& in, const std::string& out_path, const QuantTarget& target, int threads) {
    RequantizeResult result;
    result.plan = plan_requantize(in, target);
    const std::vector<std::string> inputs = in.path().empty() ? std::vector<std::string>{}
                                                              : std::vector<std::string>{in.path()};
    check_output_path(out_path, inputs);  // before the work, not after it
    Writer w;
    copy_metadata(in, target, w);
    for (size_t i = 0; i < result.plan.size(); ++i) {
        const TensorInfo& t = in.tensors()[i];
        const TensorPlan& p = result.plan[i];
        std::vector<int64_t> ne(t.ne.begin(), t.ne.begin() + t.n_dims);
        std::vector<uint8_t> data = p.to == t.type ? std::vector<uint8_t>(t.data, t.data + t.n_bytes)
                                                   : convert(t, p.to, threads);
        result.bytes_in += t.n_bytes;
        result.bytes_out += data.size();
        w.add_tensor(t.name, p.to, std::move(ne), std::move(data));
    }
    w.write(out_path, inputs);
    check_written(out_path, in, result.plan, target);
    return result;
}

}  // namespace lmscope::gguf
