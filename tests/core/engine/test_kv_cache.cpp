// The KV cache's sliding-window rings: a local layer keeps only its window (the bytes held are
// the per-layer formula of kv::cache_bytes), the ring wraps, grows for a long step and shrinks
// back; decoding far past the ring on fx-gemma3 gives the float64 reference's logits; a rewind
// inside the slack resumes, one past it forgets every position, and feeding again gives the same
// logits. The bytes are measured: rows not written are not counted, each type's row is its
// storage's. The offload tier: the global layer's old pages go to the file and come back
// intact (through rewinds into them), the resident pages stay within the budget; a backend
// with offload gives the bit-identical logits on fixtures with GQA and sliding windows.
#include "engine_fixture.h"
#include "float64_forward.h"

#include "engine/kernels.h"
#include "engine/kv_cache.h"
#include "gguf/quant.h"
#include "util/error.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace lmscope;
using namespace lmscope::testing;
using engine::KvCache;

namespace {

constexpr int32_t kHd = 32;       // one kv head of 32 values: an f16 row is 64 bytes
constexpr int32_t kWindow = 4;

// K = V = the position in every value (f16 holds whole numbers up to 2048 exactly).
void write_position(KvCache& c, int32_t layer, int32_t pos) {
    const std::vector<float> row(static_cast<size_t>(kHd), static_cast<float>(pos));
    c.write(layer, pos, row.data(), row.data());
}

// The position a layer's stored K and V rows at `pos` say they hold, or -1 when they differ.
int32_t stored_position(const KvCache& c, int32_t layer, int32_t pos) {
    std::vector<float> k(static_cast<size_t>(kHd)), v(static_cast<size_t>(kHd));
    gguf::dequantize_row(gguf::TensorType::F16, c.k_row(layer, pos, 0), k.data(), kHd);
    gguf::dequantize_row(gguf::TensorType::F16, c.v_row(layer, pos, 0), v.data(), kHd);
    for (int32_t i = 0; i < kHd; ++i)
        if (k[size_t(i)] != k[0] || v[size_t(i)] != k[0]) return -1;
    return int32_t(k[0]);
}

// One step of n rows at the cache's end through both layers.
void feed(KvCache& c, int32_t n) {
    const int32_t pos0 = c.n_tokens();
    c.reserve(pos0, n);
    for (int32_t l = 0; l < 2; ++l) {
        c.open_layer(l);
        for (int32_t p = pos0; p < pos0 + n; ++p) write_position(c, l, p);
    }
}

// Every position each row of the last step sees is stored intact (the global layer: all).
bool windows_intact(const KvCache& c, int32_t pos0, int32_t end) {
    for (int32_t p = 0; p < end; ++p)
        if (stored_position(c, 0, p) != p) return false;
    for (int32_t row = pos0; row < end; ++row)
        for (int32_t p = std::max(0, row - kWindow + 1); p <= row; ++p)
            if (stored_position(c, 1, p) != p) return false;
    return true;
}

// One step through both layers as a backend makes it: every row written, then each layer's
// attention (offload, stage, read); true when every position each row sees was intact.
bool feed_offloaded(KvCache& c, int32_t n) {
    const int32_t pos0 = c.n_tokens();
    feed(c, n);
    c.offload(0);
    c.stage(0);
    const bool ok = windows_intact(c, pos0, pos0 + n);
    c.set_n_tokens(pos0 + n);
    return ok;
}

std::vector<int32_t> token_ids(size_t n, int32_t n_vocab) {
    std::vector<int32_t> ids(n);
    uint32_t x = 12345;
    for (int32_t& id : ids) {
        x = x * 1664525u + 1013904223u;
        id = int32_t((x >> 8) % uint32_t(n_vocab));
    }
    return ids;
}

double max_abs(std::span<const double> v) {
    double m = 0.0;
    for (double x : v) m = std::max(m, std::fabs(x));
    return m;
}

double max_diff(std::span<const float> a, std::span<const double> b) {
    double m = 0.0;
    for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(double(a[i]) - b[i]));
    return m;
}

}  // namespace

