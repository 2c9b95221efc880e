#include "gui/spec_figures.h"

#include "widgets/format.h"

#include <QFileInfo>
#include <QStringList>

#include <cmath>

namespace lmscope::gui {

namespace {

const QString kDash = QStringLiteral("—");

// A count the file did not give (0) shows as a dash.
QString count_or_dash(uint64_t n) { return n == 0 ? kDash : widgets::format_count(qint64(n)); }

// Sum of the tensors' element counts (the parameter count).
double parameter_count(const model::ModelSummary& s) {
    double total = 0;
    for (const model::TensorSummary& t : s.tensors) {
        double n = 1;
        for (int64_t d : t.dims) n *= double(d);
        total += n;
    }
    return total;
}

QString short_count(double n) {
    if (n >= 1e9) return QStringLiteral("%1 B").arg(QLocale().toString(n / 1e9, 'f', 2));
    if (n >= 1e6) return QStringLiteral("%1 M").arg(QLocale().toString(n / 1e6, 'f', 1));
    if (n >= 1e3) return QStringLiteral("%1 K").arg(QLocale().toString(n / 1e3, 'f', 1));
    return QLocale().toString(n, 'f', 0);
}

}  // namespace

QString SpecText::recipe(const std::vector<model::RecipeFeature>& features) {
    using K = model::RecipeFeature::Kind;
    const QLocale loc;
    // whole numbers (RoPE bases, widths) in full with group separators: "1,000,000", not "1E+06"
    auto n = [&loc](double v) {
        return v == std::floor(v) && std::fabs(v) < 1e15 ? loc.toString(v, 'f', 0) : loc.toString(v, 'g', 6);
    };
    QStringList lines;
    for (const model::RecipeFeature& f : features) {
        switch (f.kind) {
        case K::WideHeads: lines << tr("%1 heads × %2 ≠ width %3").arg(n(f.a), n(f.b), n(f.c)); break;
        case K::QkvBias: lines << tr("q/k/v biases"); break;
        case K::QkNorm: lines << tr("QK-norm (each q and k head normalized)"); break;
        case K::RopeNormal: lines << tr("RoPE on adjacent pairs, base %1").arg(n(f.a)); break;
        case K::RopeNeoX: lines << tr("NeoX RoPE (split halves), base %1").arg(n(f.a)); break;
        case K::RopeFreqs: lines << tr("Llama 3 RoPE frequency factors"); break;
        case K::NoRope: lines << tr("no RoPE on %1 of %2 layers").arg(n(f.a), n(f.b)); break;
        case K::SlidingWindow:
            lines << (f.d > 0 ? tr("window of %1 tokens on %2 of %3 layers (RoPE base %4)").arg(n(f.a), n(f.b), n(f.c), n(f.d))
                              : tr("window of %1 tokens on %2 of %3 layers").arg(n(f.a), n(f.b), n(f.c)));
            break;
        case K::PostNorms: lines << tr("norms after attention and FFN too"); break;
        case K::SwiGlu: lines << tr("SwiGLU feed-forward"); break;
        case K::GeGlu: lines << tr("GeGLU feed-forward (GELU, tanh)"); break;
        case K::EmbedScale: lines << tr("embeddings × √%1").arg(n(f.a)); break;
        case K::FinalSoftcap: lines << tr("logits soft-capped at %1").arg(n(f.a)); break;
        case K::AttnSoftcap: lines << tr("attention scores soft-capped at %1").arg(n(f.a)); break;
        case K::FusedQkv: lines << tr("fused q/k/v matrix"); break;
        case K::FusedGateUp: lines << tr("fused gate/up matrix"); break;
        }
    }
    return lines.join(QLatin1Char('\n'));
}

QString SpecText::title(const LoadedModel& m) { return QFileInfo(m.path).completeBaseName(); }

QString SpecText::subtitle(const LoadedModel& m) {
    const model::HParams& hp = m.summary.hparams;
    QStringList parts;
    parts << (hp.architecture.empty() ? tr("unknown architecture") : QString::fromStdString(hp.architecture));
    if (hp.file_type) parts << QString::fromLatin1(model::file_type_name(*hp.file_type));
    parts << tr("GGUF v%1").arg(m.summary.gguf_version);
    QString text = parts.join(QStringLiteral(" · "));
    text += QLatin1Char('\n') + QFileInfo(m.path).fileName();
    if (!hp.name.empty()) text += QLatin1Char('\n') + tr("name in the file: %1").arg(QString::fromStdString(hp.name));
    return text;
}

QList<widgets::SpecFigure> SpecText::figures(const LoadedModel& m) {
    const model::ModelSummary& s = m.summary;
    const model::HParams& hp = s.hparams;
    QList<widgets::SpecFigure> f;
    f.push_back({QStringLiteral("layers"), tr("Layers"), count_or_dash(hp.n_layer),
                 tr("Transformer blocks, each with attention and a feed-forward network")});
    f.push_back({QStringLiteral("embd"), tr("Embedding width"), count_or_dash(hp.n_embd),
                 tr("Numbers per token in the residual stream")});
    f.push_back({QStringLiteral("heads"), tr("Query heads"), count_or_dash(hp.n_head),
                 tr("Attention heads per layer")});
    f.push_back({QStringLiteral("kv_heads"), tr("KV heads"), count_or_dash(hp.n_head_kv),
                 tr("Key/value heads per layer; query heads share them")});

    QString attention = kDash, attention_tip;
    if (hp.n_head != 0 && hp.n_head_kv != 0) {
        if (hp.n_head_kv == hp.n_head) {
            attention = tr("MHA");
            attention_tip = tr("Multi-head attention: every query head has its own keys and values");
        } else if (hp.n_head_kv == 1) {
            attention = tr("MQA");
            attention_tip = tr("Multi-query attention: all query heads share one key/value head");
        } else {
            attention = tr("GQA %1:1").arg(hp.n_head / hp.n_head_kv);
            attention_tip = tr("Grouped-query attention: %1 query heads share each key/value head")
                                .arg(hp.n_head / hp.n_head_kv);
        }
    }
    f.push_back({QStringLiteral("attention"), tr("Attention"), attention, attention_tip});
    f.push_back({QStringLiteral("head_dim"), tr("Head size"), count_or_dash(hp.head_dim),
                 tr("Numbers per query, key and value vector")});
    f.push_back({QStringLiteral("ff"), tr("Feed-forward width"), count_or_dash(hp.n_ff), {}});
    f.push_back({QStringLiteral("vocab"), tr("Vocabulary"), count_or_dash(hp.n_vocab),
                 tr("Tokens the model knows")});
    f.push_back({QStringLiteral("context"), tr("Context length"), count_or_dash(hp.context_length),
                 tr("Positions the model was trained for")});
    f.push_back({QStringLiteral("params"), tr("Parameters"), short_count(parameter_count(s)),
                 tr("Numbers in all tensors together")});
    f.push_back({QStringLiteral("tensors"), tr("Tensors"), widgets::format_count(qint64(s.n_tensors)), {}});
    f.push_back({QStringLiteral("weights"), tr("Weights"), widgets::format_bytes(s.total_bytes),
                 tr("Bytes of tensor data (file: %1)").arg(widgets::format_bytes(s.file_size))});
    const uint64_t kv = hp.kv_bytes_per_token_f16();
    f.push_back({QStringLiteral("kv_per_token"), tr("KV cache per token"),
                 kv == 0 ? kDash : widgets::format_bytes(kv),
                 tr("Keys and values of every layer for one token, stored as 16-bit floats")});
    f.push_back({QStringLiteral("rope_base"), tr("RoPE base"), QLocale().toString(hp.rope_freq_base, 'g', 6), {}});
    f.push_back({QStringLiteral("rms_eps"), tr("RMS norm ε"),
                 hp.rms_eps == 0 ? kDash : QString::number(hp.rms_eps, 'g', 3), {}});
    QString tokenizer = hp.tokenizer_model.empty() ? kDash : QString::fromStdString(hp.tokenizer_model);
    if (!hp.tokenizer_pre.empty()) tokenizer += QStringLiteral(" / ") + QString::fromStdString(hp.tokenizer_pre);
    f.push_back({QStringLiteral("tokenizer"), tr("Tokenizer"), tokenizer, {}});

    QStringList problems;
    for (const std::string& p : s.problems) problems << QString::fromStdString(p);
    if (!s.recipe.empty())
        f.push_back({QStringLiteral("recipe"), tr("Recipe"), recipe(s.recipe),
                     tr("What this architecture changes in the common transformer block")});
    QString runnable_tip = s.supported ? tr("lmscope can run this model")
                                       : tr("lmscope runs %1 models with complete metadata")
                                             .arg(QString::fromStdString(model::supported_architectures_text()));
    if (!problems.isEmpty()) runnable_tip += QLatin1Char('\n') + problems.join(QLatin1Char('\n'));
    f.push_back({QStringLiteral("runnable"), tr("Runs in lmscope"), s.supported ? tr("yes") : tr("no"),
                 runnable_tip});
    return f;
}

}  // namespace lmscope::gui
