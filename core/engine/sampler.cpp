#include "engine/sampler.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace lmscope::engine {

// ---- Rng -------------------------------------------------------------------------------------

namespace {

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

void Rng::reseed(uint64_t seed) {
    uint64_t state = seed;
    for (uint64_t& word : s_) word = splitmix64(state);
}

uint64_t Rng::next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

double Rng::next_double() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

// ---- settings and names ----------------------------------------------------------------------

void validate(const SamplerSettings& s) {
    auto fail = [](const std::string& what) { throw UsageError("sampler: " + what); };
    if (!(s.temperature >= 0.0f) || !std::isfinite(s.temperature))
        fail("temperature must be a finite number >= 0 (0 = greedy), got " +
             std::to_string(s.temperature));
    if (s.top_k < 0) fail("top_k must be >= 0 (0 = off), got " + std::to_string(s.top_k));
    if (!(s.top_p > 0.0f && s.top_p <= 1.0f))
        fail("top_p must be in (0, 1] (1 = off), got " + std::to_string(s.top_p));
    if (!(s.min_p >= 0.0f && s.min_p <= 1.0f))
        fail("min_p must be in [0, 1] (0 = off), got " + std::to_string(s.min_p));
    if (!(s.repeat_penalty > 0.0f) || !std::isfinite(s.repeat_penalty))
        fail("repeat_penalty must be a finite number > 0 (1 = off), got " +
             std::to_string(s.repeat_penalty));
    if (s.repeat_window < 0)
        fail("repeat_window must be >= 0, got " + std::to_string(s.repeat_window));
    if (s.report_k < 1 || s.report_k > 1000)
        fail("report_k must be in 1 .. 1000, got " + std::to_string(s.report_k));
}

// ---- helpers over a dense row ----------------------------------------------------------------

namespace {

// The r best ids of `values` (higher first, lower id first on ties), in one pass.
std::vector<int32_t> best_ids(std::span<const float> values, size_t r) {
    std::vector<int32_t> best;
    best.reserve(r + 1);
    for (size_t i = 0; i < values.size(); ++i) {
        const float v = values[i];
        if (best.size() == r && !(v > values[size_t(best.back())])) continue;
        size_t pos = best.size();
        while (pos > 0 && v > values[size_t(best[pos - 1])]) --pos;
        best.insert(best.begin() + std::ptrdiff_t(pos), static_cast<int32_t>(i));
        if (best.size() > r) best.pop_back();
    }
    return best;
}

// Softmax statistics of a whole row: the stage report of an unfiltered distribution.
// Returns {max, sum of exp(x - max)} so the caller can compute any token's probability.
std::pair<double, double> full_softmax(std::span<const float> x, size_t report_k,
                                       StageReport& stage) {
    double mx = -std::numeric_limits<double>::infinity();
    for (float v : x) mx = std::max(mx, double(v));
    double z = 0.0, zd = 0.0;  // sum e, sum e * (x - max)
    for (float v : x) {
        const float d = float(double(v) - mx);
        const double e = std::exp(d);  // float exp: half the cost, ample for a report
        z += e;
        if (e > 0.0) zd += e * d;
    }
    stage.n_kept = x.size();
    stage.entropy = std::max(0.0, std::log(z) - zd / z);
    stage.top.clear();
    for (int32_t id : best_ids(x, report_k))
        stage.top.push_back({id, x[size_t(id)], float(std::exp(double(x[size_t(id)]) - mx) / z)});
    return {mx, z};
}

}  // namespace

// ---- Sampler ---------------------------------------------------------------------------------

Sampler::Sampler(const SamplerSettings& settings) : rng_(settings.seed) {
    validate(settings);
    settings_ = settings;
}

void Sampler::set_settings(const SamplerSettings& settings) {
    validate(settings);
    settings_ = settings;
}

bool Sampler::better(int32_t a, int32_t b) const {
    const float va = scaled_[size_t(a)], vb = scaled_[size_t(b)];
    return va > vb || (va == vb && a < b);
}

void Sampler::apply_penalty(std::span<const float> logits, std::span<const int32_t> history) {
    penalised_.assign(logits.begin(), logits.end());
    const size_t window = std::min(history.size(), size_t(settings_.repeat_window));
    const auto recent = history.subspan(history.size() - window);
    const double r = settings_.repeat_penalty;
    const double lim = std::numeric_limits<float>::max();
    for (int32_t id : recent) {
        if (id < 0 || size_t(id) >= logits.size())
            throw UsageError("sampler: history token " + std::to_string(id) +
                             " is outside the vocabulary of " + std::to_string(logits.size()));
        if (flag_[size_t(id)]) continue;  // each token is penalised once
        flag_[size_t(id)] = 1;
        const double l = penalised_[size_t(id)];
        penalised_[size_t(id)] = float(std::clamp(l > 0.0 ? l / r : l * r, -lim, lim));
    }
    for (int32_t id : recent) flag_[size_t(id)] = 0;
}

// Makes order_[0, count) the `count` best kept ids, sorted (count <= kept_).
void Sampler::ensure_sorted(size_t count) {
    if (count <= sorted_) return;
    auto cmp = [this](int32_t a, int32_t b) { return better(a, b); };
    const auto first = order_.begin() + std::ptrdiff_t(sorted_);
    const auto mid = order_.begin() + std::ptrdiff_t(count);
    if (count < kept_) std::nth_element(first, mid, order_.begin() + std::ptrdiff_t(kept_), cmp);
    std::sort(first, mid, cmp);
    sorted_ = count;
}

double Sampler::kept_mass() const {
    double z = 0.0;
    if (kept_ == weight_.size()) {
        for (float w : weight_) z += w;
    } else {
        for (size_t i = 0; i < kept_; ++i) z += weight_[size_t(order_[i])];
    }
    return z;
}

namespace {
// Sets this small are simply sorted; larger ones go through selection or the histogram.
constexpr size_t kSmallSet = 1024;
constexpr size_t kTopPBuckets = 4096;
// exp() of anything below this is 0 in float: such tokens share the lowest top-p bucket.
constexpr float kLowestWeightLog = -104.0f;
}  // namespace

// Keeps the k best kept tokens (k < kept_): the k-th best value by selection on a copy of the
// values, then every token above it and the lowest ids among those equal to it.
void Sampler::filter_top_k(size_t k) {
    values_.resize(kept_);
    for (size_t i = 0; i < kept_; ++i) values_[i] = scaled_[size_t(order_[i])];
    std::nth_element(values_.begin(), values_.begin() + std::ptrdiff_t(k - 1), values_.end(),
                     std::greater<float>());
    const float kth = values_[k - 1];
    ids_.clear();
    for (size_t i = 0; i < kept_; ++i)
        if (scaled_[size_t(order_[i])] > kth) ids_.push_back(order_[i]);
    const size_t above = ids_.size();
    for (size_t i = 0; i < kept_; ++i)
        if (scaled_[size_t(order_[i])] == kth) ids_.push_back(order_[i]);
    std::sort(ids_.begin() + std::ptrdiff_t(above), ids_.end());  // ties: lowest ids first
    std::copy(ids_.begin(), ids_.begin() + std::ptrdiff_t(k), order_.begin());
    kept_ = k;
    sorted_ = 0;
    if (k <= kSmallSet) ensure_sorted(k);
}

// Walks order_[begin, end) adding weights to `cum`; returns the end of the prefix whose
// cumulative weight first reaches `target` (end when it never does).
size_t Sampler::cut_at_mass(size_t begin, size_t end, double cum, double target) const {
    for (size_t pos = begin; pos < end; ++pos) {
        cum += weight_[size_t(order_[pos])];
        if (cum >= target) return pos + 1;
    }
    return end;
}

// Keeps the smallest best-first prefix whose mass reaches top_p of the kept mass. A histogram
// of the weight by value finds the bucket where the cut falls; only that bucket is sorted.
void Sampler::filter_top_p() {
    const double target = double(settings_.top_p) * kept_mass();
    if (kept_ <= kSmallSet) {
        ensure_sorted(kept_);
        kept_ = sorted_ = cut_at_mass(0, kept_, 0.0, target);
        return;
    }
    float lo = 0.0f;
    for (size_t i = 0; i < kept_; ++i) lo = std::min(lo, scaled_[size_t(order_[i])]);
    lo = std::max(lo, kLowestWeightLog);
    const float per_unit = lo < 0.0f ? float(kTopPBuckets) / -lo : 0.0f;
    auto bucket = [&](int32_t id) {
        const float v = scaled_[size_t(id)];
        if (v <= lo) return size_t(0);
        return std::min(kTopPBuckets - 1, size_t((v - lo) * per_unit));
    };
    bucket_mass_.assign(kTopPBuckets, 0.0);
    for (size_t i = 0; i < kept_; ++i) bucket_mass_[bucket(order_[i])] += weight_[size_t(order_[i])];
    double cum = 0.0;
    size_t cut = kTopPBuckets;  // the bucket where the mass reaches the target
    for (size_t b = kTopPBuckets; b-- > 0;) {
        if (cum + bucket_mass_[b] >= target) {
            cut = b;
            break;
        }
        cum += bucket_mass_[b];
    }
    if (cut == kTopPBuckets) return;  // rounding: the whole set was needed
    // Regroup: the buckets above the cut, then the cut bucket (sorted), then the rest.
    ids_.clear();
    for (size_t i = 0; i < kept_; ++i)
        if (bucket(order_[i]) > cut) ids_.push_back(order_[i]);
    const size_t above = ids_.size();
    for (size_t i = 0; i < kept_; ++i)
        if (bucket(order_[i]) == cut) ids_.push_back(order_[i]);
    std::copy(ids_.begin(), ids_.end(), order_.begin());
    auto cmp = [this](int32_t a, int32_t b) { return better(a, b); };
    const auto first = order_.begin();
    std::sort(first + std::ptrdiff_t(above), first + std::ptrdiff_t(ids_.size()), cmp);
    kept_ = cut_at_mass(above, ids_.size(), cum, target);
    sorted_ = 0;
    if (above <= kSmallSet) {  // every token above the cut bucket beats it: all in order
        std::sort(first, first + std::ptrdiff_t(above), cmp);
        sorted_ = kept_;
    }
}

// Keeps tokens with p >= min_p * p_max, i.e. scaled >= log(min_p) (the best has scaled 0).
void Sampler::filter_min_p() {
    const float threshold = std::log(settings_.min_p);
    auto keep = [&](int32_t id) { return scaled_[size_t(id)] >= threshold; };
    const auto begin = order_.begin();
    if (sorted_ > 0 && !keep(order_[sorted_ - 1])) {
        // The cut lies inside the sorted prefix.
        sorted_ = size_t(std::partition_point(begin, begin + std::ptrdiff_t(sorted_), keep) - begin);
        kept_ = sorted_;
        return;
    }
    const auto end = std::partition(begin + std::ptrdiff_t(sorted_), begin + std::ptrdiff_t(kept_), keep);
    kept_ = size_t(end - begin);
}

// Entropy, survivors and top candidates of the kept set. The kept set is always a best-first
// prefix of the whole order, so its top candidates are a prefix of best_.
void Sampler::fill_stage(StageReport& stage, bool active) const {
    double z = 0.0, zd = 0.0;
    auto add = [&](size_t id) {
        const double w = weight_[id];
        z += w;
        if (w > 0.0) zd += w * double(scaled_[id]);
    };
    if (kept_ == weight_.size()) {
        for (size_t id = 0; id < kept_; ++id) add(id);
    } else {
        for (size_t i = 0; i < kept_; ++i) add(size_t(order_[i]));
    }
    stage.active = active;
    stage.n_kept = kept_;
    stage.entropy = std::max(0.0, std::log(z) - zd / z);
    stage.top.clear();
    const double t = settings_.temperature;
    for (size_t i = 0; i < std::min(best_.size(), kept_); ++i) {
        const size_t id = size_t(best_[i]);
        stage.top.push_back({best_[i], float(double(penalised_[id]) / t), float(weight_[id] / z)});
    }
}

namespace {

void check_logits(std::span<const float> logits) {
    const size_t n = logits.size();
    if (n == 0) throw Error("sampler: the logits row is empty");
    if (n > size_t(std::numeric_limits<int32_t>::max()))
        throw UsageError("sampler: " + std::to_string(n) + " logits exceed the token id range");
    for (size_t i = 0; i < n; ++i)
        if (!std::isfinite(logits[i]))
            throw Error("sampler: the logit of token " + std::to_string(i) + " is " +
                        (std::isnan(logits[i]) ? "NaN" : "infinite"));
}

// A stage that removed nothing repeats the distribution of the one before it.
void repeat_stage(StageReport& stage, const StageReport& before, bool active) {
    stage.n_kept = before.n_kept;
    stage.entropy = before.entropy;
    stage.top = before.top;
    stage.active = active;
}

}  // namespace

void Sampler::run_pipeline(std::span<const float> logits, std::span<const int32_t> history,
                             SampleReport& report) {
    check_logits(logits);
    for (size_t s = 0; s < kStageCount; ++s) report.stages[s].stage = static_cast<Stage>(s);
    auto stage = [&report](Stage s) -> StageReport& { return report.stages[static_cast<size_t>(s)]; };
    const size_t report_k = size_t(settings_.report_k);
    const size_t n = logits.size();

    stage(Stage::Raw).active = true;
    const auto [raw_max, raw_z] = full_softmax(logits, report_k, stage(Stage::Raw));
    raw_max_ = raw_max;
    raw_z_ = raw_z;

    if (flag_.size() != n) flag_.assign(n, 0);  // every use clears its marks again
    const bool penalty = settings_.repeat_penalty != 1.0f && settings_.repeat_window > 0 && !history.empty();
    if (penalty) {
        apply_penalty(logits, history);
        full_softmax(penalised_, report_k, stage(Stage::Penalty));
    } else {
        penalised_.assign(logits.begin(), logits.end());
        repeat_stage(stage(Stage::Penalty), stage(Stage::Raw), false);
    }
    stage(Stage::Penalty).active = penalty;

    order_.resize(n);
    greedy_ = settings_.temperature == 0.0f;
    if (greedy_) return pick_greedy(report);
    scale_by_temperature(report_k);
    // A filter that removed nothing repeats the previous stage's report.
    auto report_filter = [&](Stage s, bool active, size_t kept_before) {
        if (kept_ == kept_before) repeat_stage(stage(s), stage(Stage(size_t(s) - 1)), active);
        else fill_stage(stage(s), active);
    };
    if (settings_.temperature != 1.0f) {
        fill_stage(stage(Stage::Temperature), true);
    } else {
        report_filter(Stage::Temperature, false, kept_);  // T = 1: the penalty stage's distribution
        for (Candidate& c : stage(Stage::Temperature).top) c.logit = penalised_[size_t(c.id)];
    }

    size_t before = kept_;
    const bool top_k = settings_.top_k > 0;
    if (top_k && size_t(settings_.top_k) < kept_) filter_top_k(size_t(settings_.top_k));
    report_filter(Stage::TopK, top_k, before);

    before = kept_;
    const bool top_p = settings_.top_p < 1.0f;
    if (top_p) filter_top_p();
    report_filter(Stage::TopP, top_p, before);

    before = kept_;
    const bool min_p = settings_.min_p > 0.0f;
    if (min_p) filter_min_p();
    report_filter(Stage::MinP, min_p, before);
}

// Temperature 0: a one-hot on the (first) argmax; the filters have nothing to remove.
void Sampler::pick_greedy(SampleReport& report) {
    const auto best = std::max_element(penalised_.begin(), penalised_.end());
    const int32_t id = static_cast<int32_t>(best - penalised_.begin());
    order_[0] = id;
    kept_ = sorted_ = 1;
    StageReport& t = report.stages[static_cast<size_t>(Stage::Temperature)];
    t.active = true;
    t.n_kept = 1;
    t.entropy = 0.0;
    t.top = {{id, *best, 1.0f}};
    for (size_t s = static_cast<size_t>(Stage::Temperature) + 1; s < kStageCount; ++s)
        repeat_stage(report.stages[s], t, false);
}

// scaled_ = (penalised - max) / T and its weights, every token kept, none sorted yet.
void Sampler::scale_by_temperature(size_t report_k) {
    const size_t n = penalised_.size();
    const float pmax = *std::max_element(penalised_.begin(), penalised_.end());
    const float t = settings_.temperature;  // divided, not multiplied by 1 / t: t may be tiny
    scaled_.resize(n);
    weight_.resize(n);
    for (size_t i = 0; i < n; ++i) {
        scaled_[i] = (penalised_[i] - pmax) / t;
        weight_[i] = std::exp(scaled_[i]);
    }
    std::iota(order_.begin(), order_.end(), 0);
    kept_ = n;
    sorted_ = 0;
    best_ = best_ids(scaled_, report_k);
}

// The final distribution's probability of `token` (0 when a filter removed it).
float Sampler::final_prob(int32_t token) {
    if (greedy_) return token == order_[0] ? 1.0f : 0.0f;
    double z = 0.0;
    bool kept = false;
    for (size_t i = 0; i < kept_; ++i) {
        z += weight_[size_t(order_[i])];
        kept = kept || order_[i] == token;
    }
    return kept ? float(weight_[size_t(token)] / z) : 0.0f;
}

// Walks the kept tokens in id order (independent of how the filters ordered them) and returns
// the first whose cumulative weight exceeds u times the total.
int32_t Sampler::draw(double u) {
    const size_t n = weight_.size();
    auto walk = [&](auto&& for_each_kept) {
        double z = 0.0;
        int32_t last = 0;
        for_each_kept([&](int32_t id) {
            z += weight_[size_t(id)];
            last = id;
            return true;
        });
        const double target = u * z;
        double cum = 0.0;
        int32_t chosen = last;  // rounding: u * z may exceed the summed weights by an ulp
        for_each_kept([&](int32_t id) {
            cum += weight_[size_t(id)];
            if (cum <= target) return true;
            chosen = id;
            return false;
        });
        return chosen;
    };
    if (kept_ == n) {
        return walk([&](auto&& f) {
            for (size_t id = 0; id < n; ++id)
                if (!f(int32_t(id))) return;
        });
    }
    if (kept_ <= kSmallSet) {
        ids_.assign(order_.begin(), order_.begin() + std::ptrdiff_t(kept_));
        std::sort(ids_.begin(), ids_.end());
        return walk([&](auto&& f) {
            for (int32_t id : ids_)
                if (!f(id)) return;
        });
    }
    for (size_t i = 0; i < kept_; ++i) flag_[size_t(order_[i])] = 1;
    const int32_t chosen = walk([&](auto&& f) {
        for (size_t id = 0; id < n; ++id)
            if (flag_[id] && !f(int32_t(id))) return;
    });
    for (size_t i = 0; i < kept_; ++i) flag_[size_t(order_[i])] = 0;
    return chosen;
}

SampleReport Sampler::sample(std::span<const float> logits, std::span<const int32_t> history) {
    SampleReport report;
    run_pipeline(logits, history, report);
    if (greedy_) {
        report.token = order_[0];
        report.how = Choice::Greedy;
    } else {
        report.token = draw(rng_.next_double());
        report.how = Choice::Sampled;
    }
    report.prob = final_prob(report.token);
    report.raw_prob = float(std::exp(double(logits[size_t(report.token)]) - raw_max_) / raw_z_);
    return report;
}

SampleReport Sampler::force(std::span<const float> logits, std::span<const int32_t> history,
                            int32_t token) {
    if (token < 0 || size_t(token) >= logits.size())
        throw UsageError("sampler: forced token " + std::to_string(token) +
                         " is outside the vocabulary of " + std::to_string(logits.size()));
    SampleReport report;
    run_pipeline(logits, history, report);
    report.token = token;
    report.how = Choice::Forced;
    report.prob = final_prob(token);
    report.raw_prob = float(std::exp(double(logits[size_t(token)]) - raw_max_) / raw_z_);
    return report;
}

}  // namespace lmscope::engine
