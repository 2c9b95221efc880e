// Reading and checking a model's hyperparameters from GGUF metadata.
#include "model/hparams.h"

#include "kv/kv_math.h"
#include "model/recipe.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace lmscope::model {

namespace {

// Bounds that keep every size derived from the hyperparameters far from overflow
// (kv_bytes_per_token_f16 < 2^52); real models are orders of magnitude below them.
constexpr uint32_t kMaxCount = 1u << 24;  // widths, vocabulary, feed-forward
constexpr uint32_t kMaxSmall = 1u << 16;  // layers, heads, head dim
constexpr uint32_t kMaxContext = std::numeric_limits<uint32_t>::max();

// The last position a run may use: the context, in int32 as the engine counts positions.
int64_t last_position(uint64_t context_length) {
    return int64_t(std::clamp<uint64_t>(context_length, 1, uint64_t(std::numeric_limits<int32_t>::max()))) - 1;
}

// Collects problems instead of throwing, so `describe` can report everything it can read.
class Reader {
public:
    Reader(const gguf::File& file, std::vector<FormatError>* problems) : file_(file), problems_(problems) {}

    void problem(const std::string& field, const std::string& reason) {
        problems_->emplace_back(file_.path(), field, reason);
    }

    // A count of at most `max`; 0 when absent (noted when required) or invalid. A value of 0
    // read from the file is noted with `zero_reason` when one is given.
    uint32_t count(const std::string& key, bool required, uint32_t max = kMaxCount,
                   const char* zero_reason = nullptr) {
        try {
            const auto v = file_.opt_uint(key);
            if (!v) {
                if (required) problem(key, "missing");
                return 0;
            }
            if (*v > max) {
                problem(key, "value " + std::to_string(*v) + " exceeds the limit of " + std::to_string(max));
                return 0;
            }
            if (*v == 0 && zero_reason) problem(key, zero_reason);
            return static_cast<uint32_t>(*v);
        } catch (const FormatError& e) {
            problems_->push_back(e);
            return 0;
        }
    }

    std::optional<uint64_t> opt_u64(const std::string& key) {
        try {
            return file_.opt_uint(key);
        } catch (const FormatError& e) {
            problems_->push_back(e);
            return std::nullopt;
        }
    }

    std::optional<double> number(const std::string& key) {
        try {
            return file_.opt_float(key);
        } catch (const FormatError& e) {
            problems_->push_back(e);
            return std::nullopt;
        }
    }

