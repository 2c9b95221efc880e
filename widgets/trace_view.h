// The view model of a session trace: plain Qt structs holding what the loop panels draw (token
// strip, attention heatmap and grid, KV chart, logits, timeline). The widgets see nothing of
// core/ but its shared types (util/types.h: KV type, phase, choice, stage, head summary, plane
// packing); app/trace_adapter converts a core trace::SessionTrace into these, one step at a time.
//
// The shapes follow core/trace/step_trace.h so the conversion is direct: one StepView per loop
// step (prefill = many rows, decode = one), attention planes packed to the causal lower
// triangle in half precision (as the trace stores them: the grid of 30 x 9 planes at 512
// tokens holds 68 MiB instead of 270 as full float matrices), per-head summaries, logits
// stages, KV figures.
#pragma once

#include "util/types.h"

#include <QString>
#include <QVector>
#include <QtGlobal>
#include <qfloat16.h>

#include <optional>

namespace lmscope::widgets {

struct TokenView {
    qint32 id = 0;
    QString text;   // what it stands for ("Hello", " world", "\n"); byte tokens: "<0xE6>"
    QString piece;  // the vocabulary entry ("▁Hello", "Ġworld", "<0xE6>")
    Choice origin = Choice::Prompt;  // how it came to be fed
    bool byte_fallback = false;  // stands for raw bytes, not whole characters
    qint32 n_bytes = 0;          // bytes of text it stands for
    // Filled by TraceModel from the step's ancestors: [byte_begin, byte_end) of the sequence.
    qint64 byte_begin = 0, byte_end = 0;

    bool generated() const { return origin != Choice::Prompt; }
};

// The character that byte tokens spell together (a Chinese character split into byte
// pieces): the tokens at positions first..last of a sequence hold its UTF-8 bytes, and the
// token asked about holds its byte_index-th byte (1-based) of byte_count.
struct ByteCharacter {
    QString character;
    qint32 first = 0, last = 0;
    qint32 byte_index = 0;
    qint32 byte_count = 0;
};
// For a byte token (byte_fallback, text "<0xE6>" or several such) whose bytes are part of a
// character of two or more bytes that the byte tokens around it complete; nullopt otherwise.
std::optional<ByteCharacter> byte_character(const QVector<TokenView>& sequence, qint32 pos);

// Softmax weights of one (layer, head) for the query rows one step computed. Row r (query
// position first_row_pos + r) holds keys 0..first_row_pos + r; later keys are masked.
struct AttentionPlaneView {
    qint32 layer = 0, head = 0;
    qint32 first_row_pos = 0;
    qint32 n_rows = 0;
    QVector<qfloat16> weights;  // packed causal rows, back to back

    qint32 n_keys() const { return first_row_pos + n_rows; }
    bool valid() const;  // sizes agree (weights hold exactly packed_plane_count elements)
    // Row r's first_row_pos + r + 1 weights (0 <= r < n_rows).
    const qfloat16* row(qint32 r) const { return weights.constData() + packed_row_offset(first_row_pos, r); }
    // Weight of row r on `key`; 0 for a masked key.
    float weight(qint32 r, qint32 key) const;

    // From a full [n_rows][first_row_pos + n_rows] matrix (masked entries ignored).
    static AttentionPlaneView from_matrix(qint32 layer, qint32 head, qint32 first_row_pos,
                                          qint32 n_rows, const QVector<float>& matrix);
};

struct CandidateView {
    qint32 id = 0;
    QString text;  // as TokenView::text
    float logit = 0.0f;
    float prob = 0.0f;
};

// The distribution after one sampling stage, highest probability first.
struct FilterStageView {
    Stage stage = Stage::Raw;
    qint64 survivors = 0;
    QVector<CandidateView> top;
};

struct LogitsData {
    QVector<FilterStageView> stages;  // [0] raw (before the filters), last: after all of them
    float entropy = 0.0f;             // nats, of the raw distribution
    qint32 chosen = -1;               // the token picked (fed by the next step); -1: none
    QString chosen_text;
    Choice how = Choice::Greedy;
    float chosen_prob = 0.0f;        // in the raw distribution
    float chosen_prob_after = 0.0f;  // after the filters

