#include "tokenizer/tiktoken_tokenizer.h"

#include "tokenizer/byte_level.h"
#include "util/error.h"
#include "util/gzip.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <queue>

namespace lmscope::tok {

namespace {

constexpr size_t kMaxFileBytes = 64u << 20;  // o200k_base is 3.6 MB uncompressed
constexpr size_t kMaxLineBytes = 1024;       // the longest cl100k/o200k line is under 200
constexpr size_t kMaxTokenBytes = 512;
constexpr int32_t kMaxRanks = 1 << 22;      // o200k_base has 199998

std::string_view file_name(std::string_view path) {
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The encoding name a path gives: "dir/cl100k_base.tiktoken.gz" -> "cl100k_base".
std::string_view encoding_name(std::string_view path) {
    std::string_view name = file_name(path);
    if (name.ends_with(".gz")) name.remove_suffix(3);
    if (name.ends_with(".tiktoken")) name.remove_suffix(9);
    return name;
}

// Standard base64 (RFC 4648, with padding); nullopt for anything else.
std::optional<std::string> decode_base64(std::string_view in) {
    static const std::array<int8_t, 256> value = [] {
        std::array<int8_t, 256> v{};
        v.fill(-1);
        const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i) v[static_cast<uint8_t>(alphabet[i])] = static_cast<int8_t>(i);
        return v;
    }();
    if (in.empty() || in.size() % 4 != 0) return std::nullopt;
    size_t pad = 0;
    while (pad < 2 && in[in.size() - 1 - pad] == '=') ++pad;
    std::string out;
    out.reserve(in.size() / 4 * 3);
    uint32_t acc = 0;
    for (size_t i = 0; i < in.size() - pad; ++i) {
        const int8_t v = value[static_cast<uint8_t>(in[i])];
        if (v < 0) return std::nullopt;
        acc = (acc << 6) | static_cast<uint32_t>(v);
        if (i % 4 == 3) {
            out += static_cast<char>(acc >> 16);
            out += static_cast<char>((acc >> 8) & 0xFF);
            out += static_cast<char>(acc & 0xFF);
            acc = 0;
        }
    }
    if (pad == 1) {  // 3 symbols: 18 bits, 2 bytes, the low 2 bits must be zero
        if (acc & 0x3) return std::nullopt;
        out += static_cast<char>(acc >> 10);
        out += static_cast<char>((acc >> 2) & 0xFF);
    } else if (pad == 2) {  // 2 symbols: 12 bits, 1 byte, the low 4 bits must be zero
        if (acc & 0xF) return std::nullopt;
        out += static_cast<char>(acc >> 4);
    }
    return out;
}

std::string line_field(size_t line) { return "line " + std::to_string(line); }

// One "BASE64 RANK" line -> (bytes, rank); a rank is below max_rank.
std::pair<std::string, int32_t> parse_rank_line(std::string_view line, const std::string& path, size_t n,
                                                int32_t max_rank) {
    const size_t sp = line.find(' ');
    if (sp == std::string_view::npos || line.find(' ', sp + 1) != std::string_view::npos)
        throw FormatError(path, line_field(n), "expected 'BASE64 RANK' (one space)");
    const std::string_view b64 = line.substr(0, sp), digits = line.substr(sp + 1);
    std::optional<std::string> bytes = decode_base64(b64);
    if (!bytes) throw FormatError(path, line_field(n), "the token is not valid base64");
    if (bytes->size() > kMaxTokenBytes)
        throw FormatError(path, line_field(n), "the token is " + std::to_string(bytes->size()) +
                                                   " bytes, more than " + std::to_string(kMaxTokenBytes));
    int32_t rank = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
    if (digits.empty() || digits[0] == '+' || ec != std::errc() || end != digits.data() + digits.size() ||
        rank < 0 || rank >= max_rank)
        throw FormatError(path, line_field(n), "the rank is not a number from 0 to " + std::to_string(max_rank - 1) +
                                                   " (ranks run from 0, one a line)");
    return {std::move(*bytes), rank};
}

}  // namespace

const std::vector<TiktokenEncoding>& tiktoken_encodings() {
    // tiktoken_ext/openai_public.py: the ranks and the ids of the special tokens.
    static const std::vector<TiktokenEncoding> table = {
        {"cl100k_base", "GPT-4, GPT-3.5", 100256,
         {{"<|endoftext|>", 100257}, {"<|fim_prefix|>", 100258}, {"<|fim_middle|>", 100259},
          {"<|fim_suffix|>", 100260}, {"<|endofprompt|>", 100276}}},
        {"o200k_base", "GPT-4o", 199998, {{"<|endoftext|>", 199999}, {"<|endofprompt|>", 200018}}},
    };
    return table;
}

bool is_tiktoken_path(const std::string& path) {
    const std::string_view name = file_name(path);
    return name.ends_with(".tiktoken") || name.ends_with(".tiktoken.gz");
}

const TiktokenEncoding* tiktoken_encoding_of(const std::string& path) {
    const std::string_view name = encoding_name(path);
    for (const TiktokenEncoding& e : tiktoken_encodings())
        if (e.name == name) return &e;
    return nullptr;
}

std::vector<std::string> read_tiktoken_ranks(const std::string& path) {
    return parse_tiktoken_ranks(read_maybe_gzip(path, kMaxFileBytes), path);
}

std::vector<std::string> parse_tiktoken_ranks(std::string_view text, const std::string& path) {
    if (text.size() > kMaxFileBytes)
        throw FormatError(path, "size", std::to_string(text.size()) + " bytes, more than the " +
                                            std::to_string(kMaxFileBytes) + " allowed");
    // Ranks run 0..n-1 over n lines, so no rank can reach the line count.
    const auto lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    const auto max_rank = static_cast<int32_t>(std::min<size_t>(lines, kMaxRanks));
    std::vector<std::string> bytes;  // [rank]
    std::vector<size_t> line_of;     // [rank] -> line it came from, 0 while unseen
    std::unordered_map<std::string_view, int32_t> rank_of;  // keys point into `bytes`, filled after
    size_t n = 0;
    for (size_t pos = 0; pos < text.size();) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string::npos) eol = text.size();
        ++n;
        std::string_view line(text.data() + pos, eol - pos);
        pos = eol + 1;
        if (line.size() > kMaxLineBytes)
            throw FormatError(path, line_field(n), "is " + std::to_string(line.size()) + " bytes long, more than " +
                                                       std::to_string(kMaxLineBytes));
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        auto [token, rank] = parse_rank_line(line, path, n, max_rank);
        if (static_cast<size_t>(rank) >= bytes.size()) {
            bytes.resize(static_cast<size_t>(rank) + 1);
            line_of.resize(static_cast<size_t>(rank) + 1, 0);
        }
        if (line_of[rank] != 0)
            throw FormatError(path, line_field(n), "rank " + std::to_string(rank) + " is also on line " +
                                                       std::to_string(line_of[rank]));
        bytes[rank] = std::move(token);
        line_of[rank] = n;
    }
    if (bytes.empty()) throw FormatError(path, "ranks", "the file has no ranks");
    for (size_t r = 0; r < bytes.size(); ++r) {
        if (line_of[r] == 0)
            throw FormatError(path, "ranks", "rank " + std::to_string(r) + " is missing (ranks run 0.." +
                                                 std::to_string(bytes.size() - 1) + ")");
        if (auto [it, fresh] = rank_of.emplace(bytes[r], static_cast<int32_t>(r)); !fresh)
            throw FormatError(path, line_field(line_of[r]), "rank " + std::to_string(r) + " has the same bytes as rank " +
                                                                std::to_string(it->second) + " (line " +
                                                                std::to_string(line_of[it->second]) + ")");
    }
    for (int b = 0; b < 256; ++b)
        if (const char c = static_cast<char>(b); !rank_of.count(std::string_view(&c, 1)))
            throw FormatError(path, "ranks", "byte " + std::to_string(b) + " has no rank (every byte needs one)");
    return bytes;
}