    std::string text(const std::string& key) {
        try {
            return file_.opt_string(key).value_or(std::string());
        } catch (const FormatError& e) {
            problems_->push_back(e);
            return {};
        }
    }

private:
    const gguf::File& file_;
    std::vector<FormatError>* problems_;
};

// Rows of a 2-D tensor (its ne[1]), or 0 when absent or not 2-D.
uint32_t tensor_rows(const gguf::File& file, const char* name) {
    const gguf::TensorInfo* t = file.find_tensor(name);
    if (!t || t->n_dims != 2 || t->ne[1] > kMaxCount) return 0;
    return static_cast<uint32_t>(t->ne[1]);
}

void read_vocab(const gguf::File& file, Reader& r, HParams& hp) {
    const char* key = "tokenizer.ggml.tokens";
    if (file.has(key)) {
        try {
            const size_t n = file.array_size(key);
            if (n == 0 || n > kMaxCount)
                r.problem(key, "holds " + std::to_string(n) + " tokens");
            else
                hp.n_vocab = static_cast<uint32_t>(n);
        } catch (const FormatError& e) {
            r.problem(key, e.reason());
        }
        return;
    }
    hp.n_vocab = tensor_rows(file, "token_embd.weight");
    if (hp.n_vocab == 0) hp.n_vocab = tensor_rows(file, "output.weight");
    if (hp.n_vocab == 0) hp.n_vocab = r.count(hp.architecture + ".vocab_size", false);
    if (hp.n_vocab == 0) r.problem(key, "missing (and no token_embd.weight to tell the vocabulary size)");
}

void read_rope(Reader& r, const std::string& a, HParams& hp) {
    hp.rope_freq_base = r.number(a + ".rope.freq_base").value_or(10000.0);
    if (!(hp.rope_freq_base > 0)) r.problem(a + ".rope.freq_base", "must be positive");
    hp.n_rot = r.count(a + ".rope.dimension_count", false, kMaxSmall);
    if (hp.n_rot == 0) hp.n_rot = hp.head_dim;
    if (hp.head_dim != 0 && (hp.n_rot > hp.head_dim || hp.n_rot % 2 != 0))
        r.problem(a + ".rope.dimension_count", std::to_string(hp.n_rot) +
                                                   " rotated dimensions do not fit a head of " +
                                                   std::to_string(hp.head_dim) + " (must be even and at most it)");
    const std::string type = r.text(a + ".rope.scaling.type");
    const auto factor = r.number(a + ".rope.scaling.factor");
    const auto linear = r.number(a + ".rope.scale_linear");  // older files
    if (!type.empty() || factor || linear) {
        RopeScaling s;
        s.type = !type.empty() ? type : "linear";
        s.factor = factor ? *factor : linear.value_or(1.0);
        s.original_context_length = r.opt_u64(a + ".rope.scaling.original_context_length").value_or(0);
        if (!(s.factor > 0)) r.problem(a + ".rope.scaling.factor", "must be positive");
        hp.rope_scaling = s;
    }
}

// Sliding windows, local RoPE base and soft-capping (gemma3); a window is required where the
// recipe has local layers.
void read_attention_variants(Reader& r, const std::string& a, HParams& hp) {
    const Architecture* arch = find_architecture(a);
    const bool windowed = arch && arch->swa_pattern > 0;
    const std::string window_key = a + ".attention.sliding_window";
    hp.sliding_window = r.count(window_key, windowed, uint32_t(std::numeric_limits<int32_t>::max()),
                                windowed ? "zero window" : nullptr);
    if (hp.context_length != 0 && hp.sliding_window > hp.context_length)
        r.problem(window_key, "window of " + std::to_string(hp.sliding_window) + " positions is wider than the " +
                                  a + ".context_length of " + std::to_string(hp.context_length));
    if (const auto p = r.opt_u64(a + ".attention.sliding_window_pattern")) {
        if (*p == 0 || *p > kMaxSmall)
            r.problem(a + ".attention.sliding_window_pattern",
                      "value " + std::to_string(*p) + " is outside [1, " + std::to_string(kMaxSmall) + "]");
        else
            hp.sliding_window_pattern = static_cast<uint32_t>(*p);
    }
    hp.rope_freq_base_swa = r.number(a + ".rope.freq_base_swa");
    if (hp.rope_freq_base_swa && !(*hp.rope_freq_base_swa > 0))
        r.problem(a + ".rope.freq_base_swa", "must be positive");
    const auto cap = r.number(a + ".final_logit_softcapping");
    if (cap) {
        if (!(*cap >= 0) || !(*cap < 1e30)) r.problem(a + ".final_logit_softcapping", "must be a finite number >= 0");
        else hp.final_logit_softcap = *cap;
    }
    const auto attn_cap = r.number(a + ".attn_logit_softcapping");
    if (attn_cap) {
        if (!(*attn_cap >= 0) || !(*attn_cap < 1e30)) r.problem(a + ".attn_logit_softcapping", "must be a finite number >= 0");
        else hp.attn_logit_softcap = *attn_cap;
    }
}

// Sizes some files declare besides the ones lmscope derives: each must agree with what the
// engine uses (a value head as wide as a key head, the vocabulary of the token list).
void read_declared_sizes(const gguf::File& file, Reader& r, const std::string& a, const HParams& hp) {
    const std::string value_key = a + ".attention.value_length";
    if (file.has(value_key)) {
        const uint32_t v = r.count(value_key, false, kMaxSmall, "zero head dimension");
        if (v != 0 && hp.head_dim != 0 && v != hp.head_dim)
            r.problem(value_key, "value heads of " + std::to_string(v) + " differ from key heads of " +
                                     std::to_string(hp.head_dim) + " (lmscope runs equal ones)");
    }
    const std::string vocab_key = a + ".vocab_size";
    if (file.has(vocab_key)) {
        const uint32_t v = r.count(vocab_key, false, kMaxCount, "zero tokens");
        if (v != 0 && hp.n_vocab != 0 && v != hp.n_vocab)
            r.problem(vocab_key, std::to_string(v) + " tokens, but the vocabulary holds " + std::to_string(hp.n_vocab));
    }
}

// The consequence of the RoPE base and scaling factor: angles a run can compute. (The
// factors of rope_freqs.weight, a tensor, are checked with the spec.)
void check_rope_angles(Reader& r, const std::string& a, const HParams& hp) {
    if (hp.n_rot == 0 || hp.context_length == 0) return;
    const double linear = hp.rope_scaling ? hp.rope_scaling->factor : 1.0;
    if (!std::isfinite(linear) || !(linear > 0)) return;  // noted already
    auto check = [&](const std::string& key, double base) {
        if (!std::isfinite(base) || !(base > 0)) return;  // noted already
        int32_t pair = first_infinite_angle(rope_inv_freq(base, int32_t(hp.n_rot), 1.0, {}), hp.context_length);
        std::string blamed = key;
        if (pair < 0) {
            pair = first_infinite_angle(rope_inv_freq(base, int32_t(hp.n_rot), linear, {}), hp.context_length);
            blamed = a + ".rope.scaling.factor";
        }
        if (pair >= 0) r.problem(blamed, infinite_angle_reason(pair, hp.context_length));
    };
    check(a + ".rope.freq_base", hp.rope_freq_base);
    if (hp.rope_freq_base_swa) check(a + ".rope.freq_base_swa", *hp.rope_freq_base_swa);
}

}  // namespace