class TestKvCache : public QObject {
    Q_OBJECT

private slots:
    void ring_steps_data() {
        QTest::addColumn<QList<int>>("steps");  // rows fed per step
        QTest::newRow("one row at a time past the ring") << QList<int>(300, 1);
        QTest::newRow("a long prefill, then decode") << (QList<int>{250} + QList<int>(100, 1));
        QTest::newRow("decode, a long step, decode") << (QList<int>(150, 1) + QList<int>{90} + QList<int>(30, 1));
        QTest::newRow("odd chunks") << QList<int>{7, 3, 61, 1, 1, 129, 2, 65, 66, 1};
    }
    // The global layer keeps everything, the local one its window; bytes held follow the formula
    // and the storage stays bounded by the window, its slack and the longest step.
    void ring_steps() {
        QFETCH(QList<int>, steps);
        KvCache c({2, 1, kHd, KvType::F16}, 2048, {0, kWindow});
        const size_t row = 2 * 64;  // K + V of one layer, one position
        for (int n : steps) {
            const int32_t pos0 = c.n_tokens();
            feed(c, n);
            QVERIFY(c.capacity(1) >= std::min(pos0 + n, kWindow - 1 + n));  // the step's rows see their windows
            QVERIFY2(windows_intact(c, pos0, pos0 + n), qPrintable(QString("step at %1 of %2 rows").arg(pos0).arg(n)));
            c.set_n_tokens(pos0 + n);
            const int32_t held = c.n_tokens();
            QCOMPARE(c.layer_bytes(0), size_t(held) * row);
            QCOMPARE(c.layer_bytes(1), size_t(std::min(held, kWindow)) * row);
            QCOMPARE(c.total_bytes(), size_t(kv::cache_bytes({2, 1, 1, kHd, 1, kWindow}, KvType::F16, uint64_t(held))));
            // between steps the ring is back to its window and slack
            QVERIFY(c.capacity(1) <= kWindow + KvCache::kRewindSlack);
            QVERIFY(c.capacity(0) >= held);
            QCOMPARE(c.allocated_bytes(), size_t(c.capacity(0) + c.capacity(1)) * row);
        }
    }

    void row_bytes_of_the_storage_data() {
        QTest::addColumn<QString>("kv");
        QTest::addColumn<int>("row");  // bytes of one 64-value row as stored
        QTest::newRow("f16") << "f16" << 128;
        QTest::newRow("q8_0: two blocks of 34") << "q8_0" << 68;
        QTest::newRow("q4_0: two blocks of 18") << "q4_0" << 36;
    }
    // The bytes stored are the rows written x the storage's row: a row a step did not write is
    // not counted (the formula would count it), a truncation takes rows off.
    void row_bytes_of_the_storage() {
        QFETCH(QString, kv);
        QFETCH(int, row);
        const KvType type = *parse_kv_type(kv.toStdString());
        KvCache c({2, 3, 64, type}, 512);
        QCOMPARE(c.row_bytes(), size_t(row));
        const std::vector<float> kvrow(size_t(3) * 64, 0.5f);
        c.reserve(0, 10);
        c.open_layer(0);
        c.open_layer(1);
        for (int32_t p = 0; p < 10; ++p) c.write(0, p, kvrow.data(), kvrow.data());
        for (int32_t p = 0; p < 9; ++p) c.write(1, p, kvrow.data(), kvrow.data());  // one row short
        c.set_n_tokens(10);
        QCOMPARE(c.rows(0), int64_t(10));
        QCOMPARE(c.rows(1), int64_t(9));
        const size_t per_row = 2 * 3 * size_t(row);
        QCOMPARE(c.total_bytes(), 19 * per_row);
        QVERIFY(c.total_bytes() != size_t(kv::cache_bytes({2, 3, 3, 64}, type, 10)));
        c.truncate(4);  // takes off the six positions from 4 on, of each layer
        QCOMPARE(c.total_bytes(), 7 * per_row);
        QCOMPARE(c.allocated_bytes(), 2 * size_t(KvCache::kPage) * per_row);  // a page each
    }

