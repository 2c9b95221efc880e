// The sampler: turns one row of logits into the next token, and reports the distribution
// before and after each step of the pipeline so the app can show what every setting does.
//
// Pipeline (each stage sees the previous stage's survivors, probabilities renormalised):
//   Raw          softmax of the logits as the model produced them
//   Penalty      repetition penalty on the tokens of the recent window (l > 0: l / r, else l * r)
//   Temperature  logits / T; T = 0 means greedy: a one-hot on the argmax (filters skipped)
//   TopK         keep the k most probable tokens
//   TopP         keep the smallest most-probable set whose mass reaches p
//   MinP         keep tokens with p >= min_p * p_max
// then one token is drawn from the final distribution with the sampler's own RNG.
//
// Ties are broken by the lower token id everywhere, so the kept sets are well defined and the
// draw walks the kept tokens in id order: the same seed, settings and logits give the same
// token on every platform (the RNG is integer-only xoshiro256**).
//
// Cost per call is O(n_vocab): top-k selects by value (nth_element), top-p finds its cut with a
// histogram of the weights and sorts only the bucket the cut falls in; no full sort per step.
#pragma once

#include "util/types.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lmscope::engine {

// xoshiro256** (Blackman and Vigna), seeded through splitmix64. Integer arithmetic only, so a
// seed gives the same sequence everywhere.
class Rng {
public:
    explicit Rng(uint64_t seed = 0) { reseed(seed); }
    void reseed(uint64_t seed);
    uint64_t next();        // uniform 64-bit
    double next_double();   // uniform in [0, 1), 53 random bits

private:
    std::array<uint64_t, 4> s_{};
};

struct SamplerSettings {
    float temperature = 1.0f;     // >= 0; 0 = greedy
    int32_t top_k = 0;            // >= 0; 0 = off
    float top_p = 1.0f;           // (0, 1]; 1 = off
    float min_p = 0.0f;           // [0, 1]; 0 = off
    float repeat_penalty = 1.0f;  // > 0; 1 = off
    int32_t repeat_window = 64;   // >= 0: how many of the most recent tokens are penalised
    uint64_t seed = 0;
    int32_t report_k = 10;        // candidates reported per stage, 1 .. 1000

    bool operator==(const SamplerSettings&) const = default;
};

// The sampling lmscope starts from, the one home of these defaults:
//   greedy_sampling()       temperature 0, no filter: the labs (a run is reproducible)
//   interactive_sampling()  temperature 0.8, top-k 40, top-p 0.95, min-p 0.05: lmscope-cli run
//   lesson_sampling()       the same filters at temperature 0: the window's step-through session
//                           (a lesson's steps are reproducible; the filters are set for when the
//                           temperature goes up)
inline SamplerSettings greedy_sampling() { return {.temperature = 0.0f}; }
inline SamplerSettings interactive_sampling() {
    return {.temperature = 0.8f, .top_k = 40, .top_p = 0.95f, .min_p = 0.05f};
}
inline SamplerSettings lesson_sampling() {
    SamplerSettings s = interactive_sampling();
    s.temperature = 0.0f;
    return s;
}

// Throws UsageError naming the first invalid setting (negative or NaN temperature, top_p
// outside (0, 1], ...).
void validate(const SamplerSettings& settings);

struct Candidate {
    int32_t id = 0;
    float logit = 0.0f;  // the stage's input to softmax (after penalty and / T where applied)
    float prob = 0.0f;   // probability in the stage's (renormalised) distribution
};

struct StageReport {
    Stage stage = Stage::Raw;
    bool active = false;          // the setting is on (an inactive stage repeats the previous)
    size_t n_kept = 0;            // tokens that survive this stage
    double entropy = 0.0;         // nats, of the stage's distribution
    std::vector<Candidate> top;   // the most probable survivors, best first (<= report_k)
};

struct SampleReport {
    std::array<StageReport, kStageCount> stages;  // indexed by Stage
    int32_t token = 0;
    Choice how = Choice::Greedy;  // Greedy, Sampled or Forced
    float prob = 0.0f;      // the token's probability in the final distribution (a forced
                            // token the filters removed has 0)
    float raw_prob = 0.0f;  // the token's probability in the raw softmax

    const StageReport& stage(Stage s) const { return stages[static_cast<size_t>(s)]; }
    const StageReport& final_stage() const { return stage(Stage::MinP); }
    double entropy_raw() const { return stage(Stage::Raw).entropy; }
    double entropy_final() const { return final_stage().entropy; }
};

class Sampler {
public:
    // Validates the settings (UsageError) and seeds the RNG with settings.seed.
    explicit Sampler(const SamplerSettings& settings = {});

    const SamplerSettings& settings() const { return settings_; }
    // Replaces the settings (validated); the RNG keeps its state unless reseed() is called.
    void set_settings(const SamplerSettings& settings);
    void reseed(uint64_t seed) { rng_.reseed(seed); }

    // logits: [n_vocab]; history: the tokens so far (oldest first), of which the last
    // repeat_window are penalised. Draws one random number when sampling (none when greedy).
    // Throws Error on a non-finite logit (naming the token id) or an empty row, UsageError on a
    // history id outside [0, n_vocab).
    SampleReport sample(std::span<const float> logits, std::span<const int32_t> history = {});

    // Same report, but the token is `token` (UsageError when outside [0, n_vocab)); no random
    // number is drawn.
    SampleReport force(std::span<const float> logits, std::span<const int32_t> history,
                       int32_t token);

private:
    // Fills every stage of `report` and leaves the final kept set in order_[0, kept_).
    void run_pipeline(std::span<const float> logits, std::span<const int32_t> history,
                        SampleReport& report);
    void apply_penalty(std::span<const float> logits, std::span<const int32_t> history);
    void pick_greedy(SampleReport& report);
    void scale_by_temperature(size_t report_k);
    bool better(int32_t a, int32_t b) const;
    void ensure_sorted(size_t count);
    void filter_top_k(size_t k);
    void filter_top_p();
    size_t cut_at_mass(size_t begin, size_t end, double cum, double target) const;
    void filter_min_p();
    double kept_mass() const;
    void fill_stage(StageReport& stage, bool active) const;
    float final_prob(int32_t token);
    int32_t draw(double u);

    SamplerSettings settings_;
    Rng rng_;
    // Per-call work buffers, kept to avoid reallocating every step.
    std::vector<float> penalised_;  // [n_vocab] logits after the repetition penalty
    std::vector<float> scaled_;     // [n_vocab] (penalised - max) / T, <= 0
    std::vector<float> weight_;     // [n_vocab] exp(scaled_)
    std::vector<uint8_t> flag_;     // [n_vocab] scratch marks (penalty window, kept set)
    std::vector<int32_t> order_;    // [n_vocab] ids; order_[0, kept_) is the kept set and
                                    // order_[0, sorted_) of it is sorted best first
    std::vector<int32_t> best_;     // [report_k] best ids of scaled_, best first
    std::vector<float> values_;     // [kept] scratch copy of kept scaled_ values (top-k)
    std::vector<int32_t> ids_;      // [kept] scratch ids (top-p regrouping, the draw)
    std::vector<double> bucket_mass_;    // [kTopPBuckets] top-p histogram of kept weight
    size_t kept_ = 0;
    size_t sorted_ = 0;
    bool greedy_ = false;   // this call ran with temperature 0
    double raw_max_ = 0.0;  // raw softmax: max logit and sum of exp(logit - max)
    double raw_z_ = 1.0;
};

}  // namespace lmscope::engine
