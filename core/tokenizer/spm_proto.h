// The subset of SentencePiece's ModelProto (sentencepiece_model.proto) lmscope reads and
// writes, in protobuf wire format (Debian's libsentencepiece ships no protobuf headers).
//   ModelProto     : 1 pieces (repeated SentencePiece), 2 trainer_spec, 3 normalizer_spec
//   SentencePiece  : 1 piece (string), 2 score (float), 3 type (enum, default NORMAL = 1)
//   TrainerSpec    : 3 model_type (UNIGRAM 1, BPE 2, WORD 3, CHAR 4), 4 vocab_size,
//                    35 byte_fallback, 40 unk_id, 41 bos_id, 42 eos_id, 43 pad_id
//   NormalizerSpec : 1 name, 3 add_dummy_prefix (default true), 4 remove_extra_whitespaces,
//                    5 escape_whitespaces
#pragma once

#include "tokenizer/vocab.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lmscope::tok {

// Protobuf wire-format encoder (proto2 scalars, strings and nested messages).
class ProtoWriter {
public:
    void varint(uint32_t field, uint64_t value);
    void int32(uint32_t field, int32_t value);  // negative values take 10 bytes, as protobuf does
    void boolean(uint32_t field, bool value) { varint(field, value ? 1 : 0); }
    void fixed32_float(uint32_t field, float value);
    void bytes(uint32_t field, std::string_view value);  // strings and nested messages
    const std::string& data() const { return out_; }

private:
    void raw_varint(uint64_t v);
    std::string out_;
};

// Protobuf wire-format decoder: walks the fields of one message. Throws FormatError naming
// `source` and `where` on malformed input (truncated, bad wire type, length past the end).
class ProtoReader {
public:
    ProtoReader(std::string_view data, std::string source, std::string where)
        : data_(data), source_(std::move(source)), where_(std::move(where)) {}
    // Advances to the next field; false at the end of the message.
    bool next();
    uint32_t field() const { return field_; }
    uint32_t wire() const { return wire_; }
    uint64_t as_varint() const;       // wire type 0
    int32_t as_int32() const;         // wire type 0, truncated to 32 bits as protobuf does
    float as_float() const;           // wire type 5
    std::string_view as_bytes() const;  // wire type 2

private:
    [[noreturn]] void fail(const std::string& reason) const;
    uint64_t read_varint();
    std::string_view data_;
    size_t pos_ = 0;
    std::string source_, where_;
    uint32_t field_ = 0, wire_ = 0;
    uint64_t value_ = 0;        // varint / fixed value
    std::string_view bytes_;    // length-delimited value
};

// What lmscope keeps of a .model file besides its vocabulary.
struct SpmModelInfo {
    int model_type = 1;  // trainer_spec.model_type: 1 unigram, 2 BPE, 3 word, 4 char
    std::string normalizer = "nmt_nfkc";
    bool byte_fallback = false;
};
std::string_view spm_model_type_name(int model_type);  // "unigram", "BPE", ...

// The ModelProto of a GGUF SentencePiece vocabulary: BPE by scores, identity normalizer (no
// normalization, spaces kept), the space prefix as add_dummy_prefix, byte fallback when the
// vocabulary has byte pieces. The unknown id becomes the only UNKNOWN piece (other unknown-type
// entries become CONTROL, which is never matched in text, as SentencePiece allows one).
std::string model_proto_from_vocab(const Vocab& vocab);

// Reads the vocabulary of a serialized ModelProto. Throws FormatError(name, field, reason).
Vocab vocab_from_model_proto(std::string_view serialized, const std::string& name, SpmModelInfo* info);

}  // namespace lmscope::tok