namespace {

const TiktokenEncoding& encoding_for(const std::string& path) {
    if (const TiktokenEncoding* e = tiktoken_encoding_of(path)) return *e;
    std::string known;
    for (const TiktokenEncoding& e : tiktoken_encodings()) known += (known.empty() ? "" : ", ") + std::string(e.name);
    throw UnsupportedError(path + ": the file name names no known tiktoken encoding ('" +
                           std::string(encoding_name(path)) + "'; known: " + known + ")");
}

// The vocabulary of an encoding: ranks in the byte-level alphabet, then the special tokens.
Vocab make_vocab(const TiktokenEncoding& enc, const std::vector<std::string>& ranks, const std::string& path) {
    if (static_cast<int32_t>(ranks.size()) != enc.n_ranks)
        throw FormatError(path, "ranks", "has " + std::to_string(ranks.size()) + " ranks; " + std::string(enc.name) +
                                             " has " + std::to_string(enc.n_ranks));
    int32_t n_vocab = enc.n_ranks;
    for (const auto& [text, id] : enc.specials) n_vocab = std::max(n_vocab, id + 1);
    Vocab v;
    v.source = path;
    v.model = "tiktoken";
    v.pre = std::string(enc.name);
    v.pieces.resize(static_cast<size_t>(n_vocab));
    v.types.assign(static_cast<size_t>(n_vocab), TokenType::Unused);  // ids without a token stay empty
    v.scores.assign(static_cast<size_t>(n_vocab), 0.0f);
    const ByteLevel& bl = ByteLevel::instance();
    for (int32_t r = 0; r < enc.n_ranks; ++r) {
        bl.encode(ranks[r], v.pieces[r]);
        v.types[r] = TokenType::Normal;
        v.scores[r] = -static_cast<float>(r);  // earlier ranks merge first (the lab's merge list)
    }
    for (const auto& [text, id] : enc.specials) {
        v.pieces[id] = std::string(text);
        v.types[id] = TokenType::Control;
    }
    v.special.eos = enc.specials.front().second;  // <|endoftext|>; tiktoken adds no BOS/EOS
    v.build_index();
    return v;
}

}  // namespace

