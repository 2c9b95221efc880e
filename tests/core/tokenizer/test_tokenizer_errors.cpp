// Bad vocabularies are refused with a FormatError (or UnsupportedError) that names the file and
// the field: each row builds a small GGUF vocabulary with gguf::Writer and breaks one thing.
#include "common/testing.h"

#include "gguf/gguf.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <functional>
#include <random>

using namespace lmscope;
using namespace lmscope::tok;
using gguf::Value;
using gguf::ValueType;
using Scalar = gguf::Value::Scalar;

namespace {

Value strings(const std::vector<std::string>& v) {
    std::vector<Scalar> items;
    for (const auto& s : v) items.emplace_back(s);
    return Value::array(ValueType::STRING, std::move(items));
}
Value floats(size_t n) { return Value::array(ValueType::FLOAT32, std::vector<Scalar>(n, Scalar(0.0f))); }
Value ints(const std::vector<int32_t>& v) {
    std::vector<Scalar> items;
    for (int32_t x : v) items.emplace_back(x);
    return Value::array(ValueType::INT32, std::move(items));
}
Value u32(uint32_t v) { return Value(Scalar(v)); }

// A small valid SentencePiece-style vocabulary.
gguf::Writer llama_vocab() {
    gguf::Writer w;
    w.set("tokenizer.ggml.model", Value::string("llama"));
    w.set("tokenizer.ggml.tokens", strings({"<unk>", "<s>", "</s>", "\xE2\x96\x81", "a", "b", "\xE2\x96\x81" "a"}));
    w.set("tokenizer.ggml.scores", floats(7));
    w.set("tokenizer.ggml.token_type", ints({2, 3, 3, 1, 1, 1, 1}));
    w.set("tokenizer.ggml.bos_token_id", u32(1));
    w.set("tokenizer.ggml.eos_token_id", u32(2));
    return w;
}

// A small valid byte-level BPE vocabulary: a, b, ab, <|endoftext|>, then the symbols of the
// other 254 bytes (every byte-level vocabulary holds those of text).
gguf::Writer gpt2_vocab() {
    std::vector<std::string> tokens = {"a", "b", "ab", "<|endoftext|>"};
    std::vector<int32_t> types = {1, 1, 1, 3};
    for (int b = 0; b < 256; ++b)
        if (b != 'a' && b != 'b') {
            tokens.push_back(ByteLevel::instance().encode(uint8_t(b)));
            types.push_back(1);
        }
    gguf::Writer w;
    w.set("tokenizer.ggml.model", Value::string("gpt2"));
    w.set("tokenizer.ggml.pre", Value::string("gpt-2"));
    w.set("tokenizer.ggml.tokens", strings(tokens));
    w.set("tokenizer.ggml.token_type", ints(types));
    w.set("tokenizer.ggml.merges", strings({"a b"}));
    w.set("tokenizer.ggml.eos_token_id", u32(3));
    return w;
}

using Mutation = std::function<gguf::Writer()>;

}  // namespace

Q_DECLARE_METATYPE(Mutation)

class TestTokenizerErrors : public QObject {
    Q_OBJECT
private slots:
    void valid_vocabularies_load() {
        for (auto* make : {&llama_vocab, &gpt2_vocab}) {
            const auto bytes = make().to_bytes();
            const auto f = gguf::File::from_memory(bytes.data(), bytes.size(), "good.gguf");
            const auto t = load_tokenizer(f);
            QVERIFY(t->vocab_size() > 0);
        }
        const auto bytes = gpt2_vocab().to_bytes();
        const auto t = load_tokenizer(gguf::File::from_memory(bytes.data(), bytes.size(), "g.gguf"));
        QCOMPARE(t->encode_ids("ab"), std::vector<int32_t>{2});
        QCOMPARE(t->encode_ids("ba"), (std::vector<int32_t>{1, 0}));
    }

    void bos_defaults() {
        auto w = gpt2_vocab();
        w.set("tokenizer.ggml.bos_token_id", u32(3));
        for (const char* pre : {"gpt-2", "llama-bpe"}) {
            w.set("tokenizer.ggml.pre", Value::string(pre));
            const auto bytes = w.to_bytes();
            const auto t = load_tokenizer(gguf::File::from_memory(bytes.data(), bytes.size(), "b.gguf"));
            const bool llama3 = std::string(pre) == "llama-bpe";  // Llama 3 adds BOS unless told not to
            QCOMPARE(t->special().add_bos, llama3);
            QCOMPARE(t->encode_ids("ab", true).front(), llama3 ? 3 : 2);
        }
        w.set("tokenizer.ggml.add_bos_token", Value(Scalar(false)));
        const auto bytes = w.to_bytes();
        QVERIFY(!load_tokenizer(gguf::File::from_memory(bytes.data(), bytes.size(), "b.gguf"))->special().add_bos);
    }

