#include "trace/trace_json.h"

#include "util/error.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace lmscope::trace::detail {

using nlohmann::json;

namespace {

constexpr int64_t kMaxI32 = std::numeric_limits<int32_t>::max();
constexpr int64_t kMaxLayers = 4096;
constexpr int64_t kMaxHeads = 4096;
constexpr int64_t kMaxLensK = 1024;

json candidates_to_json(const std::vector<Candidate>& top) {
    json a = json::array();
    for (const Candidate& c : top) a.push_back({c.id, c.logit, c.prob});
    return a;
}

std::vector<Candidate> candidates_from_json(const JsonReader& r, const json& a, const std::string& path) {
    if (!a.is_array()) r.fail(path, "is not an array");
    std::vector<Candidate> out;
    out.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string p = path + "[" + std::to_string(i) + "]";
        if (!a[i].is_array() || a[i].size() != 3) r.fail(p, "is not an [id, logit, prob] triple");
        out.push_back({int32_t(r.integer(a[i][0], p + "[0]", 0, kMaxI32)),
                       r.number_f32(a[i][1], p + "[1]"), r.number_f32(a[i][2], p + "[2]")});
    }
    return out;
}

}  // namespace

bool valid_utf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = uint8_t(s[i]);
        size_t len = 0;
        uint32_t cp = 0;
        if (c < 0x80) len = 1, cp = c;
        else if ((c & 0xe0) == 0xc0) len = 2, cp = c & 0x1f;
        else if ((c & 0xf0) == 0xe0) len = 3, cp = c & 0x0f;
        else if ((c & 0xf8) == 0xf0) len = 4, cp = c & 0x07;
        else return false;
        if (i + len > s.size()) return false;
        for (size_t k = 1; k < len; ++k) {
            const auto cc = uint8_t(s[i + k]);
            if ((cc & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (cc & 0x3f);
        }
        static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += len;
    }
    return true;
}

void JsonReader::fail(const std::string& path, const std::string& reason) const {
    throw FormatError(file_, path, reason);
}

const json& JsonReader::member(const json& obj, const std::string& path, const char* key) const {
    const auto it = obj.find(key);
    if (it == obj.end()) fail(path + "." + key, "missing");
    return *it;
}

const json& JsonReader::object(const json& obj, const std::string& path, const char* key) const {
    const json& v = member(obj, path, key);
    if (!v.is_object()) fail(path + "." + key, "is not an object");
    return v;
}

const json& JsonReader::array(const json& obj, const std::string& path, const char* key) const {
    const json& v = member(obj, path, key);
    if (!v.is_array()) fail(path + "." + key, "is not an array");
    return v;
}

int64_t JsonReader::integer(const json& v, const std::string& path, int64_t lo, int64_t hi) const {
    if (!v.is_number_integer()) fail(path, "is not an integer");
    if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
        fail(path, "is out of range");
    const int64_t x = v.get<int64_t>();
    if (x < lo || x > hi)
        fail(path, std::to_string(x) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return x;
}

int64_t JsonReader::integer(const json& obj, const std::string& path, const char* key, int64_t lo,
                            int64_t hi) const {
    return integer(member(obj, path, key), path + "." + key, lo, hi);
}

uint64_t JsonReader::unsigned_integer(const json& obj, const std::string& path, const char* key) const {
    const json& v = member(obj, path, key);
    if (!v.is_number_unsigned()) fail(path + "." + key, "is not a non-negative integer");
    return v.get<uint64_t>();
}

double JsonReader::number(const json& v, const std::string& path) const {
    if (!v.is_number()) fail(path, "is not a number");
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(path, "is not finite");
    return x;
}

double JsonReader::number(const json& obj, const std::string& path, const char* key) const {
    return number(member(obj, path, key), path + "." + key);
}

float JsonReader::number_f32(const json& v, const std::string& path) const {
    const double x = number(v, path);
    if (!std::isfinite(float(x))) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", x);
        fail(path, std::string(text) + " is beyond the range of a float32");
    }
    return float(x);
}

float JsonReader::number_f32(const json& obj, const std::string& path, const char* key) const {
    return number_f32(member(obj, path, key), path + "." + key);
}

bool JsonReader::boolean(const json& obj, const std::string& path, const char* key) const {
    const json& v = member(obj, path, key);
    if (!v.is_boolean()) fail(path + "." + key, "is not true or false");
    return v.get<bool>();
}

const std::string& JsonReader::string(const json& obj, const std::string& path, const char* key) const {
    const json& v = member(obj, path, key);
    if (!v.is_string()) fail(path + "." + key, "is not a string");
    return v.get_ref<const std::string&>();
}

