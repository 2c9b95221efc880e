// Trace files: round trips (memory and disk), atomic saves, and a table of corrupted files
// (every count, length and offset) that must each fail with a FormatError naming the field.
#include "trace/trace_file.h"
#include "trace_fixture.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

using namespace lmscope;
using namespace lmscope::trace;
using nlohmann::json;

namespace {

using Bytes = std::vector<uint8_t>;

SessionTrace sample_trace() {
    CapturePolicy policy;
    policy.mode = CaptureMode::Summary;
    policy.full_pairs = {{0, 1}, {1, 0}};
    policy.logit_lens = true;
    policy.lens_top_k = 3;
    return testing::make_session(2, 2, 3, 2, policy);
}

uint64_t header_len(const Bytes& b) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | b[size_t(i)];
    return n;
}
json header_of(const Bytes& b) { return json::parse(b.begin() + 8, b.begin() + 8 + long(header_len(b))); }
Bytes data_of(const Bytes& b) { return Bytes(b.begin() + 8 + long(header_len(b)), b.end()); }

Bytes assemble(const json& header, const Bytes& data) {
    const std::string text = header.dump();
    Bytes out;
    out.reserve(8 + text.size() + data.size());
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(uint64_t(text.size()) >> (8 * i)));
    out.insert(out.end(), text.begin(), text.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

// Mutations of a valid file.
using Mutation = std::function<Bytes(const Bytes&)>;

Mutation on_header(std::function<void(json&)> edit) {
    return [edit](const Bytes& b) {
        json h = header_of(b);
        edit(h);
        return assemble(h, data_of(b));
    };
}
Mutation on_trace(std::function<void(json&)> edit) {
    return on_header([edit](json& h) {
        json t = json::parse(h["__metadata__"]["trace"].get<std::string>());
        edit(t);
        h["__metadata__"]["trace"] = t.dump();
    });
}
Mutation set_length(uint64_t n) {
    return [n](const Bytes& b) {
        Bytes out = b;
        for (int i = 0; i < 8; ++i) out[size_t(i)] = uint8_t(n >> (8 * i));
        return out;
    };
}
// Overwrites the int32 at `index` in tensor `name`'s data.
Mutation poke_i32(std::string name, size_t index, int32_t value) {
    return [name, index, value](const Bytes& b) {
        Bytes out = b;
        const uint64_t begin = header_of(b)[name]["data_offsets"][0].get<uint64_t>();
        std::memcpy(out.data() + 8 + header_len(b) + begin + 4 * index, &value, 4);
        return out;
    };
}

struct Corruption {
    const char* name;
    Mutation mutate;
    const char* field;  // must appear in the error's field
};

const std::vector<Corruption>& corruptions() {
    static const std::vector<Corruption> table = {
        // container: lengths and the JSON itself
        {"shorter than the length", [](const Bytes& b) { return Bytes(b.begin(), b.begin() + 5); }, "header length"},
        {"length over the cap", set_length(uint64_t(1) << 40), "header length"},
        {"length past the end", [](const Bytes& b) { return set_length(b.size())(b); }, "header length"},
        {"length cuts the JSON", [](const Bytes& b) { return set_length(header_len(b) - 9)(b); }, "header"},
        {"garbage JSON", [](const Bytes& b) { Bytes o = b; o[8] = '#'; return o; }, "header"},
        {"data truncated", [](const Bytes& b) { return Bytes(b.begin(), b.end() - 1); }, "data_offsets"},
        {"data with trailing bytes", [](const Bytes& b) { Bytes o = b; o.push_back(0); return o; }, "data_offsets"},
        {"header is an array", on_header([](json& h) { h = json::array({h}); }), "header"},
        {"no metadata", on_header([](json& h) { h.erase("__metadata__"); }), "__metadata__"},
        {"wrong format", on_header([](json& h) { h["__metadata__"]["format"] = "gguf"; }), "__metadata__.format"},
        {"future version", on_header([](json& h) { h["__metadata__"]["version"] = "2"; }), "__metadata__.version"},
        {"numeric version", on_header([](json& h) { h["__metadata__"]["version"] = 1; }), "__metadata__.version"},
        {"trace not JSON", on_header([](json& h) { h["__metadata__"]["trace"] = "{"; }), "__metadata__.trace"},
        {"no trace", on_header([](json& h) { h["__metadata__"].erase("trace"); }), "__metadata__.trace"},
        // tensor table: dtype, shape, offsets
        {"unknown dtype", on_header([](json& h) { h["step.0.attention"]["dtype"] = "F64"; }), "step.0.attention.dtype"},
        {"wrong dtype", on_header([](json& h) { h["step.0.entropy"]["dtype"] = "I32"; }), "step.0.entropy.dtype"},
        {"shape too long", on_header([](json& h) { h["step.0.attention"]["shape"][0] = h["step.0.attention"]["shape"][0].get<uint64_t>() + 1; }), "step.0.attention.data_offsets"},
        {"negative shape", on_header([](json& h) { h["step.0.attention"]["shape"][0] = -1; }), "step.0.attention.shape[0]"},
        {"huge shape", on_header([](json& h) { h["step.0.entropy"]["shape"] = {1ull << 40, 1ull << 40, 1}; }), "step.0.entropy.shape"},
        {"shape not an array", on_header([](json& h) { h["step.0.entropy"]["shape"] = 3; }), "step.0.entropy.shape"},
        {"offsets reversed", on_header([](json& h) { auto& o = h["step.0.planes"]["data_offsets"]; std::swap(o[0], o[1]); }), "step.0.planes.data_offsets"},
        {"offsets past data", on_header([](json& h) { auto& o = h["step.2.argmax_key"]["data_offsets"]; o[0] = o[0].get<uint64_t>() + 4; o[1] = o[1].get<uint64_t>() + 4; }), "step.2.argmax_key.data_offsets"},
        {"offsets overlap", on_header([](json& h) { h["step.0.max_weight"]["data_offsets"] = h["step.0.entropy"]["data_offsets"]; }), "data_offsets"},
        {"offsets one pair short", on_header([](json& h) { h["step.0.planes"]["data_offsets"] = {0}; }), "step.0.planes.data_offsets"},
        {"tensor renamed", on_header([](json& h) { h["step.7.attention"] = h["step.0.attention"]; h.erase("step.0.attention"); }), "step.0.attention"},
        {"extra empty tensor", on_header([](json& h) { const uint64_t end = h["step.0.planes"]["data_offsets"][0]; h["step.0.extra"] = {{"dtype", "F32"}, {"shape", {0}}, {"data_offsets", {end, end}}}; }), "step.0.extra"},
        // array contents against the step
        {"plane layer out of range", poke_i32("step.0.planes", 0, 2), "step.0.planes[0]"},
        {"plane head negative", poke_i32("step.0.planes", 1, -1), "step.0.planes[0]"},
        {"plane rows beyond the step", poke_i32("step.0.planes", 3, 4), "step.0.planes[0]"},
        {"plane rows zero", poke_i32("step.0.planes", 7, 0), "step.0.planes[1]"},
        {"plane repeated", [](const Bytes& b) { return poke_i32("step.0.planes", 5, 1)(poke_i32("step.0.planes", 4, 0)(b)); }, "step.0.planes[1]"},
        {"plane start moved", poke_i32("step.1.planes", 2, 9), "step.1.attention.shape"},
        {"argmax key not visible", poke_i32("step.0.argmax_key", 0, 1), "step.0.argmax_key[0]"},
        // step JSON: counts and ranges
        {"step index", on_trace([](json& t) { t["steps"][1]["index"] = 2; }), "steps[1].index"},
        {"parent ahead", on_trace([](json& t) { t["steps"][1]["parent"] = 1; }), "steps[1].parent"},
        {"no tokens", on_trace([](json& t) { t["steps"][0]["tokens"] = json::array(); }), "steps[0].tokens"},
        {"negative token", on_trace([](json& t) { t["steps"][0]["tokens"][1] = -4; }), "steps[0].tokens[1]"},
        {"token is text", on_trace([](json& t) { t["steps"][0]["tokens"][0] = "a"; }), "steps[0].tokens[0]"},
        {"unknown phase", on_trace([](json& t) { t["steps"][0]["phase"] = "middle"; }), "steps[0].phase"},
        {"reused past first pos", on_trace([](json& t) { t["steps"][0]["reused_tokens"] = 1; }), "steps[0].reused_tokens"},
        {"layer times count", on_trace([](json& t) { t["steps"][0]["layer_ms"].push_back(1.0); }), "steps[0].layer_ms"},
        {"rows beyond tokens", on_trace([](json& t) { t["steps"][1]["attention"]["n_rows"] = 2; }), "steps[1].attention.n_rows"},
        {"plane count up", on_trace([](json& t) { t["steps"][0]["attention"]["planes"] = 3; }), "step.0.planes.shape"},
        {"plane count zero", on_trace([](json& t) { t["steps"][0]["attention"]["planes"] = 0; }), "step.0.planes"},
        {"layer count down", on_trace([](json& t) { t["steps"][0]["attention"]["n_layer"] = 1; }), "steps[0]"},
        {"head count up", on_trace([](json& t) { t["steps"][2]["attention"]["n_head"] = 3; }), "step.2.entropy.shape"},
        {"summaries denied", on_trace([](json& t) { t["steps"][0]["attention"]["summaries"] = false; }), "step.0.entropy"},
        {"dropped with planes", on_trace([](json& t) { t["steps"][0]["attention"]["planes_dropped"] = true; }), "steps[0].attention.planes"},
        {"kv total", on_trace([](json& t) { t["steps"][0]["kv"]["bytes_total"] = 1; }), "steps[0].kv.bytes_total"},
        {"kv layer negative", on_trace([](json& t) { t["steps"][0]["kv"]["bytes_per_layer"][0] = -1; }), "steps[0].kv.bytes_per_layer[0]"},
        {"kv dtype", on_trace([](json& t) { t["steps"][0]["kv"]["dtype"] = "q5_1"; }), "steps[0].kv.dtype"},
        {"candidate pair", on_trace([](json& t) { t["steps"][0]["logits"]["stages"][0]["top"][0] = {1, 2}; }), "steps[0].logits.stages[0].top[0]"},
        {"candidates over survivors", on_trace([](json& t) { t["steps"][0]["logits"]["stages"][1]["survivors"] = 1; }), "steps[0].logits.stages[1].top"},
        {"unknown filter", on_trace([](json& t) { t["steps"][0]["logits"]["stages"][1]["filter"] = "top_q"; }), "steps[0].logits.stages[1].filter"},
        {"entropy as text", on_trace([](json& t) { t["steps"][0]["logits"]["entropy"] = "high"; }), "steps[0].logits.entropy"},
        {"lens count", on_trace([](json& t) { t["steps"][0]["lens"].erase(0); }), "steps[0].lens"},
        {"lens k", on_trace([](json& t) { t["steps"][0]["lens_k"] = 5000; }), "steps[0].lens_k"},
        {"dropped count", on_trace([](json& t) { t["budget"]["dropped_steps"] = 1; }), "trace.budget.dropped_steps"},
        {"no model", on_trace([](json& t) { t.erase("model"); }), "trace.model"},
        {"piece not a pair", on_trace([](json& t) { t["pieces"][0] = "x"; }), "trace.pieces[0]"},
        {"piece repeated", on_trace([](json& t) { t["pieces"].push_back(t["pieces"][0]); }), "trace.pieces[4]"},
        {"piece byte too big", on_trace([](json& t) { t["pieces"][3][1][0] = 256; }), "trace.pieces[3][1][0]"},
        {"piece is a number", on_trace([](json& t) { t["pieces"][3][1] = 5; }), "trace.pieces[3][1]"},
        {"steps not a list", on_trace([](json& t) { t["steps"] = 3; }), "trace.steps"},
        {"step not an object", on_trace([](json& t) { t["steps"][1] = 3; }), "steps[1]"},
    };
    return table;
}

}  // namespace

