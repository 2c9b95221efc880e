// The Layer view's figures for one selection (the token, layer and head the panels share), made
// from a layer probe's rows (core/engine/layer_probe.h, layer_anatomy.h) as the charts' view
// data (widgets/layer_view_data.h). Runs on a lab job's thread: it touches no widget.
#pragma once

#include "util/types.h"
#include "widgets/labelled_bars.h"
#include "widgets/layer_view_data.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

namespace lmscope::engine {
class Model;
struct LayerRows;
}  // namespace lmscope::engine

namespace lmscope::gui {

// What the Layer view is asked to show: the sequence (as the session holds it at the shown
// step), the heads each position ran without, and the selection.
struct LayerRequest {
    QVector<qint32> tokens;                    // [position] ids along the shown path
    std::vector<std::vector<LayerHead>> ablate;  // [position] heads switched off (empty: none anywhere)
    QStringList labels;                        // [position] the tokens as chips draw them
    qint32 layer = 0, head = 0, query = 0;
    qint32 step = -1;                          // the step shown (for the header)
    bool operator==(const LayerRequest&) const = default;
};

// Every figure of every tab.
struct LayerFigures {
    LayerRequest request;
    qint32 kv_head = 0, n_head = 0, n_kv = 0, head_dim = 0;
    bool post_attn_norm = false;               // attn_out is normed after Wo (gemma3)
    widgets::VectorStripsData vectors;         // resid_pre, attn_in, q, k, v, q_rot, k_rot
    widgets::VectorStripsData keys;            // k_rot of every key the query sees, then v
    widgets::ScoreStagesData scores;
    widgets::VectorStripsData mix;             // the largest w_j v_j, the rest, = z
    widgets::LabelledBarsData head_shares;     // |Wo[:, h] z_h| for every head
    widgets::RopeData rope;
    widgets::FfnData ffn;
    widgets::VectorStripsData ffn_strips;      // resid_mid + mlp_out = resid_post
    widgets::ResidualStreamData stream;
};

// Throws what layer_anatomy throws for a selection outside the rows.
LayerFigures layer_figures(const engine::Model& model, const engine::LayerRows& rows, const LayerRequest& request);

}  // namespace lmscope::gui