TiktokenTokenizer::TiktokenTokenizer(const std::string& path)
    : TiktokenTokenizer(encoding_for(path), read_tiktoken_ranks(path), path) {}

TiktokenTokenizer::TiktokenTokenizer(const TiktokenEncoding& encoding, std::vector<std::string> ranks,
                                     const std::string& path)
    : Tokenizer(make_vocab(encoding, ranks, path), true),
      encoding_(encoding),
      bytes_(std::move(ranks)),
      pre_(std::string(encoding.name)) {
    rank_.reserve(bytes_.size());
    for (size_t r = 0; r < bytes_.size(); ++r) rank_.emplace(bytes_[r], static_cast<int32_t>(r));
}

std::string TiktokenTokenizer::describe() const {
    return "tiktoken " + std::string(encoding_.name) + " (" + std::string(encoding_.used_by) +
           "): byte-level BPE by rank, " + std::to_string(encoding_.n_ranks) + " ranks + " +
           std::to_string(encoding_.specials.size()) + " special";
}

int32_t TiktokenTokenizer::rank_of(std::string_view bytes) const {
    auto it = rank_.find(bytes);
    return it == rank_.end() ? -1 : it->second;
}

void TiktokenTokenizer::bpe_word(std::string_view word, std::vector<BpePiece>& out) const {
    if (const int32_t whole = rank_of(word); whole >= 0) {
        out.push_back({whole, static_cast<uint32_t>(word.size())});
        return;
    }
    // Parts of the word, each a contiguous byte range that is a token; a pair merges into the
    // token its concatenation (also contiguous) is.
    struct Part {
        uint32_t begin, len;  // len 0 once merged into its left neighbour
        int32_t prev, next;
    };
    std::vector<Part> parts(word.size());  // [byte] one part per byte at first
    for (size_t i = 0; i < word.size(); ++i)
        parts[i] = {static_cast<uint32_t>(i), 1, static_cast<int32_t>(i) - 1,
                    i + 1 < word.size() ? static_cast<int32_t>(i + 1) : -1};
    struct Cand {
        int32_t rank, left;
        uint32_t len;  // bytes of the merged pair when queued (a changed pair is stale)
    };
    auto worse = [](const Cand& a, const Cand& b) { return a.rank > b.rank || (a.rank == b.rank && a.left > b.left); };
    std::priority_queue<Cand, std::vector<Cand>, decltype(worse)> queue(worse);
    auto try_pair = [&](int32_t l) {
        if (l < 0 || parts[l].next < 0) return;
        const Part& a = parts[l];
        const uint32_t len = a.len + parts[a.next].len;
        if (const int32_t r = rank_of(word.substr(a.begin, len)); r >= 0) queue.push({r, l, len});
    };
    for (size_t i = 0; i + 1 < parts.size(); ++i) try_pair(static_cast<int32_t>(i));
    while (!queue.empty()) {
        const Cand c = queue.top();
        queue.pop();
        Part& l = parts[c.left];
        if (l.len == 0 || l.next < 0 || l.len + parts[l.next].len != c.len) continue;  // stale
        Part& r = parts[l.next];
        l.len += r.len;
        r.len = 0;
        l.next = r.next;
        if (l.next >= 0) parts[l.next].prev = c.left;
        try_pair(l.prev);
        try_pair(c.left);
    }
    for (const Part& p : parts)
        if (p.len > 0) out.push_back({rank_of(word.substr(p.begin, p.len)), p.len});
}

void TiktokenTokenizer::encode_text(std::string_view text, size_t offset, std::vector<Token>& out) const {
    std::vector<BpePiece> scratch;
    auto encode = [this](std::string_view word, std::vector<BpePiece>& ps) { bpe_word(word, ps); };
    for (auto [b, e] : pre_.split(text)) {
        size_t pos = offset + b;
        for (const BpePiece& p : cache_.get(text.substr(b, e - b), scratch, encode)) {
            out.push_back({p.id, vocab_.pieces[p.id], pos, pos + p.bytes});
            pos += p.bytes;
        }
    }
}

}  // namespace lmscope::tok
