// The GGUF writer: tensors of every type and metadata of every type read back identical,
// the alignment is honoured, and write() is atomic.
#include "common/testing.h"

#include "gguf/gguf.h"
#include "util/error.h"

#include <QTemporaryDir>

#include <cstring>
#include <filesystem>
#include <random>

using namespace lmscope;
using gguf::Value;
using gguf::ValueType;

namespace {

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> b(n);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    return b;
}

gguf::File read_back(const std::vector<uint8_t>& bytes) {
    return gguf::File::from_memory(bytes.data(), bytes.size(), "written.gguf");
}

std::vector<std::string> files_in(const QString& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir.toStdString()))
        out.push_back(e.path().filename().string());
    return out;
}

}  // namespace

class TestGgufWriter : public QObject {
    Q_OBJECT

private slots:
    // Every type id the format knows: a 3-row tensor of random bytes comes back byte for byte.
    void every_tensor_type_round_trips_data() {
        QTest::addColumn<int>("type_id");
        for (uint32_t id = 0; id < 64; ++id)
            if (const auto t = gguf::type_traits(id)) QTest::newRow(std::string(t->name).c_str()) << int(id);
    }
    void every_tensor_type_round_trips() {
        QFETCH(int, type_id);
        const auto type = static_cast<gguf::TensorType>(type_id);
        const gguf::TypeTraits tr = *gguf::type_traits(uint32_t(type_id));
        const int64_t row = 2 * tr.block_size;
        const std::vector<uint8_t> data = random_bytes(gguf::row_bytes(type, row) * 3, uint32_t(type_id));
        const std::vector<uint8_t> small = random_bytes(4 * 5, 99);
        gguf::Writer w;
        w.add_tensor("first", gguf::TensorType::F32, {5}, small.data(), small.size());
        w.add_tensor("t", type, {row, 3}, data.data(), data.size());
        const std::vector<uint8_t> bytes = w.to_bytes();
        const gguf::File f = read_back(bytes);
        const gguf::TensorInfo& t = f.tensor("t");
        QCOMPARE(t.type, type);
        QCOMPARE(t.n_dims, 2u);
        QCOMPARE(t.ne[0], row);
        QCOMPARE(t.ne[1], int64_t(3));
        QCOMPARE(t.n_bytes, uint64_t(data.size()));
        QVERIFY(std::equal(data.begin(), data.end(), t.data));
        QVERIFY(std::equal(small.begin(), small.end(), f.tensor("first").data));
    }

