// KV cache arithmetic: the formula per storage type, the published presets (Llama 3.1 70B at
// 128K fp16 = 42,949,672,960 bytes), MHA/GQA/MQA variants, budget and offload figures, errors.
#include "kv/kv_math.h"
#include "kv/presets.h"
#include "util/error.h"

#include <QtTest>

#include <limits>

using namespace lmscope;
using namespace lmscope::kv;

Q_DECLARE_METATYPE(lmscope::KvType)

namespace {

Shape preset_shape(const char* name) {
    const Preset* p = find_preset(name);
    if (!p) throw lmscope::Error(std::string("no preset ") + name);
    return p->shape;
}

}  // namespace

class TestKvMath : public QObject {
    Q_OBJECT

private slots:
    void cache_types() {
        QCOMPARE(bytes_per_element(KvType::F16), 2.0);
        QCOMPARE(bytes_per_element(KvType::Q8_0), 34.0 / 32.0);
        QCOMPARE(bytes_per_element(KvType::Q4_0), 18.0 / 32.0);
        QCOMPARE(parse_kv_type("Q8_0"), std::optional<KvType>(KvType::Q8_0));
        QCOMPARE(parse_kv_type("f16"), std::optional<KvType>(KvType::F16));
        QVERIFY(!parse_kv_type("q5_1").has_value());
        QVERIFY(!parse_kv_type("").has_value());
        QCOMPARE(kv_type_name(KvType::Q4_0), std::string_view("q4_0"));
    }