    bool empty() const { return stages.isEmpty(); }
    const QVector<CandidateView>& before() const;
    const QVector<CandidateView>& after() const;
    // The stage that removed `id` (an index into stages; -1: it survived every stage, or the
    // reported lists cannot tell). Top-k, top-p and min-p keep a prefix of the previous
    // stage's order, so a token listed at rank r there is removed by the first such stage
    // that keeps r or fewer tokens.
    qsizetype removedBy(qint32 id) const;
};

struct KvData {
    qint32 tokens = 0;  // positions held after the step
    KvType type = KvType::F16;  // how the cache stores its rows
    QVector<quint64> bytes_per_layer;  // measured: the rows each layer's storage holds x its row size
    quint64 bytes_total = 0;
    quint64 formula_bytes = 0;  // 2 x layers x kv_heads x head_dim x tokens x bytes; 0: unknown
    quint64 offloaded_bytes = 0;  // of bytes_total, those in the offload tier (0: none)
    quint64 moved_bytes = 0;      // moved between the tiers by the step
};

struct StepView {
    qint32 index = 0;    // position in the session's step list
    qint32 parent = -1;  // the step this one continues (-1: none); rewinds branch here
    qint32 turn = 0;
    Phase phase = Phase::Prefill;
    qint32 first_pos = 0;       // position of tokens[0]
    QVector<TokenView> tokens;  // fed this step
    double forward_ms = 0.0;
    double sample_ms = 0.0;
    QVector<double> layer_ms;  // [layer]

    qint32 n_layer = 0, n_head = 0;  // attention shape of the summaries
    QVector<AttentionPlaneView> planes;
    QVector<HeadSummary> summaries;  // [layer][head][row], empty when not captured
    bool planes_dropped = false;         // the memory budget removed this step's planes
    QVector<LayerHead> ablated;          // heads switched off for this step (their z zeroed before Wo)

    KvData kv;
    LogitsData logits;

    qint32 end_pos() const { return first_pos + qint32(tokens.size()); }
    bool covers(qint32 pos) const { return pos >= first_pos && pos < end_pos(); }
    const AttentionPlaneView* plane(qint32 layer, qint32 head) const;
    const HeadSummary* summary(qint32 layer, qint32 head, qint32 row) const;
};

// The KV formula's line over the whole context, for the KV chart: straight between its corners
// (the cache grows linearly in tokens, every layer alike, until the local layers' window W fills;
// past W only the global layers keep adding), so 0, W and the context's end give it exactly.
// The app computes it from the model's shape (app::kv_formula_view); empty when unknown.
struct KvFormulaView {
    KvType type = KvType::F16;     // the cache type it prices
    qint32 window = 0;             // the local layers' window W; 0: no local layers
    qint32 local_layers = 0;       // how many layers are local
    QVector<double> tokens;        // [corner] increasing, 0 to the context's end
    QVector<double> bytes;         // [corner] every layer
    QVector<double> local_bytes;   // [corner] the local layers' part, flat past W (empty: none)

    bool empty() const { return tokens.isEmpty(); }
};

// What the panels need of the model itself.
struct ModelView {
    QString name;
    qint32 n_layer = 0;
    qint32 n_head = 0;
    qint32 n_head_kv = 0;  // < n_head: grouped-query attention
    qint32 head_dim = 0;
    QVector<qint32> layer_window;  // [layer] 0: every earlier key; W > 0: a local layer's window (empty: none)
    qint32 n_ctx = 0;        // positions the session's KV cache may hold (0: unknown, as in a replay)
    qint32 n_ctx_train = 0;  // the model's own context length (0: unknown)
    quint64 kv_bytes_per_token = 0;  // K and V of every layer for one position, as stored
    KvFormulaView kv_formula;        // the formula's line up to n_ctx (a replay: its longest step)

    // Query heads per KV head (1 for MHA or an unknown shape).
    qint32 group_size() const;
    // The KV head a query head reads (its GQA group).
    qint32 kv_group(qint32 head) const { return head / group_size(); }
    // The sliding window of a layer (0: it sees every earlier key).
    qint32 window(qint32 layer) const {
        return layer >= 0 && layer < layer_window.size() ? layer_window[layer] : 0;
    }
    // Key `key` is hidden from query `query` on that layer: the future, or outside its window.
    bool outside_window(qint32 layer, qint32 query, qint32 key) const {
        const qint32 w = window(layer);
        return w > 0 && key <= query && query - key >= w;
    }
};

// Text as drawn on a chip: visible space ␣, newline ↵, tab →, other control characters as
// <0xNN>; empty text as "∅".
QString display_text(const QString& text);

}  // namespace lmscope::widgets