json step_to_json(const StepTrace& s) {
    json j;
    j["index"] = s.index;
    j["parent"] = s.parent;
    j["turn"] = s.turn;
    j["phase"] = phase_name(s.phase);
    j["first_pos"] = s.first_pos;
    j["tokens"] = s.tokens;
    j["fed_how"] = choice_name(s.fed_how);
    j["reused_tokens"] = s.reused_tokens;
    json off = json::array();
    for (const LayerHead& a : s.ablated) off.push_back({a.layer, a.head});
    j["ablated"] = std::move(off);
    json skipped = json::array();
    for (const LayerSkip& k : s.skipped) skipped.push_back({k.layer, sublayer_name(k.part)});
    j["skipped"] = std::move(skipped);
    j["forward_ms"] = s.forward_ms;
    j["sample_ms"] = s.sample_ms;
    j["layer_ms"] = s.layer_ms;
    j["attention"] = {{"n_layer", s.attention.n_layer},
                      {"n_head", s.attention.n_head},
                      {"n_rows", s.attention.n_rows},
                      {"planes", s.attention.planes.size()},
                      {"planes_dropped", s.attention.planes_dropped},
                      {"summaries", !s.attention.summaries.empty()}};
    j["kv"] = {{"tokens", s.kv.tokens},
               {"dtype", kv_type_name(s.kv.type)},
               {"bytes_per_layer", s.kv.bytes_per_layer},
               {"bytes_total", s.kv.bytes_total},
               {"formula_bytes", s.kv.formula_bytes},
               {"resident_bytes", s.kv.resident_bytes},
               {"offloaded_bytes", s.kv.offloaded_bytes},
               {"moved_bytes", s.kv.moved_bytes}};
    json stages = json::array();
    for (const FilterStage& st : s.logits.stages)
        stages.push_back({{"filter", stage_name(st.stage)},
                          {"survivors", st.survivors},
                          {"top", candidates_to_json(st.top)}});
    j["logits"] = {{"entropy", s.logits.entropy},
                   {"chosen", s.logits.chosen},
                   {"how", choice_name(s.logits.how)},
                   {"chosen_prob", s.logits.chosen_prob},
                   {"chosen_prob_after", s.logits.chosen_prob_after},
                   {"stages", stages}};
    j["lens_k"] = s.lens_k;
    json lens = json::array();
    for (const LensEntry& e : s.lens) lens.push_back({e.token, e.prob});
    j["lens"] = lens;
    return j;
}

json session_to_json(const SessionTrace& t) {
    json j;
    j["model"] = {{"file", t.model.file}, {"header_sha256", t.model.header_sha256}, {"spec", t.model.spec}};
    j["tokenizer"] = t.tokenizer;
    j["sampling"] = t.sampling;
    j["capture"] = t.capture;
    j["budget"] = {{"bytes", t.budget()}, {"dropped_steps", t.dropped_steps()}};
    json pieces = json::array();
    for (const auto& [id, text] : t.pieces) {
        if (valid_utf8(text)) {
            pieces.push_back({id, text});
        } else {  // a byte-fallback or partial-character token: its bytes as numbers
            json bytes = json::array();
            for (char c : text) bytes.push_back(uint8_t(c));
            pieces.push_back({id, bytes});
        }
    }
    j["pieces"] = std::move(pieces);
    json steps = json::array();
    for (const StepTrace& s : t.steps()) steps.push_back(step_to_json(s));
    j["steps"] = std::move(steps);
    return j;
}

