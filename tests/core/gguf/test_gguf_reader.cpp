// The GGUF reader: corrupt files built here, each rejected with its specific error (field and
// reason); every truncation and random byte damage rejected cleanly; valid files read back.
#include "common/testing.h"
#include "core/gguf/raw_gguf.h"

#include "gguf/gguf.h"
#include "util/error.h"

#include <functional>
#include <random>

using namespace lmscope;
using namespace lmscope::testing;

namespace {

constexpr uint32_t kF32 = 0, kQ8_0 = 8, kQ4_0 = 2;

// A small valid file: 4 metadata pairs, tensor 'a' F32 [8, 2] at 0 (64 bytes),
// tensor 'b' Q8_0 [32] at 64 (34 bytes), data padded to 128 bytes.
RawGguf base() {
    RawGguf g;
    g.kv = {kv_str("general.architecture", "llama"), kv_u32("llama.block_count", 2),
            kv_u32_array("tok.ids", {1, 2, 3, 4}), kv_str("general.name", "tiny")};
    g.tensors = {tensor_info("a", {8, 2}, kF32, 0), tensor_info("b", {32}, kQ8_0, 64)};
    g.data.resize(128);
    for (size_t i = 0; i < g.data.size(); ++i) g.data[i] = static_cast<uint8_t>(i * 7);
    return g;
}

// Where each piece of base() starts.
size_t kv_at(const RawGguf& g, size_t i) {
    size_t at = 24;
    for (size_t k = 0; k < i; ++k) at += g.kv[k].size();
    return at;
}
size_t tensor_at(const RawGguf& g, size_t i) {
    size_t at = kv_at(g, g.kv.size());
    for (size_t k = 0; k < i; ++k) at += g.tensors[k].size();
    return at;
}

Bytes cut(size_t n) {
    Bytes b = base().bytes();
    b.resize(n);
    return b;
}

template <typename F>
Bytes with(F change) {
    RawGguf g = base();
    change(g);
    return g.bytes();
}

Bytes with_kv(size_t i, Bytes pair) {
    return with([&](RawGguf& g) { g.kv[i] = std::move(pair); });
}

Bytes with_tensor(size_t i, Bytes info) {
    return with([&](RawGguf& g) { g.tensors[i] = std::move(info); });
}

// Only the metadata of base(), no tensors, with n_kv as given.
Bytes bare_kv(int64_t n_kv) {
    RawGguf r = base();
    r.tensors.clear();
    r.n_kv = n_kv;
    return r.head();
}

Bytes u32_payload(uint32_t v) {
    Bytes p;
    put_u32(p, v);
    return p;
}

struct Case {
    const char* name;
    std::function<Bytes()> make;
    const char* field;   // expected substring of FormatError::field()
    const char* reason;  // expected substring of FormatError::reason()
};

const std::vector<Case>& cases() {
    static const std::vector<Case> all = [] {
        const RawGguf g = base();
        const size_t kv0 = kv_at(g, 0), kv2 = kv_at(g, 2);
        const size_t t0 = tensor_at(g, 0), t1 = tensor_at(g, 1);
        const size_t data = base().bytes().size() - g.data.size();
        std::vector<Case> c = {
            // ---- header
            {"empty file", [] { return Bytes{}; }, "header.magic", "truncated"},
            {"cut in magic", [] { return cut(2); }, "header.magic", "truncated"},
            {"bad magic", [] { return with([](RawGguf& r) { r.magic = "GGML"; }); }, "header.magic",
             "not a GGUF file"},
            {"cut in version", [] { return cut(6); }, "header.version", "truncated"},
            {"version 0", [] { return with([](RawGguf& r) { r.version = 0; }); }, "header.version",
             "unsupported version 0"},
            {"version 1", [] { return with([](RawGguf& r) { r.version = 1; }); }, "header.version",
             "version 1 is not supported"},
            {"version 4", [] { return with([](RawGguf& r) { r.version = 4; }); }, "header.version",
             "unsupported version 4"},
            {"byte-swapped", [] { return with([](RawGguf& r) { r.version = 0x03000000u; }); },
             "header.version", "byte-swapped (big-endian) GGUF is not supported"},
            {"byte-swapped v2", [] { return with([](RawGguf& r) { r.version = 0x02000000u; }); },
             "header.version", "byte-swapped"},
            {"cut in n_tensors", [] { return cut(12); }, "header.n_tensors", "truncated"},
            {"cut in n_kv", [] { return cut(20); }, "header.n_kv", "truncated"},
            {"huge n_kv", [] { return with([](RawGguf& r) { r.n_kv = int64_t(1) << 40; }); }, "header.n_kv",
             "exceed the limit"},
            {"n_kv beyond bytes left", [] { return bare_kv(60000); }, "metadata[4].key.length",
             "truncated: needs 8 bytes"},
            {"huge n_tensors", [] { return with([](RawGguf& r) { r.n_tensors = INT64_MAX; }); },
             "header.n_tensors", "exceed the limit"},
            {"n_tensors beyond bytes left",
             [] {
                 RawGguf r = base();
                 r.n_tensors = 60000;
                 return r.head();
             },
             "tensor[2].name.length", "truncated"},
            // ---- metadata
            {"cut in key length", [=] { return cut(kv0 + 3); }, "metadata[0].key.length", "truncated"},
            {"cut in key", [=] { return cut(kv0 + 8 + 5); }, "metadata[0].key", "truncated"},
            {"cut in value type", [=] { return cut(kv0 + 8 + 20 + 2); },
             "metadata[0] 'general.architecture'.type", "truncated"},
            {"cut in string length", [=] { return cut(kv0 + 8 + 20 + 4 + 1); },
             "metadata[0] 'general.architecture'.value.length", "truncated"},
            {"cut in string value", [=] { return cut(kv0 + 8 + 20 + 4 + 8 + 2); },
             "metadata[0] 'general.architecture'.value", "truncated"},
            {"cut in u32 value", [=] { return cut(kv2 - 1); }, "metadata[1] 'llama.block_count'.value",
             "truncated"},
            {"cut in array element type", [=] { return cut(kv2 + 8 + 7 + 4 + 1); },
             "metadata[2] 'tok.ids'.value.element_type", "truncated"},
            {"cut in array count", [=] { return cut(kv2 + 8 + 7 + 4 + 4 + 3); },
             "metadata[2] 'tok.ids'.value.count", "truncated"},
            {"cut in array items", [=] { return cut(kv2 + 8 + 7 + 4 + 4 + 8 + 4 + 4 + 4 + 2); },
             "metadata[2] 'tok.ids'.value[3]", "truncated"},
            {"huge key length",
             [] {
                 Bytes p;
                 put_u64(p, uint64_t(1) << 62);
                 return with([&](RawGguf& r) { r.kv[0] = p; });
             },
             "metadata[0].key", "exceeds the limit"},
            {"huge string length",
             [] {
                 Bytes p;
                 put_u64(p, ~uint64_t(0));
                 return with_kv(3, kv_raw("general.name", T_STR, p));
             },
             "metadata[3] 'general.name'.value", "exceeds the limit"},
            {"string longer than the file",
             [] {
                 Bytes p;
                 put_u64(p, 1000);
                 return with_kv(3, kv_raw("general.name", T_STR, p));
             },
             "metadata[3] 'general.name'.value", "truncated"},
            {"huge array length",
             [] {
                 Bytes p;
                 put_u32(p, T_U32);
                 put_u64(p, uint64_t(1) << 40);
                 return with_kv(2, kv_raw("tok.ids", T_ARR, p));
             },
             "metadata[2] 'tok.ids'.value.count", "exceeds the limit"},
            {"array longer than the file",
             [] {
                 Bytes p;
                 put_u32(p, T_STR);
                 put_u64(p, 1000000);
                 put_str(p, "only one");
                 RawGguf r;
                 r.kv = {kv_raw("tok.ids", T_ARR, p)};
                 return r.head();
             },
             "metadata[0] 'tok.ids'.value[1].length", "truncated"},
            {"unknown value type", [] { return with_kv(1, kv_raw("llama.block_count", 13, u32_payload(2))); },
             "metadata[1] 'llama.block_count'.type", "unknown value type 13"},
            {"value type all ones",
             [] { return with_kv(1, kv_raw("llama.block_count", 0xffffffffu, u32_payload(2))); },
             "metadata[1] 'llama.block_count'.type", "unknown value type 4294967295"},
            {"unknown array element type",
             [] {
                 Bytes p;
                 put_u32(p, 99);
                 put_u64(p, 1);
                 put_u32(p, 0);
                 return with_kv(2, kv_raw("tok.ids", T_ARR, p));
             },
             "metadata[2] 'tok.ids'.value.element_type", "unknown value type 99"},
            {"nested array",
             [] {
                 Bytes p;
                 put_u32(p, T_ARR);
                 put_u64(p, 1);
                 put_u32(p, T_U8);
                 put_u64(p, 1);
                 put_u8(p, 0);
                 return with_kv(2, kv_raw("tok.ids", T_ARR, p));
             },
             "metadata[2] 'tok.ids'.value.element_type", "nested arrays are not supported"},
            {"empty key", [] { return with_kv(1, kv_u32("", 2)); }, "metadata[1].key", "empty key"},
            {"duplicate key", [] { return with_kv(3, kv_str("general.architecture", "qwen2")); },
             "metadata[3] 'general.architecture'.key", "duplicate key"},
            {"bool not 0 or 1", [] { return with_kv(1, kv_raw("flag", T_BOOL, Bytes{2})); },
             "metadata[1] 'flag'.value", "neither 0 nor 1"},
            {"alignment 0", [] { return with_kv(1, kv_u32("general.alignment", 0)); }, "general.alignment",
             "not a power of two"},
            {"alignment 3", [] { return with_kv(1, kv_u32("general.alignment", 3)); }, "general.alignment",
             "alignment 3 is not a power of two"},
            {"alignment as u64",
             [] {
                 Bytes p;
                 put_u64(p, 32);
                 return with_kv(1, kv_raw("general.alignment", T_U64, p));
             },
             "general.alignment", "is uint64, expected uint32"},
            {"alignment as string", [] { return with_kv(1, kv_str("general.alignment", "32")); },
             "general.alignment", "is string, expected uint32"},
            // ---- tensor infos
            {"cut in tensor name length", [=] { return cut(t0 + 4); }, "tensor[0].name.length", "truncated"},
            {"cut in tensor name", [=] { return cut(t1 + 8); }, "tensor[1].name", "truncated"},
            {"cut in n_dims", [=] { return cut(t0 + 8 + 1 + 2); }, "tensor 'a'.n_dims", "truncated"},
            {"cut in ne[1]", [=] { return cut(t0 + 8 + 1 + 4 + 8 + 3); }, "tensor 'a'.ne[1]", "truncated"},
            {"cut in tensor type", [=] { return cut(t0 + 8 + 1 + 4 + 16 + 1); }, "tensor 'a'.type",
             "truncated"},
            {"cut in tensor offset", [=] { return cut(t1 - 1); }, "tensor 'a'.offset", "truncated"},
            {"n_dims 0", [] { return with_tensor(0, tensor_info("a", {}, kF32, 0)); }, "tensor 'a'.n_dims",
             "0 dimensions, expected 1 to 4"},
            {"n_dims 5", [] { return with_tensor(0, tensor_info("a", {1, 1, 1, 1, 16}, kF32, 0)); },
             "tensor 'a'.n_dims", "5 dimensions"},
            {"negative dim", [] { return with_tensor(0, tensor_info("a", {8, ~uint64_t(0)}, kF32, 0)); },
             "tensor 'a'.ne[1]", "dimension -1 is negative"},
            {"dim product overflow",
             [] { return with_tensor(0, tensor_info("a", {uint64_t(1) << 32, uint64_t(1) << 32}, kF32, 0)); },
             "tensor 'a'.ne[1]", "element count overflows"},
            {"dim product past int64",
             [] { return with_tensor(0, tensor_info("a", {uint64_t(1) << 40, 1, uint64_t(1) << 23}, kF32, 0)); },
             "tensor 'a'.ne[2]", "element count overflows"},
            {"byte size overflow",
             [] { return with_tensor(0, tensor_info("a", {uint64_t(1) << 31, uint64_t(1) << 31}, kF32, 0)); },
             "tensor 'a'", "byte size overflows"},
            {"removed tensor type 4", [] { return with_tensor(0, tensor_info("a", {8, 2}, 4, 0)); },
             "tensor 'a'.type", "unknown tensor type id 4"},
            {"unknown tensor type 1000", [] { return with_tensor(0, tensor_info("a", {8, 2}, 1000, 0)); },
             "tensor 'a'.type", "unknown tensor type id 1000"},
            {"row not a block multiple", [] { return with_tensor(1, tensor_info("b", {31}, kQ4_0, 64)); },
             "tensor 'b'.ne[0]", "row length 31 is not a multiple of the block size 32 of Q4_0"},
            {"misaligned offset", [] { return with_tensor(1, tensor_info("b", {32}, kQ8_0, 68)); },
             "tensor 'b'.offset", "not a multiple of the alignment 32"},
            {"overlapping offsets", [] { return with_tensor(1, tensor_info("b", {32}, kQ8_0, 32)); },
             "tensor 'b'.offset", "overlaps tensor 'a'"},
            {"offsets out of order",
             [] {
                 return with([](RawGguf& r) {
                     r.tensors[0] = tensor_info("a", {8, 2}, kF32, 64);
                     r.tensors[1] = tensor_info("b", {32}, kQ8_0, 0);
                 });
             },
             "tensor 'b'.offset", "offsets must increase in file order"},
            {"offset beyond file", [] { return with_tensor(1, tensor_info("b", {32}, kQ8_0, 4096)); },
             "tensor 'b'.data", "extend past the end of the file"},
            {"offset near 2^64",
             [] { return with_tensor(1, tensor_info("b", {32}, kQ8_0, ~uint64_t(0) - 31)); },
             "tensor 'b'.data", "extend past the end"},
            {"duplicate tensor name", [] { return with_tensor(1, tensor_info("a", {32}, kQ8_0, 64)); },
             "tensor 'a'.name", "duplicate tensor name"},
            {"empty tensor name", [] { return with_tensor(1, tensor_info("", {32}, kQ8_0, 64)); },
             "tensor[1].name", "empty tensor name"},
            {"tensor name too long",
             [] { return with_tensor(0, tensor_info(std::string(300, 'x'), {8, 2}, kF32, 0)); },
             "tensor[0].name", "length 300 exceeds the limit of 256"},
            // ---- data section
            {"cut before the data", [=] { return cut(data - 3); }, "data", "truncated: the data section"},
            {"cut in the data of 'b'", [=] { return cut(data + 64 + 10); }, "tensor 'b'.data",
             "extend past the end"},
            {"cut in the data of 'a'", [=] { return cut(data + 20); }, "tensor 'a'.data",
             "extend past the end"},
        };
        return c;
    }();
    return all;
}

}  // namespace

