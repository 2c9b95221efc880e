#include "tokenizer/spm_proto.h"

#include "util/error.h"

#include <cstring>
#include <vector>
#include <unordered_map>

namespace lmscope::tok {

void ProtoWriter::raw_varint(uint64_t v) {
    while (v >= 0x80) {
        out_ += static_cast<char>((v & 0x7F) | 0x80);
        v >>= 7;
    }
    out_ += static_cast<char>(v);
}

void ProtoWriter::varint(uint32_t field, uint64_t value) {
    raw_varint(static_cast<uint64_t>(field) << 3 | 0);
    raw_varint(value);
}

void ProtoWriter::int32(uint32_t field, int32_t value) {
    varint(field, static_cast<uint64_t>(static_cast<int64_t>(value)));
}

void ProtoWriter::fixed32_float(uint32_t field, float value) {
    raw_varint(static_cast<uint64_t>(field) << 3 | 5);
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    for (int i = 0; i < 4; ++i) out_ += static_cast<char>((bits >> (8 * i)) & 0xFF);
}

void ProtoWriter::bytes(uint32_t field, std::string_view value) {
    raw_varint(static_cast<uint64_t>(field) << 3 | 2);
    raw_varint(value.size());
    out_.append(value);
}

void ProtoReader::fail(const std::string& reason) const {
    throw FormatError(source_, where_, reason + " at byte " + std::to_string(pos_));
}

uint64_t ProtoReader::read_varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos_ >= data_.size()) fail("truncated varint");
        const uint8_t c = static_cast<uint8_t>(data_[pos_++]);
        v |= static_cast<uint64_t>(c & 0x7F) << shift;
        if (c < 0x80) return v;
    }
    fail("varint longer than 10 bytes");
}

bool ProtoReader::next() {
    if (pos_ >= data_.size()) return false;
    const uint64_t key = read_varint();
    field_ = static_cast<uint32_t>(key >> 3);
    wire_ = static_cast<uint32_t>(key & 7);
    if (field_ == 0 || (key >> 3) > 0x1FFFFFFF) fail("invalid field number");
    switch (wire_) {
    case 0: value_ = read_varint(); break;
    case 1:
        if (data_.size() - pos_ < 8) fail("truncated fixed64");
        value_ = 0;
        for (int i = 0; i < 8; ++i) value_ |= static_cast<uint64_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
        pos_ += 8;
        break;
    case 2: {
        const uint64_t len = read_varint();
        if (len > data_.size() - pos_) fail("length " + std::to_string(len) + " runs past the end");
        bytes_ = data_.substr(pos_, len);
        pos_ += len;
        break;
    }
    case 5:
        if (data_.size() - pos_ < 4) fail("truncated fixed32");
        value_ = 0;
        for (int i = 0; i < 4; ++i) value_ |= static_cast<uint64_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
        pos_ += 4;
        break;
    default: fail("unsupported wire type " + std::to_string(wire_));
    }
    return true;
}

uint64_t ProtoReader::as_varint() const {
    if (wire_ != 0) throw FormatError(source_, where_, "field " + std::to_string(field_) + " is not a varint");
    return value_;
}

int32_t ProtoReader::as_int32() const { return static_cast<int32_t>(static_cast<uint32_t>(as_varint())); }