namespace {

// The step's attention header; the layer times must count its layers.
void attention_from_json(const JsonReader& r, const json& j, const std::string& path, StepHeader& h) {
    StepTrace& s = h.step;
    const std::string ap = path + ".attention";
    const json& a = r.object(j, path, "attention");
    s.attention.n_layer = int32_t(r.integer(a, ap, "n_layer", 0, kMaxLayers));
    s.attention.n_head = int32_t(r.integer(a, ap, "n_head", 0, kMaxHeads));
    s.attention.n_rows = int32_t(r.integer(a, ap, "n_rows", 0, int64_t(s.tokens.size())));
    h.n_planes = r.integer(a, ap, "planes", 0, int64_t(s.attention.n_layer) * s.attention.n_head);
    s.attention.planes_dropped = r.boolean(a, ap, "planes_dropped");
    h.has_summaries = r.boolean(a, ap, "summaries");
    if (h.n_planes > 0 && s.attention.planes_dropped) r.fail(ap + ".planes", "planes are present but marked dropped");
    if (!s.layer_ms.empty() && s.layer_ms.size() != size_t(s.attention.n_layer))
        r.fail(path + ".layer_ms", "has " + std::to_string(s.layer_ms.size()) + " entries for " +
                                       std::to_string(s.attention.n_layer) + " layers");
}

// Heads switched off (absent in traces written before interventions existed).
void ablated_from_json(const JsonReader& r, const json& j, const std::string& path, StepTrace& s) {
    if (j.contains("ablated")) {
        const json& off = r.array(j, path, "ablated");
        if (off.size() > size_t(s.attention.n_layer) * size_t(s.attention.n_head))
            r.fail(path + ".ablated", "lists more heads than the model has");
        for (size_t i = 0; i < off.size(); ++i) {
            const std::string p = path + ".ablated[" + std::to_string(i) + "]";
            if (!off[i].is_array() || off[i].size() != 2) r.fail(p, "is not a [layer, head] pair");
            s.ablated.push_back({int32_t(r.integer(off[i][0], p + "[0]", 0, s.attention.n_layer - 1)),
                                 int32_t(r.integer(off[i][1], p + "[1]", 0, s.attention.n_head - 1))});
        }
    }
}

// Sub-layers skipped (absent in traces written before this intervention existed).
void skipped_from_json(const JsonReader& r, const json& j, const std::string& path, StepTrace& s) {
    if (!j.contains("skipped")) return;
    const json& skipped = r.array(j, path, "skipped");
    if (skipped.size() > 2 * size_t(s.attention.n_layer)) r.fail(path + ".skipped", "lists more sub-layers than the model has");
    for (size_t i = 0; i < skipped.size(); ++i) {
        const std::string p = path + ".skipped[" + std::to_string(i) + "]";
        if (!skipped[i].is_array() || skipped[i].size() != 2 || !skipped[i][1].is_string())
            r.fail(p, "is not a [layer, \"attn\" or \"ffn\"] pair");
        const std::optional<Sublayer> part = parse_sublayer(skipped[i][1].get<std::string>());
        if (!part) r.fail(p + "[1]", "is neither \"attn\" nor \"ffn\"");
        s.skipped.push_back({int32_t(r.integer(skipped[i][0], p + "[0]", 0, s.attention.n_layer - 1)), *part});
    }
}

// The cache's figures: the per-layer bytes must add up to the total.
void kv_from_json(const JsonReader& r, const json& j, const std::string& path, StepTrace& s) {
    const std::string kp = path + ".kv";
    const json& kv = r.object(j, path, "kv");
    s.kv.tokens = int32_t(r.integer(kv, kp, "tokens", 0, kMaxI32));
    const auto type = parse_kv_type(r.string(kv, kp, "dtype"));
    if (!type) r.fail(kp + ".dtype", "is not f16, q8_0 or q4_0");
    s.kv.type = *type;
    const json& per_layer = r.array(kv, kp, "bytes_per_layer");
    uint64_t sum = 0;
    for (size_t i = 0; i < per_layer.size(); ++i) {
        const std::string p = kp + ".bytes_per_layer[" + std::to_string(i) + "]";
        if (!per_layer[i].is_number_unsigned()) r.fail(p, "is not a non-negative integer");
        const uint64_t b = per_layer[i].get<uint64_t>();
        if (b > UINT64_MAX - sum) r.fail(p, "overflows the total");
        sum += b;
        s.kv.bytes_per_layer.push_back(b);
    }
    s.kv.bytes_total = r.unsigned_integer(kv, kp, "bytes_total");
    if (s.kv.bytes_total != sum)
        r.fail(kp + ".bytes_total", std::to_string(s.kv.bytes_total) + " is not the sum of bytes_per_layer (" +
                                        std::to_string(sum) + ")");
    // (traces written before lmscope measured the tiers have none of these: 0)
    for (auto [key, field] : {std::pair{"formula_bytes", &KvTrace::formula_bytes}, std::pair{"resident_bytes", &KvTrace::resident_bytes},
                              std::pair{"offloaded_bytes", &KvTrace::offloaded_bytes}, std::pair{"moved_bytes", &KvTrace::moved_bytes}})
        if (kv.contains(key)) s.kv.*field = r.unsigned_integer(kv, kp, key);
}

// The next-token report: entropy, the choice and each sampling stage's survivors.
void logits_from_json(const JsonReader& r, const json& j, const std::string& path, StepTrace& s) {
    const std::string lp = path + ".logits";
    const json& lg = r.object(j, path, "logits");
    s.logits.entropy = r.number_f32(lg, lp, "entropy");
    s.logits.chosen = int32_t(r.integer(lg, lp, "chosen", -1, kMaxI32));
    const auto how = parse_choice(r.string(lg, lp, "how"));
    if (!how) r.fail(lp + ".how", "is not prompt, greedy, sampled or forced");
    s.logits.how = *how;
    s.logits.chosen_prob = r.number_f32(lg, lp, "chosen_prob");
    s.logits.chosen_prob_after = r.number_f32(lg, lp, "chosen_prob_after");
    const json& stages = r.array(lg, lp, "stages");
    for (size_t i = 0; i < stages.size(); ++i) {
        const std::string p = lp + ".stages[" + std::to_string(i) + "]";
        if (!stages[i].is_object()) r.fail(p, "is not an object");
        FilterStage st;
        const auto stage = parse_stage(r.string(stages[i], p, "filter"));
        if (!stage) r.fail(p + ".filter", "is not a known sampling filter");
        st.stage = *stage;
        st.survivors = r.integer(stages[i], p, "survivors", 0, kMaxI32);
        st.top = candidates_from_json(r, r.member(stages[i], p, "top"), p + ".top");
        if (st.top.size() > size_t(st.survivors)) r.fail(p + ".top", "lists more candidates than survivors");
        s.logits.stages.push_back(std::move(st));
    }
}

// The logit lens of the last row: lens_k (id, prob) pairs per layer, or none.
void lens_from_json(const JsonReader& r, const json& j, const std::string& path, StepTrace& s) {
    s.lens_k = int32_t(r.integer(j, path, "lens_k", 0, kMaxLensK));
    const json& lens = r.array(j, path, "lens");
    if (lens.size() != size_t(s.lens_k) * size_t(s.attention.n_layer) && !lens.empty())
        r.fail(path + ".lens", "has " + std::to_string(lens.size()) + " entries, expected lens_k x layers = " +
                                   std::to_string(size_t(s.lens_k) * size_t(s.attention.n_layer)));
    for (size_t i = 0; i < lens.size(); ++i) {
        const std::string p = path + ".lens[" + std::to_string(i) + "]";
        if (!lens[i].is_array() || lens[i].size() != 2) r.fail(p, "is not an [id, prob] pair");
        s.lens.push_back({int32_t(r.integer(lens[i][0], p + "[0]", 0, kMaxI32)),
                          r.number_f32(lens[i][1], p + "[1]")});
    }
}

}  // namespace