bool is_supported_architecture(std::string_view arch) { return find_architecture(arch) != nullptr; }

std::vector<float> rope_inv_freq(double base, int32_t n_rot, double linear, const std::vector<float>& factors) {
    const int32_t half = n_rot / 2;
    std::vector<float> t(static_cast<size_t>(half));
    for (int32_t i = 0; i < half; ++i) {
        double f = std::pow(base, -2.0 * i / double(n_rot)) / linear;
        if (!factors.empty()) f /= double(factors[size_t(i)]);
        t[size_t(i)] = float(f);
    }
    return t;
}

int32_t first_infinite_angle(const std::vector<float>& inv_freq, uint64_t context_length) {
    const float last = float(last_position(context_length));
    for (size_t i = 0; i < inv_freq.size(); ++i)
        if (!std::isfinite(last * inv_freq[i])) return int32_t(i);
    return -1;
}

std::string infinite_angle_reason(int32_t pair, uint64_t context_length) {
    return "makes the rotation angle of dimension pair " + std::to_string(pair) + " at position " +
           std::to_string(last_position(context_length)) + " infinite in float32 (every logit would be NaN)";
}

uint64_t HParams::kv_bytes_per_token_f16() const {
    if (n_layer == 0 || n_head_kv == 0 || head_dim == 0) return 0;
    // Query heads 0 (unknown): a grouping describe() reports as a problem still has a size.
    return kv::bytes_per_token(kv::Shape{n_layer, 0, n_head_kv, head_dim}, KvType::F16);
}

