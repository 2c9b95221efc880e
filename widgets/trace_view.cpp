#include "widgets/trace_view.h"

#include <algorithm>

namespace lmscope::widgets {
namespace {
const QVector<CandidateView> kNoCandidates;
}

bool AttentionPlaneView::valid() const {
    return first_row_pos >= 0 && n_rows >= 0 && packed_plane_count(first_row_pos, n_rows) == quint64(weights.size());
}

float AttentionPlaneView::weight(qint32 r, qint32 key) const {
    if (r < 0 || r >= n_rows || key < 0 || key > first_row_pos + r) return 0.0f;
    return float(row(r)[key]);
}

AttentionPlaneView AttentionPlaneView::from_matrix(qint32 layer, qint32 head, qint32 first_row_pos,
                                                   qint32 n_rows, const QVector<float>& matrix) {
    AttentionPlaneView p;
    p.layer = layer;
    p.head = head;
    p.first_row_pos = first_row_pos;
    p.n_rows = n_rows;
    const qint64 n_keys = p.n_keys();
    if (first_row_pos < 0 || n_rows < 0 || matrix.size() != n_rows * n_keys) return p;
    p.weights.reserve(qsizetype(packed_plane_count(first_row_pos, n_rows)));
    for (qint32 r = 0; r < n_rows; ++r)
        for (qint64 k = 0; k <= first_row_pos + r; ++k) p.weights.push_back(qfloat16(matrix[r * n_keys + k]));
    return p;
}

const QVector<CandidateView>& LogitsData::before() const {
    return stages.isEmpty() ? kNoCandidates : stages.front().top;
}

const QVector<CandidateView>& LogitsData::after() const {
    return stages.isEmpty() ? kNoCandidates : stages.back().top;
}

qsizetype LogitsData::removedBy(qint32 id) const {
    for (qsizetype i = 1; i < stages.size(); ++i) {
        const QVector<CandidateView>& previous = stages[i - 1].top;
        const auto at = std::find_if(previous.begin(), previous.end(), [id](const CandidateView& c) { return c.id == id; });
        if (at == previous.end()) return -1;  // beyond the reported candidates: unknown
        if (at - previous.begin() >= stages[i].survivors) return i;
    }
    return -1;
}

const AttentionPlaneView* StepView::plane(qint32 layer, qint32 head) const {
    for (const AttentionPlaneView& p : planes)
        if (p.layer == layer && p.head == head) return &p;
    return nullptr;
}

const HeadSummary* StepView::summary(qint32 layer, qint32 head, qint32 row) const {
    if (layer < 0 || layer >= n_layer || head < 0 || head >= n_head || row < 0 || row >= tokens.size())
        return nullptr;
    const qint64 i = (qint64(layer) * n_head + head) * tokens.size() + row;
    return i < summaries.size() ? &summaries[i] : nullptr;
}

qint32 ModelView::group_size() const {
    if (n_head <= 0 || n_head_kv <= 0 || n_head_kv > n_head || n_head % n_head_kv != 0) return 1;
    return n_head / n_head_kv;
}

namespace {

// The bytes a byte token's text names ("<0xE6><0x95>"); empty when it is not such a text.
QByteArray named_bytes(const QString& text) {
    QByteArray out;
    for (QStringView s(text); !s.isEmpty(); s = s.mid(6)) {
        if (s.size() < 6 || !s.startsWith(u"<0x") || s[5] != u'>') return {};
        bool ok = false;
        const int v = s.mid(3, 2).toInt(&ok, 16);
        if (!ok) return {};
        out.append(char(v));
    }
    return out;
}

// The length a UTF-8 lead byte announces (0: a continuation byte or not a lead).
qsizetype utf8_length(uchar lead) {
    if (lead < 0x80) return 1;
    if ((lead & 0xE0) == 0xC0) return 2;
    if ((lead & 0xF0) == 0xE0) return 3;
    if ((lead & 0xF8) == 0xF0) return 4;
    return 0;
}

}  // namespace

std::optional<ByteCharacter> byte_character(const QVector<TokenView>& sequence, qint32 pos) {
    if (pos < 0 || pos >= sequence.size() || !sequence[pos].byte_fallback) return std::nullopt;
    constexpr qint32 kReach = 4;  // a character has at most four bytes
    qint32 first = pos, last = pos;
    while (first > 0 && pos - first < kReach && sequence[first - 1].byte_fallback) --first;
    while (last + 1 < sequence.size() && last - pos < kReach && sequence[last + 1].byte_fallback) ++last;
    QByteArray run;         // the bytes of tokens first..last
    QVector<qint32> owner;  // [byte] its token's position
    for (qint32 p = first; p <= last; ++p) {
        const QByteArray b = named_bytes(sequence[p].text);
        if (b.isEmpty() && p < pos) {  // start again after a token that names no bytes
            run.clear();
            owner.clear();
            continue;
        }
        if (b.isEmpty()) break;
        run += b;
        owner.insert(owner.size(), b.size(), p);
    }
    const qsizetype at = owner.indexOf(pos);
    if (at < 0) return std::nullopt;
    for (qsizetype i = 0; i < run.size();) {
        const qsizetype len = utf8_length(uchar(run[i]));
        if (len == 0) {  // a continuation byte whose lead is not in the run
            ++i;
            continue;
        }
        if (i + len > run.size()) return std::nullopt;  // the character goes on past the run
        const QString c = QString::fromUtf8(run.mid(i, len));
        const bool valid = !c.isEmpty() && !c.contains(QChar::ReplacementCharacter);
        if (at < i + len) {
            if (!valid || at < i || len < 2) return std::nullopt;
            return ByteCharacter{c, owner[i], owner[i + len - 1], qint32(at - i + 1), qint32(len)};
        }
        i += valid ? len : 1;
    }
    return std::nullopt;
}

QString display_text(const QString& text) {
    if (text.isEmpty()) return QStringLiteral("∅");
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        if (c == QLatin1Char(' ')) out += QStringLiteral("␣");
        else if (c == QLatin1Char('\n')) out += QStringLiteral("↵");
        else if (c == QLatin1Char('\t')) out += QStringLiteral("→");
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            out += QStringLiteral("<0x%1>").arg(c.unicode(), 2, 16, QLatin1Char('0')).toUpper().replace(QLatin1String("0X"), QLatin1String("0x"));
        else out += c;
    }
    return out;
}

}  // namespace lmscope::widgets