class TestTraceFile : public QObject {
    Q_OBJECT
private slots:
    void round_trip_in_memory();
    void round_trip_on_disk();
    void round_trip_after_budget_drops();
    void readable_as_plain_safetensors();
    void corrupted_data();
    void corrupted();
    void every_truncation_rejected();
    void random_byte_flips_fail_cleanly();
    void failed_save_leaves_earlier_file();
    void missing_file_is_io_error();
};

void TestTraceFile::round_trip_in_memory() {
    const SessionTrace t = sample_trace();
    const Bytes bytes = serialize_trace(t);
    const SessionTrace back = parse_trace(bytes.data(), bytes.size(), "mem");
    QVERIFY(back == t);
    QCOMPARE(serialize_trace(back), bytes);  // stable encoding
}

void TestTraceFile::round_trip_on_disk() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("a.trace").toStdString();
    const SessionTrace t = sample_trace();
    save_trace(t, path);
    QVERIFY(load_trace(path) == t);
    QCOMPARE(std::filesystem::file_size(path), serialize_trace(t).size());
}

void TestTraceFile::round_trip_after_budget_drops() {
    SessionTrace t = sample_trace();
    t.set_budget(t.held_bytes() - 1);
    QVERIFY(t.dropped_steps() >= 1);
    const Bytes bytes = serialize_trace(t);
    const SessionTrace back = parse_trace(bytes.data(), bytes.size(), "mem");
    QCOMPARE(back.dropped_steps(), t.dropped_steps());
    QCOMPARE(back.steps(), t.steps());
}