    void bad_vocabulary_data() {
        QTest::addColumn<Mutation>("make");
        QTest::addColumn<QString>("field");  // expected in the message ("" for the family name rows)
        QTest::addColumn<bool>("unsupported");
        auto row = [](const char* name, Mutation m, const char* field, bool unsupported = false) {
            QTest::newRow(name) << m << QString(field) << unsupported;
        };
        row("scores shorter than tokens", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.scores", floats(3)); return w; },
            "tokenizer.ggml.scores");
        row("types shorter than tokens", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.token_type", ints({1, 1})); return w; },
            "tokenizer.ggml.token_type");
        row("type out of range", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.token_type", ints({2, 3, 3, 1, 9, 1, 1})); return w; },
            "tokenizer.ggml.token_type");
        row("byte piece not <0xHH>", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.token_type", ints({2, 3, 3, 1, 6, 1, 1})); return w; },
            "tokenizer.ggml.tokens");
        row("bos beyond vocabulary", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.bos_token_id", u32(7)); return w; },
            "tokenizer.ggml.bos_token_id");
        row("eos beyond vocabulary", [] { auto w = gpt2_vocab(); w.set("tokenizer.ggml.eos_token_id", u32(1000)); return w; },
            "tokenizer.ggml.eos_token_id");
        row("padding beyond vocabulary", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.padding_token_id", u32(99)); return w; },
            "tokenizer.ggml.padding_token_id");
        row("unknown beyond vocabulary", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.unknown_token_id", u32(70000)); return w; },
            "tokenizer.ggml.unknown_token_id");
        row("add_bos without bos", [] { auto w = gpt2_vocab(); w.set("tokenizer.ggml.add_bos_token", Value(Scalar(true))); return w; },
            "tokenizer.ggml.bos_token_id");
        row("unknown model type", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.model", Value::string("wordpiece")); return w; },
            "tokenizer.ggml.model", true);
        row("unknown pre-tokenizer", [] { auto w = gpt2_vocab(); w.set("tokenizer.ggml.pre", Value::string("martian-bpe")); return w; },
            "martian-bpe", true);
        row("tokens missing", [] { gguf::Writer w; w.set("tokenizer.ggml.model", Value::string("gpt2")); return w; },
            "tokenizer.ggml.tokens");
        row("tokens not strings", [] { auto w = gpt2_vocab(); w.set("tokenizer.ggml.tokens", floats(4)); return w; },
            "tokenizer.ggml.tokens");
        row("model missing", [] { gguf::Writer w; w.set("tokenizer.ggml.tokens", strings({"a"})); return w; },
            "tokenizer.ggml.model");
        row("sentencepiece without scores", [] {
                gguf::Writer w;
                w.set("tokenizer.ggml.model", Value::string("llama"));
                w.set("tokenizer.ggml.tokens", strings({"<unk>", "a"}));
                return w;
            }, "tokenizer.ggml.scores");
        row("sentencepiece without unknown token", [] { auto w = llama_vocab(); w.set("tokenizer.ggml.token_type", ints({1, 3, 3, 1, 1, 1, 1})); return w; },
            "tokenizer.ggml.unknown_token_id");
        row("no token for byte 0xC3", [] {
                auto w = gpt2_vocab();
                std::vector<std::string> tokens = {"a", "b", "ab", "<|endoftext|>"};
                for (int b = 0; b < 256; ++b)
                    if (b != 'a' && b != 'b' && b != 0xC3) tokens.push_back(ByteLevel::instance().encode(uint8_t(b)));
                w.set("tokenizer.ggml.tokens", strings(tokens));
                w.set("tokenizer.ggml.token_type", ints(std::vector<int32_t>(tokens.size(), 1)));
                return w;
            },
            "tokenizer.ggml.tokens");
        row("merge without space", [] { auto w = gpt2_vocab(); w.set("tokenizer.ggml.merges", strings({"a b", "ab"})); return w; },
            "tokenizer.ggml.merges");
        row("merges missing", [] {
                gguf::Writer w;
                w.set("tokenizer.ggml.model", Value::string("gpt2"));
                w.set("tokenizer.ggml.tokens", strings({"a"}));
                return w;
            }, "tokenizer.ggml.merges");
    }
    void bad_vocabulary() {
        QFETCH(Mutation, make);
        QFETCH(QString, field);
        QFETCH(bool, unsupported);
        const auto bytes = make().to_bytes();
        const auto f = gguf::File::from_memory(bytes.data(), bytes.size(), "bad-vocab.gguf");
        try {
            load_tokenizer(f);
            QFAIL("the vocabulary was accepted");
        } catch (const FormatError& e) {
            QVERIFY2(!unsupported, e.what());
            QVERIFY2(std::string(e.what()).find("bad-vocab.gguf") != std::string::npos, e.what());
            QVERIFY2(e.field() == field.toStdString(), e.what());
        } catch (const UnsupportedError& e) {
            QVERIFY2(unsupported, e.what());
            QVERIFY2(QString(e.what()).contains(field), e.what());
        }
    }

    void random_bytes_as_model_file() {
        for (uint32_t seed = 1; seed <= 50; ++seed) {
            std::mt19937 rng(seed);
            std::string bytes(64 + rng() % 4000, '\0');
            for (char& c : bytes) c = static_cast<char>(rng());
            try {
                load_sentencepiece_model(bytes, "random.model");
                QFAIL("random bytes were accepted as a model");
            } catch (const FormatError& e) {
                QCOMPARE(e.file(), std::string("random.model"));
            }
        }
    }

    void model_file_with_bad_special_id() {
        const std::string spm = testing::testdata_file("tokenizer/fx-spm-1024.model");
        LMSCOPE_REQUIRE_FILE(spm, "the fixture tokenizer");
        const auto raw = testing::read_bytes(spm);
        std::string bytes(raw.begin(), raw.end());
        // Append a second trainer_spec with bos_id = 5000: protobuf merges it over the first.
        std::string trainer = "\xC8\x02";  // field 41 (bos_id), varint
        trainer += "\x88\x27";             // 5000
        bytes += '\x12';                   // field 2, length-delimited
        bytes += static_cast<char>(trainer.size());
        bytes += trainer;
        try {
            load_sentencepiece_model(bytes, "bad.model");
            QFAIL("accepted");
        } catch (const FormatError& e) {
            QCOMPARE(e.field(), std::string("trainer_spec.bos_id"));
        }
    }
};

QTEST_APPLESS_MAIN(TestTokenizerErrors)
#include "test_tokenizer_errors.moc"
