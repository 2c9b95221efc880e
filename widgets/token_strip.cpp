#include "widgets/token_strip.h"

#include "widgets/chip_flow.h"
#include "widgets/format.h"
#include "widgets/trace_colors.h"
#include "widgets/trace_model.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace lmscope::widgets {
namespace {

constexpr int kMargin = 10;   // around the whole strip
constexpr int kPadX = 8;      // inside a chip, left and right
constexpr int kPadY = 4;      // inside a chip, top and bottom
constexpr int kGap = 6;       // between chips and lines
constexpr int kMaxChipChars = 24;  // longer pieces are elided

QString origin_name(Choice o) {
    switch (o) {
    case Choice::Prompt: return TokenStrip::tr("prompt");
    case Choice::Greedy: return TokenStrip::tr("generated (greedy)");
    case Choice::Sampled: return TokenStrip::tr("generated (sampled)");
    case Choice::Forced: return TokenStrip::tr("forced by you");
    }
    return {};
}

}  // namespace

TokenStrip::TokenStrip(TraceModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("tokenStrip"));
    setMouseTracking(true);
    // Its height follows its width: a scroll area that resizes it reads the policy's flag (not
    // hasHeightForWidth()) to give it the height of all its lines, so they scroll into view.
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, Qt::white);
    setPalette(pal);
    connect(model_, &TraceModel::currentStepChanged, this, &TokenStrip::relayout);
    connect(model_, &TraceModel::stepsChanged, this, &TokenStrip::relayout);
    connect(model_, &TraceModel::queryChanged, this, qOverload<>(&QWidget::update));
    relayout();
}

QFont TokenStrip::chipFont() const {
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.5);
    return f;
}

QString TokenStrip::legendText() const {
    const QVector<TokenView>& seq = model_->sequence();
    const auto prompt = std::count_if(seq.begin(), seq.end(), [](const TokenView& t) { return !t.generated(); });
    const qint32 n_ctx = model_->model().n_ctx;
    if (n_ctx > 0)  // the limit in force: a longer prompt is refused
        return tr("Tokens: %1 of %2 (%3 prompt, %4 generated)")
            .arg(seq.size())
            .arg(QLocale().toString(n_ctx))
            .arg(prompt)
            .arg(seq.size() - prompt);
    return tr("Tokens: %1 (%2 prompt, %3 generated)")
        .arg(seq.size())
        .arg(prompt)
        .arg(seq.size() - prompt);
}

struct TokenStrip::Key {
    Choice origin;
    QString name;
    bool dashed;
};

QVector<TokenStrip::Key> TokenStrip::keys() const {
    return {{Choice::Prompt, tr("prompt"), false},
            {Choice::Sampled, tr("generated"), false},
            {Choice::Forced, tr("forced"), false},
            {Choice::Prompt, tr("byte"), true}};
}

TokenStrip::Header TokenStrip::header(int width) const {
    const QFontMetrics fm(font());
    const int line = fm.height();
    const QVector<Key> ks = keys();
    int key_w = 0;  // the key, right-aligned: swatch, 4 px, name, 14 px between entries
    for (const Key& k : ks) key_w += line + 4 + fm.horizontalAdvance(k.name);
    key_w += 14 * int(ks.size() - 1);
    const int count_w = fm.horizontalAdvance(legendText());
    const bool one_line = kMargin + count_w + 2 * kGap + key_w + kMargin <= width;
    Header h;
    h.count = QRect(kMargin, kMargin, std::max(width - 2 * kMargin, 0), line);
    const int key_y = one_line ? kMargin : kMargin + line + kGap / 2;
    int x = width - kMargin;
    h.swatches.resize(ks.size());
    h.names.resize(ks.size());
    for (qsizetype i = ks.size() - 1; i >= 0; --i) {
        const int w = fm.horizontalAdvance(ks[i].name);
        x -= w;
        h.names[i] = QRect(x, key_y, w, line);
        x -= line + 4;
        h.swatches[i] = QRect(x, key_y + 2, line, line - 4);
        x -= 14;
    }
    if (one_line) h.count.setRight(h.swatches.front().left() - 2 * kGap);
    h.height = key_y + line - kMargin;
    return h;
}

int TokenStrip::layoutChips(int width, QVector<QRect>* out) const {
    const int chip_h = QFontMetrics(chipFont()).height() + 2 * kPadY;
    const int top = kMargin + header(width).height + kGap;  // below the count and the key
    return flow_chips(widths_, width, chip_h, top, ChipFlow{kMargin, kGap, 40}, out);
}

void TokenStrip::relayout() {
    // Measuring text is the costly part: a step that appends a token keeps the others' sizes.
    const QVector<TokenView>& seq = model_->sequence();
    const QFontMetrics fm(chipFont());
    const qsizetype keep = [&] {
        qsizetype i = 0;
        while (i < seq.size() && i < ids_.size() && ids_[i] == seq[i].id) ++i;
        return i;
    }();
    labels_.resize(keep);
    widths_.resize(keep);
    ids_.resize(keep);
    for (qsizetype i = keep; i < seq.size(); ++i) {
        QString label = display_text(seq[i].text);
        label = elided(label, kMaxChipChars);
        widths_.push_back(fm.horizontalAdvance(label) + 2 * kPadX);
        labels_.push_back(std::move(label));
        ids_.push_back(seq[i].id);
    }
    chips_width_ = -1;
    updateGeometry();
    update();
}

