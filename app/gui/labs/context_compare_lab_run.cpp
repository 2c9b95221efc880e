#include "gui/labs/context_compare_lab_run.h"

#include "analysis/distribution.h"

#include "engine/backend.h"
#include "engine/model.h"
#include "engine/session.h"
#include "gui/engine_setup.h"
#include "tokenizer/tokenizer.h"
#include "trace/half.h"
#include "trace/session_trace.h"
#include "util/error.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace lmscope::gui::labs::context_compare {
namespace {

// The trimmed, case-folded text of a token when it is a word (letters only, at least two).
QString word_of(const std::string& text) {
    const QString t = QString::fromUtf8(text).trimmed().toCaseFolded();
    if (t.size() < 2) return {};
    for (const QChar c : t)
        if (!c.isLetter()) return {};
    return t;
}

int32_t last_index_of(const std::vector<QString>& words, const QString& w) {
    for (int32_t i = int32_t(words.size()) - 1; i >= 0; --i)
        if (words[size_t(i)] == w) return i;
    return -1;
}

}  // namespace

std::span<const float> SideRun::logits_at(int32_t pos) const {
    if (pos < 0 || pos >= size() || logits.size() != size_t(size()) * size_t(n_vocab))
        throw UsageError("context compare: no logits for position " + std::to_string(pos));
    return std::span<const float>(logits).subspan(size_t(pos) * size_t(n_vocab), size_t(n_vocab));
}

SideRun run_side(const LabModelPtr& model, const std::string& text, const CancelToken* token,
                 const std::vector<LayerHead>& off, const EngineOptions& chosen) {
    check_cancel(token);
    if (!model || !model->model || !model->tokenizer) throw UsageError("context compare: no model is loaded");
    SideRun out;
    out.ids = model->tokenizer->encode_ids(text, true, false);
    if (out.ids.empty()) throw UsageError("context compare: the prompt is empty");
    if (out.size() > kMaxPromptTokens)
        throw UsageError("context compare: the prompt has " + std::to_string(out.size()) + " tokens, at most " +
                         std::to_string(kMaxPromptTokens) + " are compared");
    for (const int32_t id : out.ids) out.texts.push_back(model->tokenizer->token_bytes(id, true));
    const model::ModelSpec& spec = model->model->spec();
    out.n_vocab = spec.n_vocab();
    out.n_layer = spec.n_layer();
    out.n_head = spec.n_head();

    engine::SessionOptions options = lab_session_options();
    options.capture.mode = trace::CaptureMode::Full;
    options.prefix_reuse = false;
    EngineSession lab = make_engine_session(model, lab_engine(chosen, kMaxPromptTokens + 1), options);
    lab.session->set_ablation(off);
    out.ablated = off;
    // At most kMaxPromptTokens rows of logits, so n x n_vocab fits easily.
    out.logits.resize(size_t(out.size()) * size_t(out.n_vocab));
    {
        const engine::Session::CancelScope scope(*lab.session, token);
        lab.session->prefill(out.ids, out.logits);
    }
    out.trace = std::make_shared<const trace::SessionTrace>(lab.session->trace());
    return out;
}

