// The sampler: greedy, each filter against hand-computed cases, a naive full-sort reference on
// large random rows, seeded reproducibility, draw statistics, forced tokens, the repetition
// penalty, and the errors.
#include "engine/sampler.h"
#include "util/error.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

using lmscope::Choice;
using lmscope::engine::Rng;
using lmscope::engine::SampleReport;
using lmscope::engine::Sampler;
using lmscope::engine::SamplerSettings;
using lmscope::Stage;

Q_DECLARE_METATYPE(std::vector<float>)
Q_DECLARE_METATYPE(std::vector<int32_t>)
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(SamplerSettings)

namespace {

// Logits whose softmax is exactly `probs` (up to rounding).
std::vector<float> logits_of(const std::vector<double>& probs) {
    std::vector<float> l;
    for (double p : probs) l.push_back(float(std::log(p)));
    return l;
}

// The textbook pipeline with full sorts, in double: the kept ids (best first) and their final
// probabilities, for comparing against the sampler's selection-based one.
struct Reference {
    std::vector<int32_t> kept;
    std::vector<double> prob;
};
Reference reference(const std::vector<float>& logits, const SamplerSettings& s) {
    const size_t n = logits.size();
    std::vector<double> x(n);
    const double mx = *std::max_element(logits.begin(), logits.end());
    for (size_t i = 0; i < n; ++i) x[i] = (double(logits[i]) - mx) / s.temperature;
    std::vector<int32_t> ids(n);
    std::iota(ids.begin(), ids.end(), 0);
    std::sort(ids.begin(), ids.end(), [&](int32_t a, int32_t b) {
        return x[size_t(a)] > x[size_t(b)] || (x[size_t(a)] == x[size_t(b)] && a < b);
    });
    if (s.top_k > 0 && size_t(s.top_k) < ids.size()) ids.resize(size_t(s.top_k));
    auto mass = [&] {
        double z = 0;
        for (int32_t id : ids) z += std::exp(x[size_t(id)]);
        return z;
    };
    if (s.top_p < 1.0f) {
        const double z = mass();
        double cum = 0;
        for (size_t i = 0; i < ids.size(); ++i) {
            cum += std::exp(x[size_t(ids[i])]) / z;
            if (cum >= s.top_p) {
                ids.resize(i + 1);
                break;
            }
        }
    }
    if (s.min_p > 0.0f) {
        const double best = std::exp(x[size_t(ids[0])]);
        std::erase_if(ids, [&](int32_t id) { return std::exp(x[size_t(id)]) < s.min_p * best; });
    }
    Reference r;
    r.kept = ids;
    const double z = mass();
    for (int32_t id : ids) r.prob.push_back(std::exp(x[size_t(id)]) / z);
    return r;
}

std::vector<float> random_logits(size_t n, uint64_t seed, double scale) {
    Rng rng(seed);
    std::vector<float> l(n);
    for (float& v : l) v = float((rng.next_double() * 2.0 - 1.0) * scale);
    return l;
}

}  // namespace

class TestSampler : public QObject {
    Q_OBJECT

private slots:
    void rng_matches_the_published_algorithm() {
        // splitmix64(0) is the published first output 0xe220a8397b1dcdaf; the xoshiro256**
        // words below were computed independently from the algorithm's definition.
        Rng zero(0);
        QCOMPARE(zero.next(), 0x99ec5f36cb75f2b4ull);
        QCOMPARE(zero.next(), 0xbf6e1f784956452aull);
        QCOMPARE(zero.next(), 0x1a5f849d4933e6e0ull);
        QCOMPARE(zero.next(), 0x6aa594f1262d2d2cull);
        Rng answer(42);
        QCOMPARE(answer.next(), 0x15780b2e0c2ec716ull);
        QCOMPARE(answer.next(), 0x6104d9866d113a7eull);
        double lo = 1, hi = 0;
        for (int i = 0; i < 10000; ++i) {
            const double u = answer.next_double();
            lo = std::min(lo, u);
            hi = std::max(hi, u);
        }
        QVERIFY(lo >= 0.0 && lo < 0.01);
        QVERIFY(hi < 1.0 && hi > 0.99);
    }