    void offload_data() {
        QTest::addColumn<QList<int>>("steps");  // rows fed per step
        QTest::addColumn<int>("keep");          // pages the budget leaves the global layer
        QTest::newRow("decode, one page kept") << QList<int>(300, 1) << 1;
        QTest::newRow("a long prefill, then decode, two pages") << (QList<int>{250} + QList<int>(100, 1)) << 2;
        QTest::newRow("odd chunks, one page") << QList<int>{7, 3, 61, 1, 1, 129, 2, 65, 66, 1} << 1;
    }
    // The global layer's pages beyond the budget go to the file after its attention and come
    // back intact for the next one; the bytes stored stay the formula's, those in memory
    // within the budget.
    void offload() {
        QFETCH(QList<int>, steps);
        QFETCH(int, keep);
        const size_t row = 2 * 64;  // K + V of one layer, one position
        const size_t page = KvCache::kPage * row;
        const size_t ring = size_t(kWindow + KvCache::kRewindSlack) * row;
        KvCache c({2, 1, kHd, KvType::F16}, 2048, {0, kWindow}, ring + size_t(keep) * page + page / 2);
        QVERIFY(c.offloads());
        QCOMPARE(c.resident_pages(), keep);
        uint64_t moved = 0;
        for (int n : steps) {
            const int32_t pos0 = c.n_tokens();
            QVERIFY2(feed_offloaded(c, n), qPrintable(QString("step at %1 of %2 rows").arg(pos0).arg(n)));
            const int32_t held = c.n_tokens();
            QCOMPARE(c.total_bytes(), size_t(kv::cache_bytes({2, 1, 1, kHd, 1, kWindow}, KvType::F16, uint64_t(held))));
            QVERIFY(c.capacity(0) <= keep * KvCache::kPage);
            const int32_t in_file = std::max(0, (held + KvCache::kPage - 1) / KvCache::kPage - keep) * KvCache::kPage;
            QCOMPARE(c.offloaded_bytes(), size_t(in_file) * row);
            QVERIFY(c.resident_bytes() <= ring + size_t(keep) * page);
            QVERIFY(c.bytes_moved() >= moved);
            moved = c.bytes_moved();
        }
        QVERIFY(moved > 0);
        // a rewind into a page in the file (inside the ring's slack, so that it resumes): the
        // page comes back for the next step's rows; then rewinds past the ring (from 0)
        for (int32_t back : {50, 200, 1000}) {
            const int32_t to = std::max(0, c.n_tokens() - back);
            const bool resumes = c.resumable(to);
            QCOMPARE(resumes, back == 50);
            c.truncate(to);
            QCOMPARE(c.n_tokens(), resumes ? to : 0);
            QCOMPARE(c.total_bytes(), size_t(kv::cache_bytes({2, 1, 1, kHd, 1, kWindow}, KvType::F16, uint64_t(c.n_tokens()))));
            QVERIFY(feed_offloaded(c, 5));
            for (int i = 0; i < 70; ++i) QVERIFY(feed_offloaded(c, 1));
        }
    }

    // A global layer's pages come as its rows are written (open_layer, a layer at a time), not
    // for the whole step at reserve(): with offload only the layer being computed holds its
    // step's rows beyond the budget.
    void pages_come_a_layer_at_a_time() {
        KvCache c({3, 1, kHd, KvType::F16}, 2048, {}, 1);  // one page a layer kept
        c.reserve(0, 300);
        for (int32_t l = 0; l < 3; ++l) QCOMPARE(c.capacity(l), 0);
        for (int32_t l = 0; l < 3; ++l) {
            c.open_layer(l);
            for (int32_t p = 0; p < 300; ++p) write_position(c, l, p);
            QCOMPARE(c.capacity(l), 5 * KvCache::kPage);  // positions 0..299
            c.offload(l);
            QCOMPARE(c.capacity(l), KvCache::kPage);
            if (l + 1 < 3) QCOMPARE(c.capacity(l + 1), 0);
        }
        c.set_n_tokens(300);
        QCOMPARE(c.resident_bytes(), size_t(3) * KvCache::kPage * 2 * 64);
        QCOMPARE(c.offloaded_bytes(), size_t(3) * 256 * 2 * 64);
    }