    void metadata_of_every_type_round_trips() {
        gguf::Writer w;
        w.set("u8", Value(Value::Scalar(uint8_t(250))));
        w.set("i8", Value(Value::Scalar(int8_t(-100))));
        w.set("u16", Value(Value::Scalar(uint16_t(65000))));
        w.set("i16", Value(Value::Scalar(int16_t(-30000))));
        w.set("u32", Value(Value::Scalar(uint32_t(4000000000u))));
        w.set("i32", Value(Value::Scalar(int32_t(-2000000000))));
        w.set("f32", Value(Value::Scalar(1.5f)));
        w.set("bool", Value(Value::Scalar(true)));
        w.set("str", Value::string("héllo\nworld"));
        w.set("u64", Value(Value::Scalar(uint64_t(1) << 63)));
        w.set("i64", Value(Value::Scalar(int64_t(-1) << 62)));
        w.set("f64", Value(Value::Scalar(-2.25)));
        w.set("empty_str", Value::string(""));
        w.set("arr_str", Value::array(ValueType::STRING, {std::string("a"), std::string(""), std::string("ccc")}));
        w.set("arr_f32", Value::array(ValueType::FLOAT32, {0.5f, -1.0f}));
        w.set("arr_i32", Value::array(ValueType::INT32, {int32_t(-7), int32_t(9)}));
        w.set("arr_u8", Value::array(ValueType::UINT8, {uint8_t(1), uint8_t(255)}));
        w.set("arr_bool", Value::array(ValueType::BOOL, {false, true}));
        w.set("arr_f64", Value::array(ValueType::FLOAT64, {1e300}));
        w.set("arr_i64", Value::array(ValueType::INT64, {int64_t(-5)}));
        w.set("arr_empty", Value::array(ValueType::UINT32, {}));
        w.set("u8", Value(Value::Scalar(uint8_t(251))));  // replaces, keeps the position
        const std::vector<uint8_t> bytes = w.to_bytes();
        const gguf::File f = read_back(bytes);

        QCOMPARE(f.metadata().size(), size_t(21));
        QCOMPARE(f.metadata()[0].first, std::string("u8"));
        QCOMPARE(f.get_uint("u8"), uint64_t(251));
        QCOMPARE(f.get_int("i8"), int64_t(-100));
        QCOMPARE(f.get_uint("u16"), uint64_t(65000));
        QCOMPARE(f.get_int("i16"), int64_t(-30000));
        QCOMPARE(f.get_uint("u32"), uint64_t(4000000000u));
        QCOMPARE(f.get_int("i32"), int64_t(-2000000000));
        QCOMPARE(f.get_float("f32"), 1.5);
        QCOMPARE(f.get_bool("bool"), true);
        QCOMPARE(f.get_string("str"), std::string("héllo\nworld"));
        QCOMPARE(f.get_uint("u64"), uint64_t(1) << 63);
        QCOMPARE(f.get_int("i64"), int64_t(-1) << 62);
        QCOMPARE(f.get_float("f64"), -2.25);
        QCOMPARE(f.get_string("empty_str"), std::string());
        QCOMPARE(f.get_string_array("arr_str"), (std::vector<std::string>{"a", "", "ccc"}));
        QCOMPARE(f.get_float_array("arr_f32"), (std::vector<float>{0.5f, -1.0f}));
        QCOMPARE(f.get_int_array("arr_i32"), (std::vector<int64_t>{-7, 9}));
        QCOMPARE(f.get_int_array("arr_u8"), (std::vector<int64_t>{1, 255}));
        QCOMPARE(f.find("arr_bool")->as_array().items.size(), size_t(2));
        QCOMPARE(std::get<bool>(f.find("arr_bool")->as_array().items[1]), true);
        QCOMPARE(f.get_float_array("arr_f64"), (std::vector<float>{float(1e300)}));
        QCOMPARE(f.get_int_array("arr_i64"), (std::vector<int64_t>{-5}));
        QCOMPARE(f.array_size("arr_empty"), size_t(0));
        QCOMPARE(f.find("arr_empty")->as_array().elem_type, ValueType::UINT32);
        // Every value has the type it was written with.
        const ValueType expected[] = {ValueType::UINT8, ValueType::INT8, ValueType::UINT16, ValueType::INT16,
                                      ValueType::UINT32, ValueType::INT32, ValueType::FLOAT32, ValueType::BOOL,
                                      ValueType::STRING, ValueType::UINT64, ValueType::INT64, ValueType::FLOAT64};
        for (size_t i = 0; i < std::size(expected); ++i)
            QCOMPARE(f.metadata()[i].second.type(), expected[i]);
        QCOMPARE(f.find("arr_str")->type(), ValueType::ARRAY);
    }