HParams HParams::describe(const gguf::File& file, std::vector<FormatError>* problems) {
    Reader r(file, problems);
    HParams hp;
    hp.architecture = r.text("general.architecture");
    if (hp.architecture.empty()) r.problem("general.architecture", "missing");
    hp.name = r.text("general.name");
    hp.tokenizer_model = r.text("tokenizer.ggml.model");
    hp.tokenizer_pre = r.text("tokenizer.ggml.pre");
    if (const auto ft = r.opt_u64("general.file_type")) {
        if (*ft <= std::numeric_limits<uint32_t>::max()) hp.file_type = static_cast<uint32_t>(*ft);
        else r.problem("general.file_type", "value " + std::to_string(*ft) + " is too large");
    }
    read_vocab(file, r, hp);
    if (hp.architecture.empty()) return hp;

    const std::string& a = hp.architecture;
    hp.n_layer = r.count(a + ".block_count", true, kMaxSmall, "zero layers");
    hp.n_embd = r.count(a + ".embedding_length", true, kMaxCount, "zero width");
    hp.n_ff = r.count(a + ".feed_forward_length", true, kMaxCount, "zero width");
    hp.context_length = r.count(a + ".context_length", true, kMaxContext, "zero context length");
    hp.n_head = r.count(a + ".attention.head_count", true, kMaxSmall, "zero attention heads");
    const bool have_kv_heads = file.has(a + ".attention.head_count_kv");
    hp.n_head_kv = have_kv_heads ? r.count(a + ".attention.head_count_kv", true, kMaxSmall, "zero KV heads")
                                 : hp.n_head;
    const uint32_t key_length = r.count(a + ".attention.key_length", false, kMaxSmall, "zero head dimension");

    if (hp.n_head != 0 && hp.n_head_kv != 0 && hp.n_head % hp.n_head_kv != 0)
        r.problem(a + ".attention.head_count_kv", std::to_string(hp.n_head) + " query heads are not a multiple of " +
                                                      std::to_string(hp.n_head_kv) + " KV heads");
    if (key_length != 0) {
        hp.head_dim = key_length;
    } else if (hp.n_head != 0 && hp.n_embd != 0) {
        if (hp.n_embd % hp.n_head != 0)
            r.problem(a + ".attention.head_count", "embedding length " + std::to_string(hp.n_embd) +
                                                       " is not a multiple of " + std::to_string(hp.n_head) +
                                                       " heads (and no attention.key_length)");
        else if (hp.n_embd / hp.n_head > kMaxSmall)
            r.problem(a + ".embedding_length", "head dimension " + std::to_string(hp.n_embd / hp.n_head) +
                                                   " exceeds the limit of " + std::to_string(kMaxSmall));
        else
            hp.head_dim = hp.n_embd / hp.n_head;
    }

    read_rope(r, a, hp);
    const auto eps = r.number(a + ".attention.layer_norm_rms_epsilon");
    if (eps) hp.rms_eps = *eps;
    if (is_supported_architecture(a)) {
        if (!eps) r.problem(a + ".attention.layer_norm_rms_epsilon", "missing");
        else if (!(*eps > 0) || *eps >= 1) r.problem(a + ".attention.layer_norm_rms_epsilon", "must be in (0, 1)");
        else if (!(float(*eps) > 0)) {  // the engine adds it in float32
            char value[32];
            std::snprintf(value, sizeof value, "%g", *eps);
            r.problem(a + ".attention.layer_norm_rms_epsilon", "value " + std::string(value) + " is 0 as a float32");
        }
    }
    read_attention_variants(r, a, hp);
    read_declared_sizes(file, r, a, hp);
    check_rope_angles(r, a, hp);
    return hp;
}

HParams HParams::from_file(const gguf::File& file) {
    std::vector<FormatError> problems;
    HParams hp = describe(file, &problems);
    if (!hp.architecture.empty() && !is_supported_architecture(hp.architecture))
        throw UnsupportedError(file.path() + ": general.architecture: unsupported architecture '" + hp.architecture +
                               "' (lmscope runs " + supported_architectures_text() + ")");
    if (!problems.empty()) throw problems.front();
    return hp;
}

std::string_view file_type_name(uint32_t id) {
    static constexpr std::array<std::pair<uint32_t, std::string_view>, 33> kNames{{
        {0, "F32"},      {1, "F16"},       {2, "Q4_0"},     {3, "Q4_1"},    {4, "Q4_1_SOME_F16"},
        {7, "Q8_0"},     {8, "Q5_0"},      {9, "Q5_1"},     {10, "Q2_K"},   {11, "Q3_K_S"},
        {12, "Q3_K_M"},  {13, "Q3_K_L"},   {14, "Q4_K_S"},  {15, "Q4_K_M"}, {16, "Q5_K_S"},
        {17, "Q5_K_M"},  {18, "Q6_K"},     {19, "IQ2_XXS"}, {20, "IQ2_XS"}, {21, "Q2_K_S"},
        {22, "IQ3_XS"},  {23, "IQ3_XXS"},  {24, "IQ1_S"},   {25, "IQ4_NL"}, {26, "IQ3_S"},
        {27, "IQ3_M"},   {28, "IQ2_S"},    {29, "IQ2_M"},   {30, "IQ4_XS"}, {31, "IQ1_M"},
        {32, "BF16"},    {36, "TQ1_0"},    {37, "TQ2_0"},
    }};
    for (const auto& [k, name] : kNames)
        if (k == id) return name;
    return "unknown";
}

}  // namespace lmscope::model