    // A window as wide as int32 allows (a model file's sliding_window near 2^31): the ring's
    // window + slack overflowed int32 (a SIGFPE); the layer now keeps every position, as a
    // global one, within the context.
    void window_wider_than_the_context() {
        KvCache c({2, 1, kHd, KvType::F16}, 300, {0, std::numeric_limits<int32_t>::max() - 1});
        for (int n : {1, 90, 1, 150}) {
            const int32_t pos0 = c.n_tokens();
            feed(c, n);
            c.set_n_tokens(pos0 + n);
            QVERIFY(c.capacity(1) <= 300);
            for (int32_t p = 0; p < c.n_tokens(); ++p) QCOMPARE(stored_position(c, 1, p), p);
        }
        QCOMPARE(c.layer_bytes(1), c.layer_bytes(0));
        c.truncate(100);
        QCOMPARE(c.n_tokens(), 100);
    }

    void rewinds() {
        KvCache c({2, 1, kHd, KvType::F16}, 2048, {0, kWindow});
        for (int i = 0; i < 200; ++i) {
            feed(c, 1);
            c.set_n_tokens(c.n_tokens() + 1);
        }
        // the ring holds positions [200 - 68, 200) = [132, 200): resuming at n needs [n - 3, n)
        QVERIFY(c.resumable(200));
        QVERIFY(c.resumable(200 - KvCache::kRewindSlack));
        QVERIFY(c.resumable(135));
        QVERIFY(!c.resumable(134));
        c.truncate(150);
        QCOMPARE(c.n_tokens(), 150);
        feed(c, 3);  // positions 150..152 again, over the old ones
        QVERIFY(windows_intact(c, 150, 153));
        c.set_n_tokens(153);
        c.truncate(100);  // past the ring: everything is forgotten
        QCOMPARE(c.n_tokens(), 0);
        QCOMPARE(c.total_bytes(), size_t(0));
        QVERIFY(c.resumable(0));
        feed(c, 120);
        QVERIFY(windows_intact(c, 0, 120));
        c.set_n_tokens(120);
        QVERIFY_THROWS_EXCEPTION(UsageError, c.truncate(121));
        QVERIFY_THROWS_EXCEPTION(UsageError, c.reserve(100, 1));  // not at the end
        QVERIFY_THROWS_EXCEPTION(UsageError, KvCache({2, 1, kHd, KvType::F16}, 64, {0}));
        QVERIFY_THROWS_EXCEPTION(UsageError, KvCache({2, 1, kHd, KvType::F16}, 64, {0, -1}));
    }

    void gemma3_past_the_ring_data() {
        QTest::addColumn<QString>("kv");
        QTest::addColumn<int>("chunk");  // rows a step; 0: one prefill
        QTest::newRow("f16, one token a step") << "f16" << 1;
        QTest::newRow("f16, 37 rows a step") << "f16" << 37;
        QTest::newRow("f16, one prefill") << "f16" << 0;
        QTest::newRow("q8_0, one token a step") << "q8_0" << 1;
    }
    // 200 tokens through fx-gemma3 (three local layers of window 16: their rings wrap twice):
    // the logits of every position against the float64 forward pass, the bytes held against
    // the formula.
    void gemma3_past_the_ring() {
        QFETCH(QString, kv);
        QFETCH(int, chunk);
        const std::string path = testdata_file("models/fx-gemma3.gguf");
        LMSCOPE_REQUIRE_FILE(path, "../shared/testdata/models/fx-gemma3.gguf");
        auto m = engine::Model::load(path);
        const model::ModelSpec& s = m->spec();
        QCOMPARE(s.kv_shape().n_local, uint64_t(3));
        QCOMPARE(s.kv_shape().window, uint64_t(16));
        const std::vector<int32_t> ids = token_ids(200, s.n_vocab());
        const Float64Run ref = float64_forward(*m, ids);
        const std::vector<double>& want = ref.at(trace::Hook::Logits, -1);

        engine::BackendOptions o;
        o.kv_type = *parse_kv_type(kv.toStdString());
        auto b = engine::make_cpu_backend(m, o);
        const size_t V = size_t(s.n_vocab());
        std::vector<float> logits(ids.size() * V);
        const size_t step = chunk > 0 ? size_t(chunk) : ids.size();
        for (size_t t = 0; t < ids.size(); t += step) {
            const size_t n = std::min(step, ids.size() - t);
            b->forward({.tokens = std::span(ids).subspan(t, n), .pos0 = int32_t(t),
                        .logits = std::span(logits).subspan(t * V, n * V), .all_logits = true});
            const engine::KvStats st = b->kv_stats();
            QCOMPARE(st.total_bytes, size_t(kv::cache_bytes(s.kv_shape(), parse_kv_type(kv.toStdString()).value(),
                                                             uint64_t(t + n))));
            for (int32_t l = 0; l < s.n_layer(); ++l) {  // a local layer its window, a global one every position
                const int32_t w = s.layers[size_t(l)].window;
                QCOMPARE(st.layer_bytes[size_t(l)], st.bytes_per_token / size_t(s.n_layer()) *
                                                        (w > 0 ? std::min<size_t>(t + n, size_t(w)) : t + n));
            }
        }
        const double tol = (o.kv_type == KvType::F16 ? 1e-3 : 5e-3) * max_abs(want);  // measured 8e-5, 2.4e-3
        const double d = max_diff(logits, want);
        qInfo("fx-gemma3 %s, %zu rows a step: max |logit - float64| %.3g (tolerance %.3g)", qPrintable(kv), step, d, tol);
        QVERIFY2(d <= tol, qPrintable(QString("max diff %1 > %2").arg(d).arg(tol)));
    }