    void greedy_is_argmax_data() {
        QTest::addColumn<std::vector<float>>("logits");
        QTest::addColumn<int32_t>("expected");
        QTest::newRow("first") << std::vector<float>{5, 1, 2} << 0;
        QTest::newRow("last") << std::vector<float>{-3, -2, -1} << 2;
        QTest::newRow("middle") << std::vector<float>{0.1f, 0.3f, 0.2f, -7} << 1;
        QTest::newRow("tie takes the lower id") << std::vector<float>{1, 4, 4, 2} << 1;
        QTest::newRow("single") << std::vector<float>{-1e30f} << 0;
    }
    void greedy_is_argmax() {
        QFETCH(std::vector<float>, logits);
        QFETCH(int32_t, expected);
        SamplerSettings s;
        s.temperature = 0.0f;
        s.top_k = 2;  // ignored by greedy
        Sampler sampler(s);
        const SampleReport r = sampler.sample(logits);
        QCOMPARE(r.token, expected);
        QCOMPARE(r.how, Choice::Greedy);
        QCOMPARE(r.prob, 1.0f);
        QCOMPARE(r.entropy_final(), 0.0);
        QCOMPARE(r.final_stage().n_kept, size_t(1));
        QVERIFY(!r.stage(Stage::TopK).active);
    }

    // Probabilities 0.5 0.2 0.15 0.1 0.05 placed out of order (ids 3 0 4 1 2 by rank).
    void filters_data() {
        QTest::addColumn<SamplerSettings>("settings");
        QTest::addColumn<std::vector<int32_t>>("kept");      // best first
        QTest::addColumn<std::vector<float>>("final_prob");  // of `kept`
        auto set = [](float t, int k, float p, float m) {
            SamplerSettings s;
            s.temperature = t;
            s.top_k = k;
            s.top_p = p;
            s.min_p = m;
            return s;
        };
        QTest::newRow("no filter") << set(1, 0, 1, 0) << std::vector<int32_t>{3, 0, 4, 1, 2}
                                   << std::vector<float>{0.5f, 0.2f, 0.15f, 0.1f, 0.05f};
        QTest::newRow("top_k 2") << set(1, 2, 1, 0) << std::vector<int32_t>{3, 0}
                                 << std::vector<float>{0.5f / 0.7f, 0.2f / 0.7f};
        QTest::newRow("top_k 1") << set(1, 1, 1, 0) << std::vector<int32_t>{3} << std::vector<float>{1};
        QTest::newRow("top_k above n") << set(1, 50, 1, 0) << std::vector<int32_t>{3, 0, 4, 1, 2}
                                       << std::vector<float>{0.5f, 0.2f, 0.15f, 0.1f, 0.05f};
        QTest::newRow("top_p 0.45") << set(1, 0, 0.45f, 0) << std::vector<int32_t>{3} << std::vector<float>{1};
        QTest::newRow("top_p 0.69") << set(1, 0, 0.69f, 0) << std::vector<int32_t>{3, 0}
                                    << std::vector<float>{0.5f / 0.7f, 0.2f / 0.7f};
        QTest::newRow("top_p 0.8") << set(1, 0, 0.8f, 0) << std::vector<int32_t>{3, 0, 4}
                                   << std::vector<float>{0.5f / 0.85f, 0.2f / 0.85f, 0.15f / 0.85f};
        QTest::newRow("top_p 0.9") << set(1, 0, 0.9f, 0) << std::vector<int32_t>{3, 0, 4, 1}
                                   << std::vector<float>{0.5f / 0.95f, 0.2f / 0.95f, 0.15f / 0.95f, 0.1f / 0.95f};
        QTest::newRow("min_p 0.25") << set(1, 0, 1, 0.25f) << std::vector<int32_t>{3, 0, 4}
                                    << std::vector<float>{0.5f / 0.85f, 0.2f / 0.85f, 0.15f / 0.85f};
        QTest::newRow("min_p 0.35") << set(1, 0, 1, 0.35f) << std::vector<int32_t>{3, 0}
                                    << std::vector<float>{0.5f / 0.7f, 0.2f / 0.7f};
        QTest::newRow("min_p 1") << set(1, 0, 1, 1) << std::vector<int32_t>{3} << std::vector<float>{1};
        // top_k 4 renormalises to .5 .2 .15 .1 over .95; top_p 0.75 then needs .5+.2+.15.
        QTest::newRow("top_k 4 then top_p 0.75") << set(1, 4, 0.75f, 0) << std::vector<int32_t>{3, 0, 4}
                                                 << std::vector<float>{0.5f / 0.85f, 0.2f / 0.85f, 0.15f / 0.85f};
        // T = 0.5 squares the probabilities: .25 .04 .0225 .01 .0025 over .325.
        QTest::newRow("temperature 0.5") << set(0.5f, 0, 1, 0) << std::vector<int32_t>{3, 0, 4, 1, 2}
                                         << std::vector<float>{0.25f / 0.325f, 0.04f / 0.325f, 0.0225f / 0.325f,
                                                               0.01f / 0.325f, 0.0025f / 0.325f};
        // After T = 0.5, p_max = .769: min_p 0.1 keeps p >= .0769, i.e. .25 and .04 (.123).
        QTest::newRow("temperature 0.5 then min_p 0.1") << set(0.5f, 0, 1, 0.1f) << std::vector<int32_t>{3, 0}
                                                        << std::vector<float>{0.25f / 0.29f, 0.04f / 0.29f};
    }
    void filters() {
        QFETCH(SamplerSettings, settings);
        QFETCH(std::vector<int32_t>, kept);
        QFETCH(std::vector<float>, final_prob);
        const std::vector<float> logits = logits_of({0.2, 0.1, 0.05, 0.5, 0.15});
        Sampler sampler(settings);
        const SampleReport r = sampler.sample(logits);
        const auto& fin = r.final_stage();
        QCOMPARE(fin.n_kept, kept.size());
        QCOMPARE(fin.top.size(), kept.size());
        for (size_t i = 0; i < kept.size(); ++i) {
            QCOMPARE(fin.top[i].id, kept[i]);
            QVERIFY2(std::abs(fin.top[i].prob - final_prob[i]) < 1e-5f,
                     qPrintable(QString("candidate %1: %2 vs %3").arg(i).arg(fin.top[i].prob).arg(final_prob[i])));
        }
        QVERIFY(std::find(kept.begin(), kept.end(), r.token) != kept.end());
        QCOMPARE(r.how, Choice::Sampled);
        // The raw stage is untouched by the settings.
        QCOMPARE(r.stage(Stage::Raw).n_kept, size_t(5));
        QCOMPARE(r.stage(Stage::Raw).top[0].id, 3);
        QVERIFY(std::abs(r.stage(Stage::Raw).top[0].prob - 0.5f) < 1e-6f);
        QVERIFY(std::abs(r.raw_prob - float(std::exp(logits[size_t(r.token)]))) < 1e-6f);
    }

