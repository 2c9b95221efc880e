// Step traces: half storage, causal packing, summaries, SHA-256, and the memory budget.
#include "trace/half.h"
#include "trace/session_trace.h"
#include "trace/sha256.h"
#include "trace_fixture.h"
#include "util/error.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>

using namespace lmscope;
using namespace lmscope::trace;

namespace {

// Whether any mapping in /proc/self/maps holds the address `p`.
bool is_mapped(const void* p) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        const size_t dash = line.find('-');
        const uintptr_t start = std::stoull(line.substr(0, dash), nullptr, 16);
        const uintptr_t end = std::stoull(line.substr(dash + 1), nullptr, 16);
        if (a >= start && a < end) return true;
    }
    return false;
}

}  // namespace

class TestTraceStep : public QObject {
    Q_OBJECT
private slots:
    void half_round_trip_data();
    void half_round_trip();
    void sha256_vectors_data();
    void sha256_vectors();
    void sha256_streaming_matches_whole();
    void capture_packs_lower_triangle();
    void capture_with_bad_counts_rejected();
    void held_bytes_is_exact();
    void large_plane_buffers_are_own_mappings();
    void budget_drops_oldest_planes_first();
    void budget_keeps_summaries_and_flags();
    void branches_follow_parents();
};

void TestTraceStep::half_round_trip_data() {
    QTest::addColumn<float>("in");
    QTest::addColumn<float>("out");
    QTest::newRow("zero") << 0.0f << 0.0f;
    QTest::newRow("one") << 1.0f << 1.0f;
    QTest::newRow("half") << 0.5f << 0.5f;
    QTest::newRow("max") << 65504.0f << 65504.0f;
    QTest::newRow("overflow") << 65520.0f << std::numeric_limits<float>::infinity();
    QTest::newRow("tie to even down") << 1.0f + 0x1p-11f << 1.0f;
    QTest::newRow("tie to even up") << 1.0f + 3 * 0x1p-11f << 1.0f + 0x1p-9f;
    QTest::newRow("third") << 1.0f / 3.0f << 0.333251953125f;
    QTest::newRow("smallest normal") << 0x1p-14f << 0x1p-14f;
    QTest::newRow("subnormal") << 3 * 0x1p-24f << 3 * 0x1p-24f;
    QTest::newRow("subnormal tie even") << 2.5f * 0x1p-24f << 2 * 0x1p-24f;
    QTest::newRow("underflow") << 0x1p-26f << 0.0f;
    QTest::newRow("negative") << -2.75f << -2.75f;
}

void TestTraceStep::half_round_trip() {
    QFETCH(float, in);
    QFETCH(float, out);
    QCOMPARE(half_to_float(float_to_half(in)), out);
}

void TestTraceStep::sha256_vectors_data() {
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("digest");
    QTest::newRow("empty") << QByteArray() << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << QByteArray("abc") << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    QTest::newRow("two blocks")
        << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
}

void TestTraceStep::sha256_vectors() {
    QFETCH(QByteArray, input);
    QFETCH(QString, digest);
    const std::string hex = sha256_hex(reinterpret_cast<const uint8_t*>(input.constData()), size_t(input.size()));
    QCOMPARE(QString::fromStdString(hex), digest);
}

void TestTraceStep::sha256_streaming_matches_whole() {
    std::string data;
    for (int i = 0; i < 1000; ++i) data += char('a' + i % 26);
    const auto* p = reinterpret_cast<const uint8_t*>(data.data());
    Sha256 s;
    size_t at = 0;
    for (size_t piece : {1u, 63u, 64u, 65u, 200u, 7u}) {
        s.update(p + at, piece);
        at += piece;
    }
    s.update(p + at, data.size() - at);
    std::string hex;
    for (uint8_t b : s.finish()) hex += QString::asprintf("%02x", b).toStdString();
    QCOMPARE(hex, sha256_hex(p, data.size()));
}