    // Rewinding a backend: inside the slack it resumes; past it kv_truncate forgets every
    // position, a forward from there is refused, and feeding again gives the same logits.
    void gemma3_rewind() {
        const std::string path = testdata_file("models/fx-gemma3.gguf");
        LMSCOPE_REQUIRE_FILE(path, "../shared/testdata/models/fx-gemma3.gguf");
        auto m = engine::Model::load(path);
        const std::vector<int32_t> ids = token_ids(200, m->spec().n_vocab());
        auto b = engine::make_cpu_backend(m, {});
        const std::vector<float> first = run_logits(*b, ids, true);
        const size_t V = size_t(m->spec().n_vocab());
        std::vector<float> again(V);
        // resuming at 150: the rings still hold positions 135..149
        b->kv_truncate(150);
        QCOMPARE(b->kv_tokens(), 150);
        for (size_t t = 150; t < ids.size(); ++t)
            b->forward({.tokens = std::span(ids).subspan(t, 1), .pos0 = int32_t(t), .logits = again});
        QCOMPARE(max_abs_diff(again, std::span(first).subspan((ids.size() - 1) * V, V)), 0.0);
        // a forward that would rewind past the rings is refused, the cache unchanged
        try {
            b->forward({.tokens = std::span(ids).subspan(100, 1), .pos0 = 100, .logits = again});
            QFAIL("a forward behind the sliding window was accepted");
        } catch (const UsageError& e) {
            QVERIFY2(QString(e.what()).contains("sliding-window layers no longer hold the 16 positions before position 100"),
                     e.what());
        }
        QCOMPARE(b->kv_tokens(), 200);
        b->kv_truncate(100);
        QCOMPARE(b->kv_tokens(), 0);
        b->forward({.tokens = std::span(ids).first(101), .logits = again});
        QVERIFY(max_abs_diff(again, std::span(first).subspan(100 * V, V)) < 1e-3);
    }