const QVector<QRect>& TokenStrip::chips() const {
    if (chips_width_ != width()) {
        chips_.clear();
        layoutChips(width(), &chips_);
        chips_width_ = width();
    }
    return chips_;
}

void TokenStrip::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        ids_.clear();  // every width changes
        relayout();
    }
}

int TokenStrip::heightForWidth(int width) const { return layoutChips(width, nullptr); }

QSize TokenStrip::sizeHint() const { return {640, heightForWidth(640)}; }

QSize TokenStrip::minimumSizeHint() const {
    const QFontMetrics fm(chipFont());
    // one line of count and key; a narrower strip asks for its second line through heightForWidth
    return {160, 2 * kMargin + QFontMetrics(font()).height() + kGap + fm.height() + 2 * kPadY};
}

QRect TokenStrip::chipRect(qint32 pos) const {
    return pos >= 0 && pos < chips().size() ? chips()[pos] : QRect();
}

qint32 TokenStrip::chipAt(const QPoint& p) const {
    for (qint32 i = 0; i < chips().size(); ++i)
        if (chips()[i].contains(p)) return i;
    return -1;
}

QString TokenStrip::tooltipFor(qint32 pos) const {
    const TokenView& t = model_->sequence()[pos];
    QString tip = tr("<b>%1</b><br>id %2 · position %3<br>piece %4<br>bytes %5–%6 · %7")
                      .arg(display_text(t.text).toHtmlEscaped())
                      .arg(t.id)
                      .arg(pos)
                      .arg(t.piece.toHtmlEscaped())
                      .arg(t.byte_begin)
                      .arg(t.byte_end)
                      .arg(origin_name(t.origin));
    if (t.byte_fallback) tip += QStringLiteral("<br>") + tr("byte fallback: this token is a raw byte, not a whole character");
    if (const std::optional<ByteCharacter> c = byte_character(model_->sequence(), pos))
        tip += QStringLiteral("<br>") + tr("byte %1 of %2 of the character “%3”: positions %4–%5 spell it together")
                                            .arg(c->byte_index)
                                            .arg(c->byte_count)
                                            .arg(c->character.toHtmlEscaped())
                                            .arg(c->first)
                                            .arg(c->last);
    if (t.text.startsWith(QLatin1Char(' ')) && !t.piece.isEmpty() && t.piece.front() != QLatin1Char(' '))
        tip += QStringLiteral("<br>") + tr("␣ marks the space this token starts with; the vocabulary writes it “%1”")
                                            .arg(QString(t.piece.front()).toHtmlEscaped());
    return tip;
}

bool TokenStrip::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const qint32 pos = chipAt(help->pos());
        if (pos >= 0) QToolTip::showText(help->globalPos(), tooltipFor(pos), this, chipRect(pos));
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void TokenStrip::mousePressEvent(QMouseEvent* e) {
    const qint32 pos = chipAt(e->position().toPoint());
    if (e->button() != Qt::LeftButton || pos < 0) return QWidget::mousePressEvent(e);
    model_->setSelectedQuery(pos);
    emit querySelected(pos);
}

void TokenStrip::paintEvent(QPaintEvent* e) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(palette().color(QPalette::WindowText));
    p.setFont(font());
    const Header h = header(width());
    p.drawText(h.count, Qt::AlignLeft | Qt::AlignVCenter, legendText());
    const QVector<Key> ks = keys();
    for (qsizetype i = 0; i < ks.size(); ++i) {
        p.drawText(h.names[i], Qt::AlignVCenter, ks[i].name);
        p.setPen(QPen(colors::outline(ks[i].origin), 2, ks[i].dashed ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(ks[i].dashed ? QColor(Qt::white) : colors::fill(ks[i].origin));
        p.drawRoundedRect(h.swatches[i], 3, 3);
        p.setPen(palette().color(QPalette::WindowText));
    }

    const QVector<TokenView>& seq = model_->sequence();
    const qint32 selected = model_->selectedQuery();
    p.setFont(chipFont());
    const QVector<QRect>& rects = chips();
    for (qint32 i = 0; i < rects.size() && i < seq.size(); ++i) {
        const QRect r = rects[i];
        if (!r.intersects(e->rect())) continue;
        const TokenView& t = seq[i];
        const bool sel = i == selected;
        QPen pen(sel ? colors::selection() : colors::outline(t.origin), sel ? 3 : 1.5,
                 t.byte_fallback ? Qt::DashLine : Qt::SolidLine);
        p.setPen(pen);
        p.setBrush(colors::fill(t.origin));
        p.drawRoundedRect(QRectF(r).adjusted(1, 1, -1, -1), 5, 5);
        p.setPen(Qt::black);
        p.drawText(r.adjusted(kPadX, 0, -kPadX + 1, 0), Qt::AlignCenter, labels_[i]);
    }
}

}  // namespace lmscope::widgets