void TestTraceFile::readable_as_plain_safetensors() {
    const Bytes b = serialize_trace(sample_trace());
    QCOMPARE(header_len(b) % 8, uint64_t(0));
    const json h = header_of(b);
    QCOMPARE(h["__metadata__"]["format"].get<std::string>(), std::string("lmscope-trace"));
    for (auto it = h["__metadata__"].begin(); it != h["__metadata__"].end(); ++it) QVERIFY(it->is_string());
    // The prefill's plane (0, 1): 6 packed half weights, rows summing to one.
    const json& e = h["step.0.attention"];
    QCOMPARE(e["dtype"].get<std::string>(), std::string("F16"));
    QCOMPARE(e["shape"], json::array({12}));
    const SessionTrace t = sample_trace();
    const std::vector<float> m = t.step(0).attention.matrix(0);
    for (int r = 0; r < 3; ++r) {
        float sum = 0;
        for (int k = 0; k < 3; ++k) sum += m[size_t(r * 3 + k)];
        QVERIFY(std::abs(sum - 1.0f) < 2e-3f);
    }
}

void TestTraceFile::corrupted_data() {
    QTest::addColumn<int>("index");
    const auto& table = corruptions();
    for (size_t i = 0; i < table.size(); ++i) QTest::newRow(table[i].name) << int(i);
}