void TestTraceStep::capture_packs_lower_triangle() {
    CapturePolicy policy;
    policy.full_pairs = {{1, 2}, {0, 0}};
    const StepCapture c = testing::make_capture(2, 3, 4, 5, policy, 11);
    const AttentionTrace a = attention_from_capture(c);
    QCOMPARE(a.planes.size(), size_t(2));
    QCOMPARE(a.weights.size(), size_t(2 * packed_plane_count(4, 5)));
    QCOMPARE(a.summaries, c.summaries);
    for (size_t i = 0; i < a.planes.size(); ++i) {
        QCOMPARE(a.planes[i].at, c.planes[i].at);
        const std::vector<float> m = a.matrix(i);
        QCOMPARE(m.size(), c.planes[i].weights.size());
        for (size_t r = 0; r < 5; ++r)
            for (size_t k = 0; k < 9; ++k) {
                const float want = c.planes[i].weights[r * 9 + k];
                const float got = m[r * 9 + k];
                if (k > 4 + r) QCOMPARE(got, 0.0f);  // masked
                QVERIFY2(std::abs(got - want) <= 2.5e-4f + 1e-3f * want,
                         qPrintable(QString("row %1 key %2: %3 vs %4").arg(r).arg(k).arg(got).arg(want)));
            }
    }
    QVERIFY(a.find(1, 2) != nullptr);
    QVERIFY(a.find(1, 1) == nullptr);
    QCOMPARE(a.summary(1, 2, 3), c.summary(1, 2, 3));
}

void TestTraceStep::capture_with_bad_counts_rejected() {
    CapturePolicy policy;
    policy.mode = CaptureMode::Full;
    StepCapture c = testing::make_capture(2, 2, 0, 3, policy, 5);
    StepCapture bad = c;
    bad.summaries.pop_back();
    QVERIFY_THROWS_EXCEPTION(Error, attention_from_capture(bad));
    bad = c;
    bad.planes[1].at.head = 2;
    QVERIFY_THROWS_EXCEPTION(Error, attention_from_capture(bad));
    bad = c;
    bad.planes[0].weights.pop_back();
    QVERIFY_THROWS_EXCEPTION(Error, attention_from_capture(bad));
    bad = c;
    bad.planes[0].n_keys = 4;
    QVERIFY_THROWS_EXCEPTION(Error, attention_from_capture(bad));
}

void TestTraceStep::held_bytes_is_exact() {
    CapturePolicy policy;
    policy.mode = CaptureMode::Full;
    policy.logit_lens = true;
    StepTrace s = testing::make_step(3, 2, 0, 4, policy, 3);
    uint64_t want = sizeof(StepTrace);
    want += s.tokens.capacity() * 4 + s.layer_ms.capacity() * 8 + s.lens.capacity() * sizeof(LensEntry);
    want += s.attention.planes.capacity() * sizeof(PlaneRef) + s.attention.weights.capacity() * 2 +
            s.attention.summaries.capacity() * sizeof(HeadSummary);
    want += s.kv.bytes_per_layer.capacity() * 8 + s.logits.stages.capacity() * sizeof(FilterStage);
    for (const FilterStage& st : s.logits.stages) want += st.top.capacity() * sizeof(Candidate);
    QCOMPARE(s.held_bytes(), want);
    // 6 planes of 10 packed weights, 2 bytes each.
    QCOMPARE(s.attention.weights.size(), size_t(60));
    const uint64_t before = s.held_bytes();
    s.drop_planes();
    QCOMPARE(before - s.held_bytes(), uint64_t(60 * 2 + 6 * sizeof(PlaneRef)));
}

void TestTraceStep::large_plane_buffers_are_own_mappings() {
    // A decode step's planes on SmolLM2 at 2000 positions: about 1 MiB. Its own mapping (page
    // aligned, where a malloc chunk starts after its header), and unmapped when dropped, so the
    // memory goes back instead of leaving a hole in malloc's heap.
    const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    for (int round = 0; round < 3; ++round) {  // malloc serves repeats from its heap
        HalfBuffer big(size_t(1) << 19);
        const void* at = big.data();
        QVERIFY(reinterpret_cast<uintptr_t>(at) % page == 0);
        QVERIFY(is_mapped(at));
        HalfBuffer().swap(big);
        QVERIFY(!is_mapped(at));
    }
}