float ProtoReader::as_float() const {
    if (wire_ != 5) throw FormatError(source_, where_, "field " + std::to_string(field_) + " is not a float");
    const uint32_t bits = static_cast<uint32_t>(value_);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

std::string_view ProtoReader::as_bytes() const {
    if (wire_ != 2) throw FormatError(source_, where_, "field " + std::to_string(field_) + " is not length-delimited");
    return bytes_;
}

std::string_view spm_model_type_name(int t) {
    switch (t) {
    case 1: return "unigram";
    case 2: return "BPE";
    case 3: return "word";
    case 4: return "char";
    }
    return "unknown";
}

std::string model_proto_from_vocab(const Vocab& v) {
    ProtoWriter model;
    bool has_bytes = false;
    for (int32_t id = 0; id < v.size(); ++id) {
        int type = static_cast<int>(v.types[id]);
        if (id == v.special.unk) type = static_cast<int>(TokenType::Unknown);
        else if (v.types[id] == TokenType::Unknown) type = static_cast<int>(TokenType::Control);
        has_bytes = has_bytes || v.types[id] == TokenType::Byte;
        ProtoWriter piece;
        piece.bytes(1, v.pieces[id]);
        piece.fixed32_float(2, v.scores[id]);
        piece.varint(3, static_cast<uint64_t>(type));
        model.bytes(1, piece.data());
    }
    ProtoWriter trainer;
    trainer.varint(3, 2);  // BPE: merges follow the scores, as in llama.cpp's SentencePiece path
    trainer.int32(4, v.size());
    trainer.boolean(35, has_bytes);
    trainer.int32(40, v.special.unk);
    trainer.int32(41, v.special.bos);
    trainer.int32(42, v.special.eos);
    trainer.int32(43, v.special.pad);
    model.bytes(2, trainer.data());
    ProtoWriter normalizer;
    normalizer.bytes(1, "identity");
    normalizer.boolean(3, v.add_space_prefix);
    normalizer.boolean(4, false);
    normalizer.boolean(5, true);
    model.bytes(3, normalizer.data());
    return model.data();
}

namespace {

// A precompiled_charsmap is what SentencePiece's normalizer walks for every input byte, without
// bounds checks: a uint32 (little-endian) byte size of a darts-clone double array, the array of
// uint32 units, then NUL-terminated replacement strings. A lookup starts at unit 0, whose
// offset (read whatever its other bits say) gives the first base; for each input byte c the
// unit at base ^ c is a child when its label (bits 0-7 and 31) equals c, and its offset
// leads from there to the next base. A child with bit 8 set has a value unit at that next
// base, whose low 31 bits are the offset of its replacement string. So the whole trie is
// walked here, the way a lookup does, from the root: every base any child leads to must keep
// its 256 children inside the array, and every value unit reached must be one (bit 31) and
// point inside the strings, which must end with a NUL. Units no lookup reaches are never read.
// The walk is linear in the units: each unit is the child of one base only, base = index ^ label.
void check_precompiled_charsmap(std::string_view blob, const std::string& name, const char* spec) {
    const std::string field = std::string(spec) + ".precompiled_charsmap";
    if (blob.empty()) return;  // no normalization table
    if (blob.size() < 4) throw FormatError(name, field, "is " + std::to_string(blob.size()) + " bytes, too short");
    const auto* b = reinterpret_cast<const uint8_t*>(blob.data());
    const uint64_t trie_bytes = uint64_t(b[0]) | uint64_t(b[1]) << 8 | uint64_t(b[2]) << 16 | uint64_t(b[3]) << 24;
    if (trie_bytes == 0 || trie_bytes % 4 != 0 || trie_bytes > blob.size() - 4)
        throw FormatError(name, field, "trie size " + std::to_string(trie_bytes) + " does not fit its " +
                                           std::to_string(blob.size()) + " bytes");
    const uint32_t n = uint32_t(trie_bytes / 4);  // < 2^30: the blob's size is a uint32
    const std::string_view strings = blob.substr(size_t(4 + trie_bytes));
    if (strings.empty() || strings.back() != '\0')
        throw FormatError(name, field, "replacement strings are missing or not NUL-terminated");
    auto unit = [b](uint32_t i) {
        const size_t at = 4 + 4 * size_t(i);
        return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
    };
    auto offset = [](uint32_t u) { return uint64_t(u >> 10) << ((u & (1u << 9)) >> 6); };
    auto fail = [&](uint32_t i, const std::string& reason) {
        throw FormatError(name, field, "unit " + std::to_string(i) + " " + reason);
    };
    // The children of each base, grouped by base (a counting sort): child_begin[base] ..
    // child_begin[base + 1] index into children. A unit with bit 31 set is nobody's child.
    std::vector<uint32_t> child_begin(size_t(n) + 1, 0), children;
    for (uint32_t i = 0; i < n; ++i)
        if (!(unit(i) >> 31)) ++child_begin[(i ^ (unit(i) & 0xffu)) + 1];
    for (uint32_t i = 0; i < n; ++i) child_begin[i + 1] += child_begin[i];
    children.resize(child_begin[n]);
    std::vector<uint32_t> fill(child_begin.begin(), child_begin.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
        if (!(unit(i) >> 31)) children[fill[i ^ (unit(i) & 0xffu)]++] = i;

    // The bases a lookup reaches, from the root's.
    std::vector<bool> seen(n, false);
    std::vector<uint32_t> todo;
    auto reach = [&](uint32_t from, uint64_t base) {
        if ((base | 0xff) >= n) fail(from, "points outside the " + std::to_string(n) + "-unit trie");
        if (!seen[size_t(base)]) {
            seen[size_t(base)] = true;
            todo.push_back(uint32_t(base));
        }
    };
    if (unit(0) >> 31) fail(0, "(the root) is a value, not a node");
    reach(0, offset(unit(0)));
    while (!todo.empty()) {
        const uint32_t base = todo.back();
        todo.pop_back();
        for (uint32_t k = child_begin[base]; k < child_begin[base + 1]; ++k) {
            const uint32_t i = children[k], u = unit(i);
            const uint64_t next = i ^ offset(u);
            reach(i, next);
            if (!((u >> 8) & 1)) continue;
            const uint32_t value = unit(uint32_t(next));
            if (!(value >> 31)) fail(i, "has a value at unit " + std::to_string(next) + ", which holds none");
            if ((value & 0x7fffffffu) >= strings.size())
                fail(uint32_t(next), "points past the replacement strings");
        }
    }
}

}  // namespace

Vocab vocab_from_model_proto(std::string_view serialized, const std::string& name, SpmModelInfo* info) {
    Vocab v;
    v.source = name;
    v.model = "llama";
    SpmModelInfo mi;
    int32_t unk = 0, bos = 1, eos = 2, pad = -1;
    bool add_dummy_prefix = true;
    ProtoReader top(serialized, name, "ModelProto");
    while (top.next()) {
        if (top.field() == 1) {
            ProtoReader p(top.as_bytes(), name, "pieces[" + std::to_string(v.pieces.size()) + "]");
            std::string piece;
            float score = 0.0f;
            int type = 1;
            while (p.next()) {
                if (p.field() == 1) piece = std::string(p.as_bytes());
                else if (p.field() == 2) score = p.as_float();
                else if (p.field() == 3) type = p.as_int32();
            }
            if (type < 1 || type > 6)
                throw FormatError(name, "pieces[" + std::to_string(v.pieces.size()) + "].type",
                                  "is " + std::to_string(type) + ", expected 1..6");
            v.pieces.push_back(std::move(piece));
            v.scores.push_back(score);
            v.types.push_back(static_cast<TokenType>(type));
        } else if (top.field() == 2) {
            ProtoReader t(top.as_bytes(), name, "trainer_spec");
            while (t.next()) {
                switch (t.field()) {
                case 3: mi.model_type = t.as_int32(); break;
                case 35: mi.byte_fallback = t.as_varint() != 0; break;
                case 40: unk = t.as_int32(); break;
                case 41: bos = t.as_int32(); break;
                case 42: eos = t.as_int32(); break;
                case 43: pad = t.as_int32(); break;
                default: break;
                }
            }
        } else if (top.field() == 3 || top.field() == 5) {
            const bool denormalizer = top.field() == 5;
            const char* where = denormalizer ? "denormalizer_spec" : "normalizer_spec";
            ProtoReader n(top.as_bytes(), name, where);
            while (n.next()) {
                if (n.field() == 2) check_precompiled_charsmap(n.as_bytes(), name, where);
                if (denormalizer) continue;
                if (n.field() == 1) mi.normalizer = std::string(n.as_bytes());
                else if (n.field() == 3) add_dummy_prefix = n.as_varint() != 0;
            }
        }
    }
    if (v.pieces.empty()) throw FormatError(name, "pieces", "no pieces: not a SentencePiece model");
    const int32_t n = v.size();
    auto check = [&](int32_t id, const char* field) {
        if (id < -1 || id >= n)
            throw FormatError(name, field, "is " + std::to_string(id) + ", outside the vocabulary of " +
                                               std::to_string(n) + " pieces");
        return id;
    };
    if (mi.model_type < 1 || mi.model_type > 4)
        throw FormatError(name, "trainer_spec.model_type",
                          "is " + std::to_string(mi.model_type) + ", expected 1 (unigram) to 4 (char)");
    v.special.unk = check(unk, "trainer_spec.unk_id");
    if (v.special.unk < 0 || v.types[v.special.unk] != TokenType::Unknown)
        throw FormatError(name, "trainer_spec.unk_id",
                          v.special.unk < 0 ? std::string("is -1, but SentencePiece needs an unknown piece")
                                            : "piece " + std::to_string(v.special.unk) + " '" +
                                                  v.pieces[v.special.unk].substr(0, 32) + "' has type " +
                                                  std::string(token_type_name(v.types[v.special.unk])) +
                                                  ", not unknown (SentencePiece needs an unknown piece)");
    v.special.bos = check(bos, "trainer_spec.bos_id");
    v.special.eos = check(eos, "trainer_spec.eos_id");
    v.special.pad = check(pad, "trainer_spec.pad_id");
    v.special.add_bos = v.special.bos >= 0;
    v.add_space_prefix = add_dummy_prefix;
    std::unordered_map<std::string_view, int32_t> seen;
    for (int32_t id = 0; id < n; ++id) {
        const std::string field = "pieces[" + std::to_string(id) + "]";
        if (v.pieces[id].empty()) throw FormatError(name, field, "is empty");
        if (v.pieces[id].find('\0') != std::string::npos) throw FormatError(name, field, "contains a NUL byte");
        if (auto [it, fresh] = seen.emplace(v.pieces[id], id); !fresh)
            throw FormatError(name, field, "'" + v.pieces[id].substr(0, 32) + "' is a duplicate of pieces[" +
                                               std::to_string(it->second) + "]");
    }
    for (int32_t id = 0; id < n; ++id)
        if (v.types[id] == TokenType::Byte && !parse_byte_piece(v.pieces[id]))
            throw FormatError(name, "pieces[" + std::to_string(id) + "]",
                              "has type byte but reads '" + v.pieces[id].substr(0, 32) + "'");
    v.build_index();
    if (info) *info = mi;
    return v;
}

}  // namespace lmscope::tok