    void typed_getter_errors_data() {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("message");
        QTest::newRow("uint of string") << "get_uint str" << "written.gguf: str: is string, expected an integer";
        QTest::newRow("uint of negative") << "get_uint neg" << "neg: value -3 is negative, expected an unsigned";
        QTest::newRow("int of float") << "get_int f32" << "f32: is float32, expected an integer";
        QTest::newRow("int of huge u64") << "get_int big" << "big: value 18446744073709551615 does not fit in int64";
        QTest::newRow("float of string") << "get_float str" << "str: is string, expected a number";
        QTest::newRow("float of array") << "get_float arr" << "arr: is array of int32, expected a number";
        QTest::newRow("bool of u8") << "get_bool u8" << "u8: is uint8, expected bool";
        QTest::newRow("string of u32") << "get_string u32" << "u32: is uint32, expected string";
        QTest::newRow("string of array") << "get_string arr" << "arr: is array of int32, expected string";
        QTest::newRow("missing") << "get_string nope" << "written.gguf: nope: missing";
        QTest::newRow("missing uint") << "get_uint nope" << "nope: missing";
        QTest::newRow("string array of ints") << "get_string_array arr"
                                              << "arr: is array of int32, expected array of string";
        QTest::newRow("float array of ints") << "get_float_array arr"
                                             << "arr: is array of int32, expected array of float32";
        QTest::newRow("int array of strings") << "get_int_array sarr"
                                              << "sarr: is array of string, expected array of integers";
        QTest::newRow("int array of scalar") << "get_int_array u32" << "u32: is uint32, expected array of integers";
        QTest::newRow("array_size of scalar") << "array_size str" << "str: is string, expected an array";
        QTest::newRow("opt of wrong type") << "opt_uint str" << "str: is string, expected an integer";
        QTest::newRow("missing tensor") << "tensor nope" << "tensor 'nope': missing tensor";
    }
    void typed_getter_errors() {
        QFETCH(QString, call);
        QFETCH(QString, message);
        gguf::Writer w;
        w.set("str", Value::string("x"));
        w.set("neg", Value(Value::Scalar(int32_t(-3))));
        w.set("f32", Value(Value::Scalar(0.25f)));
        w.set("big", Value(Value::Scalar(~uint64_t(0))));
        w.set("arr", Value::array(ValueType::INT32, {int32_t(1)}));
        w.set("sarr", Value::array(ValueType::STRING, {std::string("s")}));
        w.set("u8", Value(Value::Scalar(uint8_t(1))));
        w.set("u32", Value(Value::Scalar(uint32_t(7))));
        const std::vector<uint8_t> bytes = w.to_bytes();
        const gguf::File f = read_back(bytes);
        const QStringList parts = call.split(' ');
        const std::string key = parts[1].toStdString();
        const QString fn = parts[0];
        try {
            if (fn == "get_uint") f.get_uint(key);
            else if (fn == "get_int") f.get_int(key);
            else if (fn == "get_float") f.get_float(key);
            else if (fn == "get_bool") f.get_bool(key);
            else if (fn == "get_string") f.get_string(key);
            else if (fn == "get_string_array") f.get_string_array(key);
            else if (fn == "get_float_array") f.get_float_array(key);
            else if (fn == "get_int_array") f.get_int_array(key);
            else if (fn == "array_size") f.array_size(key);
            else if (fn == "opt_uint") f.opt_uint(key);
            else if (fn == "tensor") f.tensor(key);
            else QFAIL("unknown call in the table");
            QFAIL("no error thrown");
        } catch (const FormatError& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
        QVERIFY(!f.opt_string("nope").has_value());
        QCOMPARE(f.opt_uint("u8"), std::optional<uint64_t>(1));
    }

    void alignment_data() {
        QTest::addColumn<int>("alignment");
        QTest::newRow("32") << 32;
        QTest::newRow("64") << 64;
        QTest::newRow("1") << 1;
        QTest::newRow("4096") << 4096;
    }
    void alignment() {
        QFETCH(int, alignment);
        gguf::Writer w;
        w.set_alignment(uint32_t(alignment));
        w.set("general.name", Value::string("aligned"));
        std::vector<float> a(7 * 3, 1.0f), b(5, 2.0f);
        w.add_tensor("a", gguf::TensorType::F32, {7, 3}, a.data(), a.size() * 4);
        w.add_tensor("b", gguf::TensorType::F32, {5}, b.data(), b.size() * 4);
        const std::vector<uint8_t> bytes = w.to_bytes();
        const gguf::File f = read_back(bytes);
        QCOMPARE(f.alignment(), uint64_t(alignment));
        QCOMPARE(f.get_uint("general.alignment"), uint64_t(alignment));
        QCOMPARE(f.find("general.alignment")->type(), ValueType::UINT32);
        QCOMPARE(f.data_offset() % uint64_t(alignment), uint64_t(0));
        QCOMPARE(f.tensor("b").offset % uint64_t(alignment), uint64_t(0));
        QVERIFY(f.tensor("b").offset >= 84);
        QCOMPARE(f.version(), 3u);
        std::vector<float> back(a.size());  // alignment 1: the data may not be 4-byte aligned
        std::memcpy(back.data(), f.tensor("a").data, back.size() * 4);
        QCOMPARE(back, a);
        QCOMPARE(uint64_t(f.tensor("b").data - f.bytes()) % uint64_t(alignment), uint64_t(0));
    }

    void bad_input_rejected() {
        gguf::Writer w;
        const float x[32] = {};
        QVERIFY_THROWS_EXCEPTION(UsageError, w.set_alignment(0));
        QVERIFY_THROWS_EXCEPTION(UsageError, w.set_alignment(48));
        QVERIFY_THROWS_EXCEPTION(UsageError, w.add_tensor("", gguf::TensorType::F32, {1}, x, 4));
        QVERIFY_THROWS_EXCEPTION(UsageError, w.add_tensor("a", gguf::TensorType::F32, {2}, x, 4));
        QVERIFY_THROWS_EXCEPTION(UsageError, w.add_tensor("a", gguf::TensorType::Q8_0, {16}, x, 17));
        QVERIFY_THROWS_EXCEPTION(UsageError, w.add_tensor("a", gguf::TensorType::F32, {1, 1, 1, 1, 1}, x, 4));
        QVERIFY_THROWS_EXCEPTION(UsageError, w.add_tensor("a", gguf::TensorType::F32, {-1}, x, 0));
        QVERIFY_THROWS_EXCEPTION(UsageError, w.add_tensor("a", static_cast<gguf::TensorType>(4), {1}, x, 0));
        w.add_tensor("a", gguf::TensorType::F32, {1}, x, 4);
        QVERIFY_THROWS_EXCEPTION(UsageError, w.add_tensor("a", gguf::TensorType::F32, {1}, x, 4));
        w.set("mixed", Value::array(ValueType::UINT32, {uint32_t(1), std::string("no")}));
        QVERIFY_THROWS_EXCEPTION(UsageError, w.to_bytes());
    }

    void write_is_atomic() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = (dir.path() + "/model.gguf").toStdString();
        gguf::Writer w1;
        w1.set("general.name", Value::string("first"));
        w1.write(path);
        QCOMPARE(files_in(dir.path()), std::vector<std::string>{"model.gguf"});
        QCOMPARE(gguf::File::open(path).get_string("general.name"), std::string("first"));

        // A writer that fails (bad content) leaves the earlier file as it was and no temp file.
        gguf::Writer bad;
        bad.set("general.name", Value::string("second"));
        bad.set("mixed", Value::array(ValueType::UINT8, {std::string("x")}));
        QVERIFY_THROWS_EXCEPTION(UsageError, bad.write(path));
        QCOMPARE(files_in(dir.path()), std::vector<std::string>{"model.gguf"});
        QCOMPARE(gguf::File::open(path).get_string("general.name"), std::string("first"));

        // A failed rename (the target is a folder) cleans its temp file up.
        const std::string folder = (dir.path() + "/folder").toStdString();
        std::filesystem::create_directory(folder);
        std::filesystem::create_directory(folder + "/inside");
        QVERIFY_THROWS_EXCEPTION(IoError, w1.write(folder));
        QCOMPARE(files_in(dir.path()).size(), size_t(2));
        QVERIFY(std::filesystem::is_directory(folder + "/inside"));

        // Writing into a folder that does not exist.
        QVERIFY_THROWS_EXCEPTION(IoError, w1.write((dir.path() + "/missing/model.gguf").toStdString()));

        // A successful second write replaces the content.
        gguf::Writer w2;
        w2.set("general.name", Value::string("second"));
        w2.write(path);
        QCOMPARE(gguf::File::open(path).get_string("general.name"), std::string("second"));
        QCOMPARE(files_in(dir.path()).size(), size_t(2));
    }
};

QTEST_APPLESS_MAIN(TestGgufWriter)
#include "test_gguf_writer.moc"