class TestGgufReader : public QObject {
    Q_OBJECT

private slots:
    void base_file_is_valid() {
        const Bytes b = base().bytes();
        const gguf::File f = gguf::File::from_memory(b.data(), b.size(), "mem.gguf");
        QCOMPARE(f.version(), 3u);
        QCOMPARE(f.metadata().size(), size_t(4));
        QCOMPARE(f.tensors().size(), size_t(2));
        QCOMPARE(f.get_string("general.architecture"), std::string("llama"));
        QCOMPARE(f.get_uint("llama.block_count"), uint64_t(2));
        QCOMPARE(f.get_int_array("tok.ids"), (std::vector<int64_t>{1, 2, 3, 4}));
        const gguf::TensorInfo& a = f.tensor("a");
        QCOMPARE(a.shape_string(), std::string("[8, 2]"));
        QCOMPARE(a.n_bytes, uint64_t(64));
        QCOMPARE(a.data, b.data() + f.data_offset());
        const gguf::TensorInfo& tb = f.tensor("b");
        QCOMPARE(tb.type, gguf::TensorType::Q8_0);
        QCOMPARE(tb.n_bytes, uint64_t(34));
        QCOMPARE(tb.data, b.data() + f.data_offset() + 64);
        QCOMPARE(int(tb.data[0]), int(uint8_t(64 * 7)));
    }