void TestTraceStep::budget_drops_oldest_planes_first() {
    CapturePolicy policy;
    policy.mode = CaptureMode::Full;
    StepTrace one = testing::make_step(2, 2, 0, 64, policy, 1);
    const uint64_t full = one.held_bytes();
    one.drop_planes();
    const uint64_t lean = one.held_bytes();
    QVERIFY(full > 3 * lean);  // planes dominate, so each drop frees room for most of a step
    SessionTrace t(3 * full + 3 * lean);  // six steps fit when the three oldest drop planes
    for (int i = 0; i < 6; ++i) {
        StepTrace s = testing::make_step(2, 2, 0, 64, policy, uint32_t(i));
        s.parent = i - 1;
        t.add(std::move(s));
        uint64_t sum = 0;
        for (const StepTrace& x : t.steps()) sum += x.held_bytes();
        QCOMPARE(t.held_bytes(), sum);
        QVERIFY(t.held_bytes() <= t.budget());
    }
    QCOMPARE(t.dropped_steps(), 3);
    QCOMPARE(t.held_bytes(), t.budget());
    QVERIFY(!t.over_budget());
    bool seen_kept = false;
    for (const StepTrace& s : t.steps()) {  // dropped ones are a prefix: oldest first
        if (!s.attention.planes_dropped) seen_kept = true;
        QVERIFY(!(seen_kept && s.attention.planes_dropped));
    }
    QVERIFY(!t.steps().back().attention.planes_dropped);
    int flagged = 0;
    for (const StepTrace& s : t.steps()) flagged += s.attention.planes_dropped;
    QCOMPARE(flagged, t.dropped_steps());
}

void TestTraceStep::budget_keeps_summaries_and_flags() {
    CapturePolicy policy;
    policy.mode = CaptureMode::Full;
    SessionTrace t = testing::make_session(2, 3, 6, 4, policy);
    const SessionTrace full = t;
    t.set_budget(1);  // nothing fits: every plane goes, summaries stay
    QCOMPARE(t.dropped_steps(), int32_t(t.size()));
    QVERIFY(t.over_budget());
    for (size_t i = 0; i < t.size(); ++i) {
        const StepTrace& s = t.steps()[i];
        QVERIFY(s.attention.planes_dropped);
        QVERIFY(s.attention.planes.empty() && s.attention.weights.empty());
        QCOMPARE(s.attention.summaries, full.steps()[i].attention.summaries);
        QCOMPARE(s.logits, full.steps()[i].logits);
    }
    QVERIFY(t.held_bytes() < full.held_bytes());
}

void TestTraceStep::branches_follow_parents() {
    CapturePolicy policy;
    const SessionTrace t = testing::make_session(1, 1, 3, 3, policy);
    // 0 prefill, 1..3 decodes, 4 a branch from 1.
    QCOMPARE(t.size(), size_t(5));
    QCOMPARE(t.path_to(3), (std::vector<int32_t>{0, 1, 2, 3}));
    QCOMPARE(t.path_to(4), (std::vector<int32_t>{0, 1, 4}));
    QVERIFY(t.has_children(1));
    QVERIFY(!t.has_children(4));
    // A step's pick is made again only while nothing continued from it (a leaf).
    SessionTrace picked = t;
    LogitsTrace again = t.step(4).logits;
    again.chosen += 1;
    QCOMPARE(picked.repick(4, again, 0.1).logits.chosen, again.chosen);
    QVERIFY_THROWS_EXCEPTION(UsageError, picked.repick(1, again, 0.1));  // step 2 and 4 fed its pick
    QCOMPARE(picked.step(1).logits, t.step(1).logits);
    SessionTrace bad;
    StepTrace s = testing::make_step(1, 1, 0, 2, policy, 1);
    s.parent = 0;  // no step 0 yet
    QVERIFY_THROWS_EXCEPTION(Error, bad.add(s));
}

QTEST_APPLESS_MAIN(TestTraceStep)
#include "test_trace_step.moc"