    void offload_bit_identical_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("kv");
        QTest::newRow("fx-gqa f16") << "fx-gqa" << "f16";
        QTest::newRow("fx-gqa q8_0") << "fx-gqa" << "q8_0";
        QTest::newRow("fx-gqa q4_0") << "fx-gqa" << "q4_0";
        QTest::newRow("fx-gemma3 f16 (sliding windows)") << "fx-gemma3" << "f16";
        QTest::newRow("fx-gemma3 q8_0") << "fx-gemma3" << "q8_0";
    }
    // A backend whose cache keeps one page a global layer in memory (the rest in the file) gives
    // the same bits as one that keeps it all: a prefill, decode steps, a chunk, a rewind into a
    // page in the file; its bytes stored are the same, its resident ones fewer.
    void offload_bit_identical() {
        QFETCH(QString, model);
        QFETCH(QString, kv);
        const std::string path = testdata_file("models/" + model.toStdString() + ".gguf");
        LMSCOPE_REQUIRE_FILE(path, "../shared/testdata/models");
        auto m = engine::Model::load(path);
        const std::vector<int32_t> ids = token_ids(260, m->spec().n_vocab());
        engine::BackendOptions whole, offloaded;
        whole.kv_type = offloaded.kv_type = *parse_kv_type(kv.toStdString());
        whole.n_ctx = offloaded.n_ctx = 512;
        offloaded.kv_offload_bytes = 1;  // one page a global layer
        auto a = engine::make_cpu_backend(m, whole), b = engine::make_cpu_backend(m, offloaded);
        const size_t V = size_t(m->spec().n_vocab());
        std::vector<float> la(ids.size() * V), lb(la.size());
        // (pos0, rows): a prefill, decode steps, a chunk, then a rewind to 150 (a page in the file) and on
        const std::vector<std::pair<int32_t, int32_t>> steps{{0, 100}, {100, 1}, {101, 1}, {102, 50}, {152, 1}, {153, 47},
                                                             {200, 1}, {150, 1}, {151, 1}, {152, 40}, {192, 1}};
        for (const auto& [pos0, n] : steps) {
            for (const auto& [be, lo] : {std::pair{a.get(), &la}, std::pair{b.get(), &lb}})
                be->forward({.tokens = std::span(ids).subspan(size_t(pos0), size_t(n)), .pos0 = pos0,
                             .logits = std::span(*lo).subspan(size_t(pos0) * V, size_t(n) * V), .all_logits = true});
            QVERIFY2(std::memcmp(la.data() + size_t(pos0) * V, lb.data() + size_t(pos0) * V, size_t(n) * V * sizeof(float)) == 0,
                     qPrintable(QString("logits of positions %1 .. %2 differ").arg(pos0).arg(pos0 + n)));
            const engine::KvStats sa = a->kv_stats(), sb = b->kv_stats();
            QCOMPARE(sb.total_bytes, sa.total_bytes);
            QCOMPARE(sb.total_bytes, sb.formula_bytes);
            QCOMPARE(sa.offloaded_bytes, size_t(0));
            if (pos0 + n > 2 * engine::KvCache::kPage) {
                QVERIFY(sb.offloaded_bytes > 0);
                QVERIFY(sb.resident_bytes < sa.resident_bytes);
                QVERIFY(sb.moved_bytes > 0);
            }
        }
    }

    // An f16 cache written through a kernel's f32_to_f16 holds the bytes gguf's rounding gives,
    // for every kernel variant (random values, tiny, huge, negative zero, infinities).
    void kernel_conversion_is_gguf_rounding() {
        std::mt19937 rng(5);
        std::normal_distribution<float> d(0.0f, 30.0f);
        std::vector<float> k(size_t(2) * kHd), v(k.size());  // [2 heads][kHd]
        for (size_t i = 0; i < k.size(); ++i) k[i] = d(rng), v[i] = d(rng) * 1e-6f;
        k[3] = -0.0f, k[5] = 70000.0f, v[7] = -INFINITY, v[9] = 3e-8f;
        for (const engine::kernels::Kernels* kn : engine::kernels::available()) {
            KvCache plain(engine::KvShape{1, 2, kHd, KvType::F16}, 8), fast(engine::KvShape{1, 2, kHd, KvType::F16}, 8);
            plain.reserve(0, 1);
            fast.reserve(0, 1);
            plain.open_layer(0);
            fast.open_layer(0);
            plain.write(0, 0, k.data(), v.data());
            fast.write(0, 0, k.data(), v.data(), kn->f32_to_f16);
            for (int32_t h = 0; h < 2; ++h) {
                QVERIFY2(std::memcmp(plain.k_row(0, 0, h), fast.k_row(0, 0, h), size_t(kHd) * 2) == 0, kn->name);
                QVERIFY2(std::memcmp(plain.v_row(0, 0, h), fast.v_row(0, 0, h), size_t(kHd) * 2) == 0, kn->name);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestKvCache)
#include "test_kv_cache.moc"