    void stages_report_each_filter() {
        const std::vector<float> logits = logits_of({0.2, 0.1, 0.05, 0.5, 0.15});
        SamplerSettings s;
        s.temperature = 2.0f;
        s.top_k = 4;
        s.top_p = 0.6f;
        s.report_k = 3;
        const SampleReport r = Sampler(s).sample(logits);
        QCOMPARE(r.stage(Stage::Raw).top.size(), size_t(3));
        QVERIFY(!r.stage(Stage::Penalty).active);
        QVERIFY(r.stage(Stage::Temperature).active);
        // T = 2: probabilities ~ sqrt(p): .707 .447 .387 .316 .224 over 2.081.
        const double z = std::sqrt(.5) + std::sqrt(.2) + std::sqrt(.15) + std::sqrt(.1) + std::sqrt(.05);
        QVERIFY(std::abs(r.stage(Stage::Temperature).top[0].prob - std::sqrt(.5) / z) < 1e-6);
        QCOMPARE(r.stage(Stage::Temperature).top[0].logit, float(std::log(0.5) / 2));
        QCOMPARE(r.stage(Stage::TopK).n_kept, size_t(4));
        // Top-k 4 mass: z - sqrt(.05); top-p 0.6 then needs sqrt(.5) + sqrt(.2) (.626 >= .6).
        QCOMPARE(r.stage(Stage::TopP).n_kept, size_t(2));
        QCOMPARE(r.stage(Stage::MinP).n_kept, size_t(2));
        QVERIFY(!r.stage(Stage::MinP).active);
        const double p0 = std::sqrt(.5) / (std::sqrt(.5) + std::sqrt(.2));
        const double h = -(p0 * std::log(p0) + (1 - p0) * std::log(1 - p0));
        QVERIFY(std::abs(r.entropy_final() - h) < 1e-6);
        const double h_raw = -(.5 * std::log(.5) + .2 * std::log(.2) + .15 * std::log(.15) +
                               .1 * std::log(.1) + .05 * std::log(.05));
        QVERIFY(std::abs(r.entropy_raw() - h_raw) < 1e-6);
    }

