#include "trace_adapter/trace_adapter.h"

#include "kv/kv_math.h"
#include "util/error.h"

#include <QStringDecoder>

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>

namespace lmscope::app {

// The matrices the heatmap assembles are bounded by the trace's default budget.
static_assert(widgets::TraceModel::kMatrixBytes == trace::SessionTrace::kDefaultBudget);

namespace {

bool is_byte_piece(const std::string& piece) {  // "<0xE6>"
    if (piece.size() != 6 || piece.compare(0, 3, "<0x") != 0 || piece[5] != '>') return false;
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
    return hex(piece[3]) && hex(piece[4]);
}

QString hex_bytes(const std::string& bytes) {
    QString out;
    for (unsigned char b : bytes) out += QStringLiteral("<0x%1>").arg(uint(b), 2, 16, QLatin1Char('0')).toUpper().replace(QLatin1String("<0X"), QLatin1String("<0x"));
    return out;
}

// A non-negative integer field of the model summary, or 0 (absent, null, negative, too large).
int32_t spec_count(const nlohmann::json& spec, const char* key) {
    if (!spec.is_object()) return 0;
    const auto it = spec.find(key);
    if (it == spec.end() || !it->is_number_integer()) return 0;
    const int64_t v = it->get<int64_t>();
    return v > 0 && v <= INT32_MAX ? int32_t(v) : 0;
}

}  // namespace

widgets::LogitsData logits_view(const trace::SessionTrace& trace, const trace::LogitsTrace& lg,
                                const TokenPieces& pieces) {
    widgets::LogitsData out;
    for (const trace::FilterStage& st : lg.stages) {
        widgets::FilterStageView v;
        v.stage = st.stage;
        v.survivors = st.survivors;
        for (const trace::Candidate& c : st.top)
            v.top.push_back({c.id, token_text(trace, c.id, pieces).text, c.logit, c.prob});
        out.stages.push_back(std::move(v));
    }
    out.entropy = lg.entropy;
    out.chosen = lg.chosen;
    if (lg.chosen >= 0) out.chosen_text = token_text(trace, lg.chosen, pieces).text;
    out.how = lg.how;
    out.chosen_prob = lg.chosen_prob;
    out.chosen_prob_after = lg.chosen_prob_after;
    return out;
}

TokenText token_text(const trace::SessionTrace& trace, int32_t id, const TokenPieces& pieces) {
    TokenText t;
    const auto p = pieces.find(id);
    if (p != pieces.end()) t.piece = QString::fromStdString(p->second);
    const auto stored = trace.pieces.find(id);
    if (stored == trace.pieces.end()) {  // the trace does not name it: show the piece or the id
        t.text = t.piece.isEmpty() ? QStringLiteral("#%1").arg(id) : t.piece;
        return t;
    }
    const std::string& bytes = stored->second;
    t.n_bytes = int32_t(bytes.size());
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString decoded = utf8.decode(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
    const bool valid = !utf8.hasError();
    t.byte_fallback = !valid || (p != pieces.end() && is_byte_piece(p->second));
    t.text = valid ? decoded : hex_bytes(bytes);
    return t;
}

namespace {

// [layer] the spec's layer plan windows (0: global); empty when the plan is missing or does not
// match the layers (model summaries written before recipes have none); hostile values read as 0.
QVector<qint32> layer_windows(const nlohmann::json& spec, qint32 n_layer) {
    QVector<qint32> out;
    if (!spec.is_object() || !spec.contains("layer_plan") || !spec["layer_plan"].is_array() ||
        spec["layer_plan"].size() != size_t(std::max(0, n_layer)))
        return out;
    for (const nlohmann::json& p : spec["layer_plan"]) {
        const nlohmann::json* w = p.is_object() && p.contains("window") ? &p["window"] : nullptr;
        const bool valid = w && w->is_number_integer() && w->get<int64_t>() >= 0 && w->get<int64_t>() <= (1 << 30);
        out.push_back(valid ? qint32(w->get<int64_t>()) : 0);
    }
    return out;
}

}  // namespace

widgets::ModelView model_view(const trace::SessionTrace& trace) {
    widgets::ModelView m;
    const nlohmann::json& spec = trace.model.spec;
    if (spec.is_object() && spec.contains("name") && spec["name"].is_string())
        m.name = QString::fromStdString(spec["name"].get<std::string>());
    if (m.name.isEmpty()) m.name = QString::fromStdString(trace.model.file);
    m.n_layer = spec_count(spec, "n_layer");
    m.n_head = spec_count(spec, "n_head");
    m.n_head_kv = spec_count(spec, "n_head_kv");
    m.head_dim = spec_count(spec, "head_dim");
    for (const trace::StepTrace& s : trace.steps()) {  // a summary without the shape
        if (m.n_layer == 0) m.n_layer = s.attention.n_layer;
        if (m.n_head == 0) m.n_head = s.attention.n_head;
    }
    if (m.n_head_kv == 0) m.n_head_kv = m.n_head;
    m.layer_window = layer_windows(spec, m.n_layer);
    int32_t longest = 0;
    for (const trace::StepTrace& s : trace.steps()) longest = std::max(longest, s.kv.tokens);
    if (!trace.steps().empty()) m.kv_formula = kv_formula_view(trace, trace.steps().back().kv.type, longest);
    return m;
}

namespace {

// The trace's model shape as the KV formula takes it (local layers at their largest window);
// nullopt when the spec lacks it or the formula rejects it for `type`.
std::optional<kv::Shape> kv_shape(const trace::SessionTrace& trace, KvType type) {
    const nlohmann::json& spec = trace.model.spec;
    kv::Shape shape;
    shape.n_layer = uint64_t(spec_count(spec, "n_layer"));
    shape.n_head = uint64_t(spec_count(spec, "n_head"));
    shape.n_head_kv = uint64_t(spec_count(spec, "n_head_kv"));
    shape.head_dim = uint64_t(spec_count(spec, "head_dim"));
    for (qint32 w : layer_windows(spec, qint32(shape.n_layer)))  // local layers keep only their window
        if (w > 0) {
            ++shape.n_local;
            shape.window = std::max(shape.window, uint64_t(w));
        }
    if (shape.n_layer == 0 || shape.n_head_kv == 0 || shape.head_dim == 0) return std::nullopt;
    try {
        kv::validate(shape, type);
        return shape;
    } catch (const std::exception&) {  // a shape the formula rejects: no formula line
        return std::nullopt;
    }
}

}  // namespace

uint64_t formula_kv_bytes(const trace::SessionTrace& trace, KvType type, int32_t tokens) {
    const std::optional<kv::Shape> shape = kv_shape(trace, type);
    if (tokens < 0 || !shape) return 0;
    try {
        return kv::cache_bytes(*shape, type, uint64_t(tokens));
    } catch (const std::exception&) {  // too large to count: no formula
        return 0;
    }
}

widgets::KvFormulaView kv_formula_view(const trace::SessionTrace& trace, KvType type, int32_t context) {
    widgets::KvFormulaView f;
    const std::optional<kv::Shape> shape = kv_shape(trace, type);
    if (context < 1 || !shape) return f;
    try {
        const uint64_t layer_token = kv::layer_bytes_per_token(*shape, type);
        QVector<uint64_t> corners = {0};
        if (shape->n_local > 0 && shape->window < uint64_t(context)) corners.push_back(shape->window);
        corners.push_back(uint64_t(context));
        widgets::KvFormulaView line;
        line.type = type;
        line.window = qint32(shape->window);
        line.local_layers = qint32(shape->n_local);
        for (uint64_t t : corners) {
            line.tokens.push_back(double(t));
            line.bytes.push_back(double(kv::cache_bytes(*shape, type, t)));
            if (shape->n_local > 0) line.local_bytes.push_back(double(layer_token * shape->n_local * std::min(t, shape->window)));
        }
        f = line;
    } catch (const std::exception&) {  // too large to count: no formula line
    }
    return f;
}

widgets::StepView step_view(const trace::SessionTrace& trace, int32_t index, const TokenPieces& pieces) {
    const trace::StepTrace& s = trace.steps().at(size_t(index));
    widgets::StepView v;
    v.index = s.index;
    v.parent = s.parent;
    v.turn = s.turn;
    v.phase = s.phase;
    v.first_pos = s.first_pos;
    const Choice fed = s.phase == Phase::Prefill ? Choice::Prompt : s.fed_how;
    for (int32_t id : s.tokens) {
        const TokenText t = token_text(trace, id, pieces);
        widgets::TokenView tv;
        tv.id = id;
        tv.text = t.text;
        tv.piece = t.piece;
        tv.origin = fed;
        tv.byte_fallback = t.byte_fallback;
        tv.n_bytes = t.n_bytes;
        v.tokens.push_back(std::move(tv));
    }
    v.forward_ms = s.forward_ms;
    v.sample_ms = s.sample_ms;
    v.layer_ms = QVector<double>(s.layer_ms.begin(), s.layer_ms.end());

    const trace::AttentionTrace& a = s.attention;
    v.n_layer = a.n_layer;
    v.n_head = a.n_head;
    v.planes_dropped = a.planes_dropped;
    v.ablated = QVector<LayerHead>(s.ablated.begin(), s.ablated.end());
    for (const trace::PlaneRef& p : a.planes) {
        uint64_t count = 0;
        try {
            count = p.count();
        } catch (const std::exception&) {
            continue;
        }
        if (p.offset > a.weights.size() || count > a.weights.size() - p.offset) continue;
        widgets::AttentionPlaneView pv;
        pv.layer = p.at.layer;
        pv.head = p.at.head;
        pv.first_row_pos = p.first_row_pos;
        pv.n_rows = p.n_rows;
        pv.weights.resize(qsizetype(count));
        const uint16_t* src = a.weights.data() + p.offset;
        for (uint64_t i = 0; i < count; ++i) pv.weights[qsizetype(i)] = std::bit_cast<qfloat16>(src[i]);
        v.planes.push_back(std::move(pv));
    }
    const uint64_t expected = uint64_t(std::max(0, a.n_layer)) * uint64_t(std::max(0, a.n_head)) * s.tokens.size();
    if (a.summaries.size() == expected) v.summaries = QVector<HeadSummary>(a.summaries.begin(), a.summaries.end());

    v.kv.tokens = s.kv.tokens;
    v.kv.type = s.kv.type;
    v.kv.bytes_per_layer = QVector<quint64>(s.kv.bytes_per_layer.begin(), s.kv.bytes_per_layer.end());
    v.kv.bytes_total = s.kv.bytes_total;
    v.kv.formula_bytes = formula_kv_bytes(trace, s.kv.type, s.kv.tokens);
    v.kv.offloaded_bytes = s.kv.offloaded_bytes;
    v.kv.moved_bytes = s.kv.moved_bytes;
    v.logits = logits_view(trace, s.logits, pieces);
    return v;
}

void check_sizes(const trace::SessionTrace& trace, const std::string& name) {
    const widgets::ModelView model = model_view(trace);
    for (const trace::StepTrace& s : trace.steps()) {
        const std::string i = std::to_string(s.index);
        const trace::AttentionTrace& a = s.attention;
        const int64_t n = int64_t(s.tokens.size()), end = int64_t(s.first_pos) + n;
        if (a.n_rows != 0 && a.n_rows != n)
            throw FormatError(name, "steps[" + i + "].attention.n_rows",
                              std::to_string(a.n_rows) + " rows, but the step feeds " + std::to_string(n) + " tokens");
        if (a.n_layer != 0 && (a.n_layer != model.n_layer || a.n_head != model.n_head))
            throw FormatError(name, "steps[" + i + "].attention",
                              std::to_string(a.n_layer) + " layers of " + std::to_string(a.n_head) + " heads, but the model has " +
                                  std::to_string(model.n_layer) + " of " + std::to_string(model.n_head));
        for (size_t k = 0; k < a.planes.size(); ++k) {
            const trace::PlaneRef& p = a.planes[k];
            if (p.first_row_pos < s.first_pos || int64_t(p.first_row_pos) + p.n_rows > end)
                throw FormatError(name, "step." + i + ".planes[" + std::to_string(k) + "]",
                                  "rows at positions " + std::to_string(p.first_row_pos) + " to " +
                                      std::to_string(int64_t(p.first_row_pos) + p.n_rows - 1) + ", outside the step's " +
                                      std::to_string(s.first_pos) + " to " + std::to_string(end - 1));
        }
    }
}

bool load_trace(widgets::TraceModel& model, const trace::SessionTrace& trace, const TokenPieces& pieces) {
    QVector<widgets::StepView> steps;
    steps.reserve(qsizetype(trace.size()));
    for (size_t i = 0; i < trace.size(); ++i) steps.push_back(step_view(trace, int32_t(i), pieces));
    model.setModel(model_view(trace));
    return model.setSteps(std::move(steps));
}

QVector<qint32> steps_without_planes(const trace::SessionTrace& trace) {
    QVector<qint32> out;
    for (const trace::StepTrace& s : trace.steps())
        if (s.attention.planes_dropped) out.push_back(s.index);
    return out;
}

}  // namespace lmscope::app