HeadSweep sweep_layer(const LabModelPtr& model, std::span<const int32_t> ids_a, int32_t pos_a,
                      std::span<const int32_t> ids_b, int32_t pos_b, const std::vector<LayerHead>& off, int32_t layer,
                      const CancelToken* token, const EngineOptions& chosen) {
    check_cancel(token);
    if (!model || !model->model) throw UsageError("context compare: no model is loaded");
    const model::ModelSpec& spec = model->model->spec();
    if (layer < 0 || layer >= spec.n_layer()) throw UsageError("context compare: no layer " + std::to_string(layer));
    if (pos_a < 0 || pos_a >= int32_t(ids_a.size()) || pos_b < 0 || pos_b >= int32_t(ids_b.size()))
        throw UsageError("context compare: the picked tokens are outside the prompts");
    const std::unique_ptr<engine::Backend> backend = make_engine_backend(*model, lab_engine(chosen, kMaxPromptTokens + 1));
    std::vector<float> a(size_t(spec.n_vocab())), b(size_t(spec.n_vocab()));
    // KL(A || B) after the picked tokens with `heads` switched off.
    auto kl = [&](const std::vector<LayerHead>& heads) {
        backend->forward({.tokens = ids_a.first(size_t(pos_a) + 1), .pos0 = 0, .logits = a, .cancel = token, .ablate = heads});
        backend->forward({.tokens = ids_b.first(size_t(pos_b) + 1), .pos0 = 0, .logits = b, .cancel = token, .ablate = heads});
        return analysis::kl_divergence(a, b);
    };
    HeadSweep out;
    out.off = off;
    out.layer = layer;
    out.kl_on = kl({});
    out.kl_off = kl(off);
    for (int32_t h = 0; h < spec.n_head(); ++h) {
        std::vector<LayerHead> heads = off;
        if (std::find(heads.begin(), heads.end(), LayerHead{layer, h}) == heads.end()) heads.push_back({layer, h});
        out.kl_head.push_back(kl(heads));
    }
    return out;
}

std::pair<int32_t, int32_t> default_picks(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<QString> wa, wb;
    for (const std::string& t : a) wa.push_back(word_of(t));
    for (const std::string& t : b) wb.push_back(word_of(t));
    QString best;
    for (const QString& w : wa)
        if (!w.isEmpty() && w.size() > best.size() && last_index_of(wb, w) >= 0) best = w;
    if (best.isEmpty()) return {int32_t(a.size()) - 1, int32_t(b.size()) - 1};
    return {last_index_of(wa, best), last_index_of(wb, best)};
}

std::vector<float> attention_row(const SideRun& run, int32_t layer, int32_t head, int32_t pos) {
    if (!run.trace || run.trace->size() == 0 || pos < 0 || pos >= run.size()) return {};
    const trace::AttentionTrace& at = run.trace->steps().front().attention;
    const trace::PlaneRef* plane = at.find(layer, head);
    if (!plane || plane->first_row_pos != 0 || pos >= plane->n_rows) return {};
    const uint64_t begin = plane->offset + packed_row_offset(0, pos);
    const uint64_t count = uint64_t(pos) + 1;
    if (begin + count > at.weights.size()) return {};
    std::vector<float> row(count);
    for (uint64_t k = 0; k < count; ++k) row[k] = trace::half_to_float(at.weights[begin + k]);
    return row;
}

float head_measure(std::span<const float> row, HeadMeasure measure) {
    if (row.empty()) return std::numeric_limits<float>::quiet_NaN();
    const size_t pos = row.size() - 1;
    switch (measure) {
    case HeadMeasure::Entropy: {
        double h = 0.0;
        for (const float w : row)
            if (w > 0.0f) h -= double(w) * std::log(double(w));
        return float(h);
    }
    case HeadMeasure::PreviousToken: return pos > 0 ? row[pos - 1] : 0.0f;
    case HeadMeasure::FirstToken: return row[0];
    case HeadMeasure::Self: return row[pos];
    case HeadMeasure::MaxWeight: return *std::max_element(row.begin(), row.end());
    }
    return std::numeric_limits<float>::quiet_NaN();
}

std::vector<float> measure_grid(const SideRun& run, int32_t pos, HeadMeasure measure) {
    std::vector<float> grid(size_t(std::max(0, run.n_layer)) * size_t(std::max(0, run.n_head)));
    for (int32_t l = 0; l < run.n_layer; ++l)
        for (int32_t h = 0; h < run.n_head; ++h)
            grid[size_t(l) * size_t(run.n_head) + size_t(h)] = head_measure(attention_row(run, l, h, pos), measure);
    return grid;
}


}  // namespace lmscope::gui::labs::context_compare