StepHeader step_from_json(const JsonReader& r, const json& j, const std::string& path, int32_t index) {
    if (!j.is_object()) r.fail(path, "is not an object");
    StepHeader h;
    StepTrace& s = h.step;
    s.index = int32_t(r.integer(j, path, "index", index, index));
    s.parent = int32_t(r.integer(j, path, "parent", -1, index - 1));
    s.turn = int32_t(r.integer(j, path, "turn", 0, kMaxI32));
    const auto phase = parse_phase(r.string(j, path, "phase"));
    if (!phase) r.fail(path + ".phase", "is not prefill or decode");
    s.phase = *phase;
    s.first_pos = int32_t(r.integer(j, path, "first_pos", 0, kMaxI32));
    const json& tokens = r.array(j, path, "tokens");
    if (tokens.empty()) r.fail(path + ".tokens", "is empty");
    if (tokens.size() > size_t(kMaxI32 - s.first_pos)) r.fail(path + ".tokens", "runs past the largest position");
    s.tokens.reserve(tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i)
        s.tokens.push_back(int32_t(r.integer(tokens[i], path + ".tokens[" + std::to_string(i) + "]", 0, kMaxI32)));
    const auto fed = parse_choice(r.string(j, path, "fed_how"));
    if (!fed) r.fail(path + ".fed_how", "is not prompt, greedy, sampled or forced");
    s.fed_how = *fed;
    s.reused_tokens = int32_t(r.integer(j, path, "reused_tokens", 0, s.first_pos));
    s.forward_ms = r.number(j, path, "forward_ms");
    s.sample_ms = r.number(j, path, "sample_ms");
    const json& layer_ms = r.array(j, path, "layer_ms");
    for (size_t i = 0; i < layer_ms.size(); ++i)
        s.layer_ms.push_back(r.number(layer_ms[i], path + ".layer_ms[" + std::to_string(i) + "]"));

    attention_from_json(r, j, path, h);
    ablated_from_json(r, j, path, s);
    skipped_from_json(r, j, path, s);
    kv_from_json(r, j, path, s);
    logits_from_json(r, j, path, s);
    lens_from_json(r, j, path, s);
    return h;
}

}  // namespace lmscope::trace::detail