void TestTraceFile::corrupted() {
    QFETCH(int, index);
    const Corruption& c = corruptions()[size_t(index)];
    const Bytes bad = c.mutate(serialize_trace(sample_trace()));
    try {
        parse_trace(bad.data(), bad.size(), "bad.trace");
        QFAIL("the corrupted trace was accepted");
    } catch (const FormatError& e) {
        QCOMPARE(QString::fromStdString(e.file()), QStringLiteral("bad.trace"));
        QVERIFY2(e.field().find(c.field) != std::string::npos,
                 qPrintable(QString("field '%1' does not name '%2' (%3)").arg(e.field().c_str(), c.field, e.what())));
        QVERIFY(!e.reason().empty());
    }
}

void TestTraceFile::every_truncation_rejected() {
    const Bytes b = serialize_trace(sample_trace());
    for (size_t n = 0; n < b.size(); ++n)
        QVERIFY_THROWS_EXCEPTION(FormatError, parse_trace(b.data(), n, "cut.trace"));
}

void TestTraceFile::random_byte_flips_fail_cleanly() {
    // Any damage either still describes a valid trace (e.g. a changed weight) or is a
    // FormatError; nothing else may escape (no crash, no other exception type).
    const Bytes good = serialize_trace(sample_trace());
    const size_t header_end = 8 + size_t(header_len(good));
    std::mt19937 rng(2024);
    int rejected = 0;
    for (int i = 0; i < 3000; ++i) {
        Bytes b = good;
        const int flips = 1 + int(rng() % 3);
        for (int f = 0; f < flips; ++f) {
            // mostly the header, where the structure is
            const size_t at = (rng() % 4 != 0) ? rng() % header_end : rng() % b.size();
            b[at] = uint8_t(rng());
        }
        try {
            parse_trace(b.data(), b.size(), "flip.trace");
        } catch (const FormatError&) {
            ++rejected;
        }
    }
    QVERIFY(rejected > 1500);
}

void TestTraceFile::failed_save_leaves_earlier_file() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("keep.trace").toStdString();
    const SessionTrace first = sample_trace();
    save_trace(first, path);
    // The target's folder is gone: nothing can be written, the earlier file is untouched.
    SessionTrace second = sample_trace();
    second.model.file = "other.gguf";
    QVERIFY_THROWS_EXCEPTION(IoError, save_trace(second, dir.filePath("no/such/dir/x.trace").toStdString()));
    // The rename onto a folder fails after the temporary file was written: it is removed.
    std::filesystem::create_directory(dir.filePath("taken.trace").toStdString());
    QVERIFY_THROWS_EXCEPTION(IoError, save_trace(second, dir.filePath("taken.trace").toStdString()));
    QVERIFY(std::filesystem::is_directory(dir.filePath("taken.trace").toStdString()));
    QVERIFY(load_trace(path) == first);
    int entries = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path().toStdString())) ++entries;
    QCOMPARE(entries, 2);  // keep.trace and the folder; no temporary files left behind
    save_trace(second, path);  // a successful save replaces it whole
    QVERIFY(load_trace(path) == second);
}

void TestTraceFile::missing_file_is_io_error() {
    QVERIFY_THROWS_EXCEPTION(IoError, load_trace("/nonexistent/lmscope/x.trace"));
}

QTEST_APPLESS_MAIN(TestTraceFile)
#include "test_trace_file.moc"