    // The hand-built base is what the Writer writes for the same content.
    void writer_matches_hand_built_layout() {
        const RawGguf g = base();
        gguf::Writer w;
        w.set("general.architecture", gguf::Value::string("llama"));
        w.set("llama.block_count", gguf::Value(gguf::Value::Scalar(uint32_t(2))));
        w.set("tok.ids", gguf::Value::array(gguf::ValueType::UINT32, {uint32_t(1), uint32_t(2), uint32_t(3),
                                                                       uint32_t(4)}));
        w.set("general.name", gguf::Value::string("tiny"));
        w.add_tensor("a", gguf::TensorType::F32, {8, 2}, g.data.data(), 64);
        w.add_tensor("b", gguf::TensorType::Q8_0, {32}, g.data.data() + 64, 34);
        Bytes expected = g.bytes();
        std::fill(expected.end() - 30, expected.end(), 0);  // padding after 'b'
        QCOMPARE(w.to_bytes(), expected);
    }

    void corrupt_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        const auto& all = cases();
        for (size_t i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].name) << int(i) << QString(all[i].field) << QString(all[i].reason);
    }
    void corrupt() {
        QFETCH(int, index);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const Bytes b = cases()[size_t(index)].make();
        try {
            gguf::File::from_memory(b.data(), b.size(), "mem.gguf");
            QFAIL("the corrupt file was accepted");
        } catch (const FormatError& e) {
            QVERIFY2(e.file() == "mem.gguf", e.what());
            QVERIFY2(QString::fromStdString(e.field()).contains(field), e.what());
            QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
            QVERIFY2(QString(e.what()).startsWith("mem.gguf: "), e.what());
        }
    }

    void at_least_35_corrupt_variants() { QVERIFY(cases().size() >= 35); }

    // Every prefix of a valid file is rejected with a FormatError, never anything else.
    void every_truncation_rejected() {
        const Bytes full = base().bytes();
        for (size_t n = 0; n < full.size() - 30; ++n) {  // the last 30 bytes are padding after 'b'
            const Bytes b(full.begin(), full.begin() + n);
            try {
                gguf::File::from_memory(b.data(), b.size(), "cut.gguf");
                QFAIL(qPrintable(QString("accepted a file cut to %1 bytes").arg(n)));
            } catch (const FormatError&) {
            }
        }
    }

    // Random damage: each variant either opens or throws FormatError (checked under ASan too).
    void random_damage_never_crashes() {
        const Bytes full = base().bytes();
        std::mt19937 rng(1234);
        int rejected = 0;
        for (int iter = 0; iter < 3000; ++iter) {
            Bytes b = full;
            const int flips = 1 + int(rng() % 4);
            for (int k = 0; k < flips; ++k) {
                const size_t at = rng() % 259;  // header, metadata and tensor infos
                b[at] = (rng() % 3 == 0) ? 0xff : static_cast<uint8_t>(rng());
            }
            try {
                const gguf::File f = gguf::File::from_memory(b.data(), b.size(), "fuzz.gguf");
                for (const auto& t : f.tensors())
                    QVERIFY(t.data >= b.data() && t.data + t.n_bytes <= b.data() + b.size());
            } catch (const FormatError&) {
                ++rejected;
            }
        }
        QVERIFY(rejected > 0);
    }

    void file_without_tensors_may_end_after_metadata() {
        RawGguf g;
        g.kv = {kv_str("tokenizer.ggml.model", "gpt2")};
        const Bytes b = g.head();  // no padding, no data
        const gguf::File f = gguf::File::from_memory(b.data(), b.size(), "vocab.gguf");
        QCOMPARE(f.tensors().size(), size_t(0));
        QCOMPARE(f.get_string("tokenizer.ggml.model"), std::string("gpt2"));
    }

    void version_2_accepted() {
        const Bytes b = with([](RawGguf& r) { r.version = 2; });
        QCOMPARE(gguf::File::from_memory(b.data(), b.size(), "v2.gguf").version(), 2u);
    }

    void limits_are_configurable() {
        const Bytes b = base().bytes();
        gguf::Limits lim;
        lim.max_array_len = 3;
        QVERIFY_THROWS_EXCEPTION(FormatError, gguf::File::from_memory(b.data(), b.size(), "m", lim));
        lim = {};
        lim.max_name_len = 0;
        QVERIFY_THROWS_EXCEPTION(FormatError, gguf::File::from_memory(b.data(), b.size(), "m", lim));
    }

    // The memory all metadata takes is capped together, not only per array: the key that
    // crosses the cap is named, before its array is read.
    void metadata_memory_is_capped_in_total() {
        RawGguf g = base();
        const std::vector<uint32_t> ten(10, 7);
        g.kv = {kv_u32_array("a.one", ten), kv_u32_array("a.two", ten), kv_u32_array("a.three", ten)};
        const Bytes b = g.bytes();
        gguf::Limits lim;
        lim.max_metadata_bytes = 2 * (10 * sizeof(gguf::Value::Scalar) + sizeof(gguf::Value) + 5);
        QString message;
        try {
            gguf::File::from_memory(b.data(), b.size(), "m.gguf", lim);
        } catch (const FormatError& e) {
            message = QString::fromStdString(e.what());
        }
        QVERIFY2(message.startsWith("m.gguf: metadata[2] 'a.three'") &&
                     message.contains("more than " + QString::number(lim.max_metadata_bytes) + " bytes of memory"),
                 qPrintable(message));
        lim.max_metadata_bytes *= 2;
        QCOMPARE(gguf::File::from_memory(b.data(), b.size(), "m.gguf", lim).metadata().size(), size_t(3));
    }

    void open_missing_file_is_io_error() {
        QVERIFY_THROWS_EXCEPTION(IoError, gguf::File::open("/nonexistent/x.gguf"));
    }
};

QTEST_APPLESS_MAIN(TestGgufReader)
#include "test_gguf_reader.moc"
