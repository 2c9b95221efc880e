#include "tokenizer/pretokenizer.h"

#include "util/error.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <map>

namespace lmscope::tok {

namespace {

// The expressions each family uses (the same ones as the reference tokenizers).
const std::string kGpt2 = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))";
const std::string kLlama3 =
    R"((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const std::string kQwen2 =
    R"((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const std::string kCjk = "[\u4e00-\u9fa5\u0800-\u4e00\uac00-\ud7ff]+";
// tiktoken's encodings (tiktoken_ext/openai_public.py): GPT-4's cl100k_base, GPT-4o's o200k_base.
const std::string kCl100k =
    R"('(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s)";
const std::string kO200k =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

const std::map<std::string, std::vector<std::string>>& table() {
    static const std::map<std::string, std::vector<std::string>> t = [] {
        std::map<std::string, std::vector<std::string>> m;
        m["default"] = {R"([\p{P}\$\+<=>\^~\|]+)", kGpt2, R"(\p{N}+)", "[0-9][0-9][0-9]"};
        // gpt-neox: GPT-NeoX's tokenizer pre-tokenizes with the GPT-2 expression.
        for (const char* name : {"gpt2", "gpt-2", "gpt-neox", "mpt", "olmo", "jais", "phi-2",
                                 "roberta-bpe"})
            m[name] = {kGpt2};
        for (const char* name : {"llama-bpe", "llama3", "llama-v3", "falcon3", "dbrx", "smaug-bpe"})
            m[name] = {kLlama3};
        for (const char* name : {"qwen2", "stablelm2"}) m[name] = {kQwen2};
        for (const char* name : {"starcoder", "refact", "command-r", "smollm", "codeshell",
                                 "exaone", "minerva-7b"})
            m[name] = {R"(\p{N})", kGpt2};
        m["cl100k_base"] = {kCl100k};
        m["o200k_base"] = {kO200k};
        m["falcon"] = {R"([\p{P}\$\+<=>\^~\|`]+)", kGpt2, "[0-9][0-9][0-9]"};
        m["deepseek-coder"] = {"[\r\n]", R"(\s?\p{L}+)", R"(\s?\p{P}+)", kCjk, R"(\p{N})"};
        m["deepseek-llm"] = {
            "[\r\n]",
            "\\s?[A-Za-z\u00b5\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u01ba\u01bc-\u01bf\u01c4-\u0293"
            "\u0295-\u02af\u0370-\u0373\u0376\u0377\u037b-\u037d\u037f\u0386\u0388-\u038a\u038c"
            "\u038e-\u03a1\u03a3-\u03f5\u03f7-\u0481\u048a-\u052f\u0531-\u0556\u10a0-\u10c5"
            "\u13a0-\u13f5\u13f8-\u13fd\u1c90-\u1cba\u1cbd-\u1cbf\u1d00-\u1d2b\u1d6b-\u1d77"
            "\u1d79-\u1d9a\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57"
            "\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4"
            "\u1fc6-\u1fcc\u1fd0-\u1fd3\u1fd6-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc"
            "\u2102\u2107\u210a-\u2113\u2115\u2119-\u211d\u2124\u2126\u2128\u212a-\u212d"
            "\u212f-\u2134\u2139\u213c-\u213f\u2145-\u2149\u214e\u2183\u2184\u2c00-\u2c7b"
            "\u2c7e-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3\ua640-\ua66d\ua680-\ua69b\ua722-\ua76f"
            "\ua771-\ua787\ua78b-\ua78e\uab70-\uabbf\ufb00-\ufb06\ufb13-\ufb17\uff21-\uff3a"
            "\uff41-\uff5a\U00010400-\U0001044f\U000104b0-\U000104d3\U000104d8-\U000104fb"
            "\U00010c80-\U00010cb2\U00010cc0-\U00010cf2\U000118a0-\U000118df"
            "\U0001e900-\U0001e943]+",
            "\\s?[!-/:-~\uff01-\uff0f\uff1a-\uff5e\u2018-\u201f\u3000-\u3002]+",
            R"(\s+$)",
            kCjk,
            R"(\p{N}+)"};
        return m;
    }();
    return t;
}

}  // namespace

// One compiled expression (JIT-compiled when the platform allows).
class Regex {
public:
    explicit Regex(const std::string& pattern) {
        int err = 0;
        PCRE2_SIZE offset = 0;
        code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                              PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF | PCRE2_DOLLAR_ENDONLY, &err, &offset,
                              nullptr);
        if (!code_) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            throw Error("pre-tokenizer expression does not compile at offset " +
                        std::to_string(offset) + ": " + reinterpret_cast<const char*>(msg));
        }
        jit_ = pcre2_jit_compile(code_, PCRE2_JIT_COMPLETE) == 0;
    }
    ~Regex() { pcre2_code_free(code_); }
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;

    // Splits subject[begin, end) into matches and gaps, appending the ranges to `out`.
    void split(std::string_view text, size_t begin, size_t end, pcre2_match_data* md,
               std::vector<std::pair<size_t, size_t>>& out) const {
        const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data() + begin);
        const size_t len = end - begin;
        size_t pos = 0;  // relative to begin
        size_t gap = 0;  // start of the text not yet emitted
        while (pos <= len) {
            int rc = jit_ ? pcre2_jit_match(code_, subject, len, pos, 0, md, nullptr)
                          : pcre2_match(code_, subject, len, pos, 0, md, nullptr);
            if (rc < 0) break;  // no (further) match; errors also end the search
            const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
            size_t ms = ov[0], me = ov[1];
            if (me <= ms) {  // an empty match: move on by one byte
                pos = ms + 1;
                continue;
            }
            if (ms > gap) out.emplace_back(begin + gap, begin + ms);
            out.emplace_back(begin + ms, begin + me);
            gap = pos = me;
        }
        if (gap < len) out.emplace_back(begin + gap, end);
    }

private:
    pcre2_code* code_ = nullptr;
    bool jit_ = false;
};

PreTokenizer::PreTokenizer(const std::string& family) : family_(family) {
    auto it = table().find(family);
    if (it == table().end())
        throw UnsupportedError("tokenizer.ggml.pre: pre-tokenizer family '" + family +
                               "' is not supported");
    for (const std::string& p : it->second) regexes_.push_back(std::make_unique<Regex>(p));
}

PreTokenizer::~PreTokenizer() = default;

std::vector<std::pair<size_t, size_t>> PreTokenizer::split(std::string_view text) const {
    std::vector<std::pair<size_t, size_t>> cur, next;
    if (text.empty()) return cur;
    cur.emplace_back(0, text.size());
    std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> md(
        pcre2_match_data_create(4, nullptr), &pcre2_match_data_free);
    if (!md) throw std::bad_alloc();
    for (const auto& re : regexes_) {
        next.clear();
        for (auto [b, e] : cur) re->split(text, b, e, md.get(), next);
        cur.swap(next);
    }
    return cur;
}

std::vector<std::string> PreTokenizer::families() {
    std::vector<std::string> out;
    for (const auto& [name, _] : table()) out.push_back(name);
    return out;
}

std::vector<std::string> PreTokenizer::expressions(const std::string& family) {
    auto it = table().find(family);
    return it == table().end() ? std::vector<std::string>{} : it->second;
}

}  // namespace lmscope::tok