    void uniform_entropy() {
        const std::vector<float> logits(8, 3.0f);
        SamplerSettings s;
        s.top_k = 2;
        const SampleReport r = Sampler(s).sample(logits);
        QVERIFY(std::abs(r.entropy_raw() - std::log(8.0)) < 1e-9);
        QVERIFY(std::abs(r.entropy_final() - std::log(2.0)) < 1e-9);
        // Ties keep the lowest ids.
        QCOMPARE(r.final_stage().top[0].id, 0);
        QCOMPARE(r.final_stage().top[1].id, 1);
        QVERIFY(r.token == 0 || r.token == 1);
    }

    void matches_full_sort_reference_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<SamplerSettings>("settings");
        QTest::addColumn<double>("scale");
        auto set = [](float t, int k, float p, float m) {
            SamplerSettings s;
            s.temperature = t;
            s.top_k = k;
            s.top_p = p;
            s.min_p = m;
            return s;
        };
        QTest::newRow("128256 k40 p0.9 m0.05") << 128256 << set(0.8f, 40, 0.9f, 0.05f) << 12.0;
        QTest::newRow("128256 p0.95 flat") << 128256 << set(1.0f, 0, 0.95f, 0) << 1.0;
        QTest::newRow("49152 p0.5 sharp") << 49152 << set(0.7f, 0, 0.5f, 0) << 20.0;
        QTest::newRow("49152 min_p 0.02") << 49152 << set(1.3f, 0, 1, 0.02f) << 8.0;
        QTest::newRow("49152 k1000 min_p 0.5") << 49152 << set(1.0f, 1000, 1, 0.5f) << 3.0;
        QTest::newRow("1000 all") << 1000 << set(1.5f, 300, 0.99f, 0.001f) << 5.0;
    }
    void matches_full_sort_reference() {
        QFETCH(int, n);
        QFETCH(SamplerSettings, settings);
        QFETCH(double, scale);
        settings.report_k = 1000;
        Sampler sampler(settings);
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            const std::vector<float> logits = random_logits(size_t(n), seed, scale);
            const Reference ref = reference(logits, settings);
            const SampleReport r = sampler.sample(logits);
            const auto& fin = r.final_stage();
            QCOMPARE(fin.n_kept, ref.kept.size());
            for (size_t i = 0; i < fin.top.size(); ++i) {
                QCOMPARE(fin.top[i].id, ref.kept[i]);
                QVERIFY(std::abs(fin.top[i].prob - ref.prob[i]) < 1e-5);
            }
            QVERIFY(std::find(ref.kept.begin(), ref.kept.end(), r.token) != ref.kept.end());
            const auto it = std::find(ref.kept.begin(), ref.kept.end(), r.token);
            QVERIFY(std::abs(r.prob - ref.prob[size_t(it - ref.kept.begin())]) < 1e-5);
        }
    }

    void seeded_runs_repeat() {
        SamplerSettings s;
        s.temperature = 1.1f;
        s.top_p = 0.95f;
        s.seed = 1234;
        std::vector<int32_t> a, b, c;
        Sampler sa(s), sb(s);
        s.seed = 1235;
        Sampler sc(s);
        for (uint64_t step = 0; step < 200; ++step) {
            const std::vector<float> logits = random_logits(2000, step, 4.0);
            a.push_back(sa.sample(logits).token);
            b.push_back(sb.sample(logits).token);
            c.push_back(sc.sample(logits).token);
        }
        QCOMPARE(a, b);
        QVERIFY(a != c);
        // reseed() restarts the sequence.
        sa.reseed(1234);
        QCOMPARE(sa.sample(random_logits(2000, 0, 4.0)).token, a[0]);
    }

    // Pearson chi-square of draw counts against the final distribution; the bound is the 0.999
    // quantile for the degrees of freedom (the seed is fixed, so the outcome is too).
    void draws_follow_the_distribution_data() {
        QTest::addColumn<SamplerSettings>("settings");
        QTest::addColumn<std::vector<double>>("expected");  // per id
        QTest::addColumn<double>("bound");
        SamplerSettings plain;
        plain.seed = 7;
        SamplerSettings k2 = plain;
        k2.top_k = 2;
        SamplerSettings hot = plain;
        hot.temperature = 2.0f;
        const double zh = std::sqrt(.4) + std::sqrt(.3) + std::sqrt(.2) + std::sqrt(.1);
        QTest::newRow("plain") << plain << std::vector<double>{.4, .3, .2, .1} << 16.27;
        QTest::newRow("top_k 2") << k2 << std::vector<double>{4. / 7, 3. / 7, 0, 0} << 10.83;
        QTest::newRow("temperature 2") << hot
                                       << std::vector<double>{std::sqrt(.4) / zh, std::sqrt(.3) / zh,
                                                              std::sqrt(.2) / zh, std::sqrt(.1) / zh}
                                       << 16.27;
    }
    void draws_follow_the_distribution() {
        QFETCH(SamplerSettings, settings);
        QFETCH(std::vector<double>, expected);
        QFETCH(double, bound);
        const std::vector<float> logits = logits_of({.4, .3, .2, .1});
        Sampler sampler(settings);
        const int draws = 40000;
        std::vector<int> count(4, 0);
        for (int i = 0; i < draws; ++i) ++count[size_t(sampler.sample(logits).token)];
        double chi2 = 0;
        for (size_t i = 0; i < 4; ++i) {
            if (expected[i] == 0) {
                QCOMPARE(count[i], 0);
                continue;
            }
            const double e = expected[i] * draws;
            chi2 += (count[i] - e) * (count[i] - e) / e;
        }
        QVERIFY2(chi2 < bound, qPrintable(QString("chi-square %1 >= %2").arg(chi2).arg(bound)));
    }

    void forced_tokens() {
        const std::vector<float> logits = logits_of({0.2, 0.1, 0.05, 0.5, 0.15});
        SamplerSettings s;
        s.top_k = 2;
        s.seed = 99;
        Sampler forced(s), fresh(s);
        SampleReport r = forced.force(logits, {}, 0);
        QCOMPARE(r.token, 0);
        QCOMPARE(r.how, Choice::Forced);
        QVERIFY(std::abs(r.prob - 0.2f / 0.7f) < 1e-6f);
        QVERIFY(std::abs(r.raw_prob - 0.2f) < 1e-6f);
        r = forced.force(logits, {}, 2);  // removed by top-k
        QCOMPARE(r.prob, 0.0f);
        QVERIFY(std::abs(r.raw_prob - 0.05f) < 1e-6f);
        QCOMPARE(r.final_stage().n_kept, size_t(2));
        // Forcing draws no random number: the next samples match a fresh sampler's.
        for (int i = 0; i < 20; ++i) QCOMPARE(forced.sample(logits).token, fresh.sample(logits).token);
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, forced.force(logits, {}, 5));
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, forced.force(logits, {}, -1));
        // Greedy: the forced token has probability 0 unless it is the argmax.
        s.temperature = 0;
        Sampler greedy(s);
        QCOMPARE(greedy.force(logits, {}, 3).prob, 1.0f);
        QCOMPARE(greedy.force(logits, {}, 1).prob, 0.0f);
    }

    void repetition_penalty_data() {
        QTest::addColumn<std::vector<int32_t>>("history");
        QTest::addColumn<int>("window");
        QTest::addColumn<float>("penalty");
        QTest::addColumn<std::vector<float>>("penalised");  // logits after the penalty
        QTest::addColumn<int32_t>("greedy");
        QTest::newRow("positive divided, negative multiplied")
            << std::vector<int32_t>{0, 1} << 64 << 2.0f << std::vector<float>{1.0f, -2.0f, 1.5f} << 2;
        QTest::newRow("repeats penalised once")
            << std::vector<int32_t>{0, 0, 0} << 64 << 2.0f << std::vector<float>{1.0f, -1.0f, 1.5f} << 2;
        QTest::newRow("window of 1 sees only the last token")
            << std::vector<int32_t>{0, 2} << 1 << 2.0f << std::vector<float>{2.0f, -1.0f, 0.75f} << 0;
        QTest::newRow("window 0 is off")
            << std::vector<int32_t>{0} << 0 << 2.0f << std::vector<float>{2.0f, -1.0f, 1.5f} << 0;
        QTest::newRow("penalty below 1 boosts")
            << std::vector<int32_t>{1} << 64 << 0.5f << std::vector<float>{2.0f, -0.5f, 1.5f} << 0;
    }
    void repetition_penalty() {
        QFETCH(std::vector<int32_t>, history);
        QFETCH(int, window);
        QFETCH(float, penalty);
        QFETCH(std::vector<float>, penalised);
        QFETCH(int32_t, greedy);
        const std::vector<float> logits{2.0f, -1.0f, 1.5f};
        SamplerSettings s;
        s.temperature = 0;
        s.repeat_penalty = penalty;
        s.repeat_window = window;
        const SampleReport r = Sampler(s).sample(logits, history);
        QCOMPARE(r.token, greedy);
        const auto& stage = r.stage(Stage::Penalty);
        QCOMPARE(stage.active, window > 0);
        QCOMPARE(stage.top.size(), size_t(3));
        for (const auto& c : stage.top) QCOMPARE(c.logit, penalised[size_t(c.id)]);
        // The raw stage still shows the model's own logits.
        QCOMPARE(r.stage(Stage::Raw).top[0].id, 0);
        QCOMPARE(r.stage(Stage::Raw).top[0].logit, 2.0f);
    }

    void bad_history_is_rejected() {
        SamplerSettings s;
        s.repeat_penalty = 1.3f;
        Sampler sampler(s);
        const std::vector<float> logits{1, 2, 3};
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, sampler.sample(logits, std::vector<int32_t>{1, 3}));
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, sampler.sample(logits, std::vector<int32_t>{-2}));
    }

    void invalid_settings_data() {
        QTest::addColumn<SamplerSettings>("settings");
        QTest::addColumn<QString>("mentions");
        const float nan = std::numeric_limits<float>::quiet_NaN();
        auto with = [&](auto member, auto value) {
            SamplerSettings t;
            t.*member = value;
            return t;
        };
        QTest::newRow("negative temperature") << with(&SamplerSettings::temperature, -0.1f) << QString("temperature");
        QTest::newRow("NaN temperature") << with(&SamplerSettings::temperature, nan) << QString("temperature");
        QTest::newRow("infinite temperature")
            << with(&SamplerSettings::temperature, std::numeric_limits<float>::infinity()) << QString("temperature");
        QTest::newRow("top_p 0") << with(&SamplerSettings::top_p, 0.0f) << QString("top_p");
        QTest::newRow("top_p 1.5") << with(&SamplerSettings::top_p, 1.5f) << QString("top_p");
        QTest::newRow("top_p NaN") << with(&SamplerSettings::top_p, nan) << QString("top_p");
        QTest::newRow("min_p -0.1") << with(&SamplerSettings::min_p, -0.1f) << QString("min_p");
        QTest::newRow("min_p NaN") << with(&SamplerSettings::min_p, nan) << QString("min_p");
        QTest::newRow("top_k -1") << with(&SamplerSettings::top_k, -1) << QString("top_k");
        QTest::newRow("penalty 0") << with(&SamplerSettings::repeat_penalty, 0.0f) << QString("repeat_penalty");
        QTest::newRow("window -1") << with(&SamplerSettings::repeat_window, -1) << QString("repeat_window");
        QTest::newRow("report_k 0") << with(&SamplerSettings::report_k, 0) << QString("report_k");
    }
    void invalid_settings() {
        QFETCH(SamplerSettings, settings);
        QFETCH(QString, mentions);
        try {
            Sampler sampler(settings);
            QFAIL("no UsageError");
        } catch (const lmscope::UsageError& e) {
            QVERIFY2(QString(e.what()).contains(mentions), e.what());
        }
        Sampler ok;
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError, ok.set_settings(settings));
    }

    void non_finite_logits_are_errors_data() {
        QTest::addColumn<float>("bad");
        QTest::addColumn<QString>("word");
        QTest::newRow("NaN") << std::numeric_limits<float>::quiet_NaN() << QString("NaN");
        QTest::newRow("+inf") << std::numeric_limits<float>::infinity() << QString("infinite");
        QTest::newRow("-inf") << -std::numeric_limits<float>::infinity() << QString("infinite");
    }
    void non_finite_logits_are_errors() {
        QFETCH(float, bad);
        QFETCH(QString, word);
        std::vector<float> logits{0.5f, 1.0f, 0.25f, 2.0f};
        logits[2] = bad;
        Sampler sampler;
        try {
            sampler.sample(logits);
            QFAIL("no Error");
        } catch (const lmscope::UsageError&) {
            QFAIL("a bad logit is not a usage error");
        } catch (const lmscope::Error& e) {
            QVERIFY2(QString(e.what()).contains("token 2") && QString(e.what()).contains(word), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(lmscope::Error, sampler.sample(std::vector<float>{}));
    }
};

QTEST_APPLESS_MAIN(TestSampler)
#include "test_sampler.moc"