    // Expected values worked out by hand from 2 x L x H_kv x D x T x B x bytes.
    void cache_bytes_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<KvType>("type");
        QTest::addColumn<quint64>("tokens");
        QTest::addColumn<quint64>("batch");
        QTest::addColumn<quint64>("per_token");
        QTest::addColumn<quint64>("total");
        // 2 x 80 x 8 x 128 x 2 = 327,680 bytes per token; x 131072 = 40 GiB = 42.9 GB.
        QTest::newRow("llama-3.1-70b 128K f16") << QString("llama-3.1-70b") << KvType::F16 << 131072ull << 1ull
                                                << 327680ull << 42949672960ull;
        // q8_0 row of 128 values: 4 blocks x 34 = 136 bytes.
        QTest::newRow("llama-3.1-70b 128K q8_0") << QString("llama-3.1-70b") << KvType::Q8_0 << 131072ull << 1ull
                                                 << 174080ull << 22817013760ull;
        // q4_0 row of 128 values: 4 blocks x 18 = 72 bytes.
        QTest::newRow("llama-3.1-70b 128K q4_0") << QString("llama-3.1-70b") << KvType::Q4_0 << 131072ull << 1ull
                                                 << 92160ull << 12079595520ull;
        // 2 x 30 x 3 x 64 x 2 = 23,040 bytes per token.
        QTest::newRow("smollm2-135m 8K f16") << QString("smollm2-135m") << KvType::F16 << 8192ull << 1ull << 23040ull
                                             << 188743680ull;
        // 2 x 32 x 32 x 128 x 2 = 512 KiB per token; 4096 tokens = 2 GiB; batch 4 = 8 GiB.
        QTest::newRow("llama-2-7b 4K batch 4") << QString("llama-2-7b") << KvType::F16 << 4096ull << 4ull << 524288ull
                                               << 8589934592ull;
        // Llama 3.2 1B: head dim 64 -> 2 q8_0 blocks = 68 bytes; 2 x 16 x 8 x 68 = 17,408.
        QTest::newRow("llama-3.2-1b q8_0") << QString("llama-3.2-1b") << KvType::Q8_0 << 1000ull << 1ull << 17408ull
                                           << 17408000ull;
        QTest::newRow("zero tokens") << QString("llama-3.1-8b") << KvType::F16 << 0ull << 1ull << 131072ull << 0ull;
    }
    void cache_bytes() {
        QFETCH(QString, preset);
        QFETCH(KvType, type);
        QFETCH(quint64, tokens);
        QFETCH(quint64, batch);
        QFETCH(quint64, per_token);
        QFETCH(quint64, total);
        const Shape s = preset_shape(qPrintable(preset));
        QCOMPARE(bytes_per_token(s, type), per_token);
        QCOMPARE(lmscope::kv::cache_bytes(s, type, tokens, batch), total);
        // The same as the textbook formula with the fractional bytes per element.
        const double formula = 2.0 * double(s.n_layer) * double(s.n_head_kv) * double(s.head_dim) *
                               double(tokens) * double(batch) * bytes_per_element(type);
        QCOMPARE(double(total), formula);
    }

    void the_70b_figure_is_about_43_gb() {
        const uint64_t b = lmscope::kv::cache_bytes(preset_shape("llama-3.1-70b"), KvType::F16, 131072);
        QCOMPARE(b, 42949672960ull);
        QCOMPARE(double(b) / 1e9, 42.94967296);
        QCOMPARE(double(b) / double(1ull << 30), 40.0);
    }

    void invalid_shapes_data() {
        QTest::addColumn<quint64>("layers");
        QTest::addColumn<quint64>("heads");
        QTest::addColumn<quint64>("kv_heads");
        QTest::addColumn<quint64>("head_dim");
        QTest::addColumn<KvType>("type");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("no layers") << 0ull << 8ull << 8ull << 64ull << KvType::F16 << QString("layer");
        QTest::newRow("no kv heads") << 4ull << 8ull << 0ull << 64ull << KvType::F16 << QString("kv head");
        QTest::newRow("no head dim") << 4ull << 8ull << 8ull << 0ull << KvType::F16 << QString("head dimension");
        QTest::newRow("kv above query heads") << 4ull << 8ull << 16ull << 64ull << KvType::F16 << QString("exceed");
        QTest::newRow("heads not grouped evenly") << 4ull << 9ull << 2ull << 64ull << KvType::F16 << QString("multiple");
        QTest::newRow("q8_0 head dim 48") << 4ull << 8ull << 8ull << 48ull << KvType::Q8_0 << QString("blocks of 32");
        QTest::newRow("q4_0 head dim 80") << 4ull << 8ull << 8ull << 80ull << KvType::Q4_0 << QString("blocks of 32");
    }
    void invalid_shapes() {
        QFETCH(quint64, layers);
        QFETCH(quint64, heads);
        QFETCH(quint64, kv_heads);
        QFETCH(quint64, head_dim);
        QFETCH(KvType, type);
        QFETCH(QString, mentions);
        try {
            bytes_per_token(Shape{layers, heads, kv_heads, head_dim}, type);
            QFAIL("no UsageError");
        } catch (const lmscope::UsageError& e) {
            QVERIFY2(QString(e.what()).contains(mentions), e.what());
        }
    }

    void f16_takes_any_head_dim() {
        QCOMPARE(bytes_per_token(Shape{1, 0, 1, 48}, KvType::F16), 192ull);  // unknown query heads
    }

    void overflow_is_an_error() {
        const Shape s = preset_shape("llama-3.1-405b");
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError,
                                 lmscope::kv::cache_bytes(s, KvType::F16, 1ull << 40, 1ull << 20));
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError,
                                 bytes_per_token(Shape{1ull << 40, 0, 1ull << 20, 1ull << 10}, KvType::F16));
    }

    void presets_match_the_published_configs_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<quint64>("layers");
        QTest::addColumn<quint64>("heads");
        QTest::addColumn<quint64>("kv_heads");
        QTest::addColumn<quint64>("head_dim");
        QTest::addColumn<quint64>("context");
        QTest::addColumn<quint64>("n_embd");
        QTest::addColumn<quint64>("local");   // sliding-window layers
        QTest::addColumn<quint64>("window");
        // n_embd = heads x head dim unless given (Qwen3 and Gemma 3 size heads on their own)
        auto row = [](const char* n, quint64 l, quint64 h, quint64 kv, quint64 d, quint64 ctx, quint64 embd = 0,
                      quint64 local = 0, quint64 window = 0) {
            QTest::newRow(n) << QString(n) << l << h << kv << d << ctx << (embd ? embd : h * d) << local << window;
        };
        row("llama-2-7b", 32, 32, 32, 128, 4096);
        row("llama-2-13b", 40, 40, 40, 128, 4096);
        row("llama-2-70b", 80, 64, 8, 128, 4096);
        row("llama-3.1-8b", 32, 32, 8, 128, 131072);
        row("llama-3.1-70b", 80, 64, 8, 128, 131072);
        row("llama-3.1-405b", 126, 128, 8, 128, 131072);
        row("llama-3.2-1b", 16, 32, 8, 64, 131072);
        row("llama-3.2-3b", 28, 24, 8, 128, 131072);
        row("mistral-7b", 32, 32, 8, 128, 32768);
        row("qwen2.5-0.5b", 24, 14, 2, 64, 32768);
        row("qwen2.5-7b", 28, 28, 4, 128, 131072);
        row("smollm2-135m", 30, 9, 3, 64, 8192);
        row("smollm2-360m", 32, 15, 5, 64, 8192);
        row("smollm2-1.7b", 24, 32, 32, 64, 8192);
        row("tinyllama-1.1b", 22, 32, 4, 64, 2048);
        row("qwen3-0.6b", 28, 16, 8, 128, 40960, 1024);
        // Gemma 3: layer il is global iff il % 6 == 5
        row("gemma-3-270m", 18, 4, 1, 256, 32768, 640, 18 - 18 / 6, 512);
        row("gemma-3-1b", 26, 4, 1, 256, 32768, 1152, 26 - 26 / 6, 512);
        row("gemma-3-4b", 34, 8, 4, 256, 131072, 2560, 34 - 34 / 6, 1024);
    }
    void presets_match_the_published_configs() {
        QFETCH(QString, name);
        QFETCH(quint64, layers);
        QFETCH(quint64, heads);
        QFETCH(quint64, kv_heads);
        QFETCH(quint64, head_dim);
        QFETCH(quint64, context);
        QFETCH(quint64, n_embd);
        QFETCH(quint64, local);
        QFETCH(quint64, window);
        const Preset* p = find_preset(name.toStdString());
        QVERIFY(p);
        QCOMPARE(p->shape.n_layer, layers);
        QCOMPARE(p->shape.n_head, heads);
        QCOMPARE(p->shape.n_head_kv, kv_heads);
        QCOMPARE(p->shape.head_dim, head_dim);
        QCOMPARE(p->shape.n_local, local);
        QCOMPARE(p->shape.window, window);
        QCOMPARE(p->max_context, context);
        QCOMPARE(p->n_embd, n_embd);
        QVERIFY(p->n_params > 100'000'000ull);
        for (KvType t : {KvType::F16, KvType::Q8_0, KvType::Q4_0}) validate(p->shape, t);
    }

    // The per-layer formula: global layers hold every token, local ones their window.
    void sliding_window_cache_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<quint64>("tokens");
        QTest::addColumn<quint64>("positions");
        QTest::addColumn<quint64>("bytes");
        // ARCHITECTURES.md: Gemma-3-270M at 32K f16 = 3 x 32768 + 15 x 512 positions x 1 KiB = 103.5 MiB.
        QTest::newRow("gemma-3-270m 32K") << QString("gemma-3-270m") << 32768ull << 3ull * 32768 + 15ull * 512
                                          << (3ull * 32768 + 15ull * 512) * 1024;
        QTest::newRow("gemma-3-270m inside the window") << QString("gemma-3-270m") << 100ull << 18ull * 100
                                                        << 18ull * 100 * 1024;
        QTest::newRow("gemma-3-270m at the window") << QString("gemma-3-270m") << 512ull << 18ull * 512
                                                    << 18ull * 512 * 1024;
        // 2 x 4 kv heads x 256 x 2 bytes = 4 KiB a layer-position
        QTest::newRow("gemma-3-4b 128K") << QString("gemma-3-4b") << 131072ull << 5ull * 131072 + 29ull * 1024
                                         << (5ull * 131072 + 29ull * 1024) * 4096;
        QTest::newRow("no window: every layer") << QString("smollm2-135m") << 8192ull << 30ull * 8192 << 188743680ull;
    }
    void sliding_window_cache() {
        QFETCH(QString, preset);
        QFETCH(quint64, tokens);
        QFETCH(quint64, positions);
        QFETCH(quint64, bytes);
        const Shape s = preset_shape(qPrintable(preset));
        QCOMPARE(positions_held(s, tokens), positions);
        QCOMPARE(lmscope::kv::cache_bytes(s, KvType::F16, tokens), bytes);
        QCOMPARE(lmscope::kv::cache_bytes(s, KvType::F16, tokens, 3), 3 * bytes);
        QCOMPARE(lmscope::kv::cache_bytes(s, KvType::F16, tokens), positions * layer_bytes_per_token(s, KvType::F16));
    }

    void sliding_window_budget() {
        const Shape s = preset_shape("gemma-3-270m");  // 1 KiB a layer-position in f16
        // inside the window: every layer grows, 18 KiB a token
        QCOMPARE(tokens_that_fit(s, KvType::F16, 1, 18ull * 1024 * 100 + 5, 0), 100ull);
        // past it only the 3 global layers: the 15 windows (15 x 512 KiB) and 3 KiB a token
        QCOMPARE(tokens_that_fit(s, KvType::F16, 1, (15ull * 512 + 3ull * 10000) * 1024, 0), 10000ull);
        // every layer local: the cache stops growing at the window
        const Shape all_local{6, 4, 1, 256, 6, 512};
        QCOMPARE(tokens_that_fit(all_local, KvType::F16, 1, 6ull * 512 * 1024, 0), kAnyLength);
        QCOMPARE(tokens_that_fit(all_local, KvType::F16, 1, 6ull * 511 * 1024, 0), 511ull);
        // offload: the device keeps what 600 tokens hold, the host the global layers' rest; the
        // token leaving the device window (past the local windows) moves on the global layers only
        const OffloadPlan p = plan_offload(s, KvType::F16, 1, 1000, 600);
        QCOMPARE(p.device_bytes, (3ull * 600 + 15ull * 512) * 1024);
        QCOMPARE(p.host_bytes, 3ull * 400 * 1024);
        QCOMPARE(p.evicted_bytes_per_step, 3ull * 1024);
        const OffloadPlan q = plan_offload(s, KvType::F16, 1, 1000, 100);  // inside the windows: every layer
        QCOMPARE(q.evicted_bytes_per_step, 18ull * 1024);
    }

    void sliding_window_shape_errors_data() {
        QTest::addColumn<quint64>("local");
        QTest::addColumn<quint64>("window");
        QTest::addColumn<QString>("message");
        QTest::newRow("more local layers than layers") << 5ull << 16ull << QString("5 local (sliding-window) layers exceed 4 layers");
        QTest::newRow("local layers without a window") << 2ull << 0ull << QString("need a window");
        QTest::newRow("a window without local layers") << 0ull << 16ull << QString("needs local layers");
    }
    void sliding_window_shape_errors() {
        QFETCH(quint64, local);
        QFETCH(quint64, window);
        QFETCH(QString, message);
        try {
            validate(Shape{4, 4, 1, 64, local, window}, KvType::F16);
            QFAIL("accepted");
        } catch (const lmscope::UsageError& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void preset_lookup() {
        QCOMPARE(presets().size(), size_t(19));
        QVERIFY(find_preset("LLAMA-3.1-70B") == find_preset("llama-3.1-70b"));
        QVERIFY(find_preset("llama-3.1-70") == nullptr);
        QVERIFY(find_preset("") == nullptr);
        for (const Preset& p : presets()) QCOMPARE(find_preset(p.name), &p);
    }

    void attention_variants_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QList<quint64>>("kv_heads");  // MHA, GQA, MQA rows (GQA may be absent)
        QTest::newRow("llama-2-7b is MHA") << QString("llama-2-7b") << QString("MHA") << QList<quint64>{32, 8, 1};
        QTest::newRow("llama-3.1-70b is GQA") << QString("llama-3.1-70b") << QString("GQA") << QList<quint64>{64, 8, 1};
        QTest::newRow("smollm2-135m is GQA") << QString("smollm2-135m") << QString("GQA") << QList<quint64>{9, 3, 1};
        QTest::newRow("smollm2-1.7b is MHA") << QString("smollm2-1.7b") << QString("MHA") << QList<quint64>{32, 8, 1};
        QTest::newRow("qwen2.5-0.5b: 14 heads") << QString("qwen2.5-0.5b") << QString("GQA") << QList<quint64>{14, 2, 1};
    }
    void attention_variants() {
        QFETCH(QString, preset);
        QFETCH(QString, kind);
        QFETCH(QList<quint64>, kv_heads);
        const Shape s = preset_shape(qPrintable(preset));
        QCOMPARE(QString::fromUtf8(attention_kind_name(attention_kind(s)).data()), kind);
        const auto variants = lmscope::kv::attention_variants(s);
        QCOMPARE(qsizetype(variants.size()), kv_heads.size());
        for (size_t i = 0; i < variants.size(); ++i) {
            QCOMPARE(variants[i].shape.n_head_kv, kv_heads[qsizetype(i)]);
            QCOMPARE(variants[i].shape.n_layer, s.n_layer);
        }
        QCOMPARE(variants.front().kind, AttentionKind::MHA);
        QCOMPARE(variants.back().kind, AttentionKind::MQA);
        // KV bytes scale with the kv heads: MHA / MQA = query heads.
        QCOMPARE(bytes_per_token(variants.front().shape, KvType::F16),
                 bytes_per_token(variants.back().shape, KvType::F16) * s.n_head);
    }

    void variants_without_a_grouping() {
        // 2 query heads: no divisor between 1 and 2 / 4, so MHA and MQA only.
        const auto v = lmscope::kv::attention_variants(Shape{4, 2, 2, 64});
        QCOMPARE(v.size(), size_t(2));
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, lmscope::kv::attention_variants(Shape{4, 0, 2, 64}));
    }

    void weights_bytes() {
        QCOMPARE(lmscope::kv::weights_bytes(1000, KvType::F16), 2000ull);
        QCOMPARE(lmscope::kv::weights_bytes(64, KvType::Q4_0), 36ull);
        QCOMPARE(lmscope::kv::weights_bytes(33, KvType::Q4_0), 36ull);  // rounded up to blocks
        QCOMPARE(lmscope::kv::weights_bytes(32, KvType::Q8_0), 34ull);
        QCOMPARE(lmscope::kv::weights_bytes(find_preset("llama-3.1-8b")->n_params, KvType::F16),
                 16060522496ull);
    }

    void tokens_that_fit_a_budget() {
        const Preset* p8 = find_preset("llama-3.1-8b");
        const uint64_t w8 = lmscope::kv::weights_bytes(p8->n_params, KvType::F16);
        // (80e9 - 16,060,522,496) / 131,072 bytes per token = 487,819.8.
        QCOMPARE(tokens_that_fit(p8->shape, KvType::F16, 1, 80'000'000'000ull, w8), 487819ull);
        QCOMPARE(tokens_that_fit(p8->shape, KvType::F16, 2, 80'000'000'000ull, w8), 243909ull);
        // q4_0 stores 72 / 256 of the f16 bytes: 3.56x as many tokens.
        QCOMPARE(tokens_that_fit(p8->shape, KvType::Q4_0, 1, 80'000'000'000ull, w8),
                 (80'000'000'000ull - w8) / 36864ull);
        // 70B f16 weights (141 GB) do not fit in 80 GB.
        const Preset* p70 = find_preset("llama-3.1-70b");
        QCOMPARE(tokens_that_fit(p70->shape, KvType::F16, 1, 80'000'000'000ull,
                                 lmscope::kv::weights_bytes(p70->n_params, KvType::F16)),
                 0ull);
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, tokens_that_fit(p8->shape, KvType::F16, 0, 1, 0));
    }

    void offload_plan_data() {
        QTest::addColumn<quint64>("context");
        QTest::addColumn<quint64>("window");
        QTest::addColumn<quint64>("device_bytes");
        QTest::addColumn<quint64>("host_bytes");
        QTest::addColumn<quint64>("moved");
        // SmolLM2 135M f16: 23,040 bytes per token.
        QTest::newRow("window inside context") << 1000ull << 256ull << 256ull * 23040 << 744ull * 23040
                                               << 744ull * 23040 + 23040;
        QTest::newRow("all on device") << 200ull << 256ull << 200ull * 23040 << 0ull << 0ull;
        QTest::newRow("window 0: all on host") << 10ull << 0ull << 0ull << 10ull * 23040 << 11ull * 23040;
    }
    void offload_plan() {
        QFETCH(quint64, context);
        QFETCH(quint64, window);
        QFETCH(quint64, device_bytes);
        QFETCH(quint64, host_bytes);
        QFETCH(quint64, moved);
        const OffloadPlan p = plan_offload(preset_shape("smollm2-135m"), KvType::F16, 1, context, window);
        QCOMPARE(p.device_bytes, device_bytes);
        QCOMPARE(p.host_bytes, host_bytes);
        QCOMPARE(p.device_tokens + p.host_tokens, context);
        QCOMPARE(p.streamed_bytes_per_step, host_bytes);
        QCOMPARE(p.moved_bytes_per_step(), moved);
        QCOMPARE(p.device_bytes + p.host_bytes,
                 lmscope::kv::cache_bytes(preset_shape("smollm2-135m"), KvType::F16, context));
    }
};

QTEST_APPLESS_MAIN(TestKvMath)
#include "test_kv_math.moc"
