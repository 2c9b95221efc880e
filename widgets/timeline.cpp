#include "widgets/timeline.h"

#include "widgets/trace_colors.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lmscope::widgets {

namespace {

// A tick's step on a time axis: 1, 2 or 5 x 10^k ms, the smallest that keeps `count` ticks
// or fewer over `total_ms`.
double tick_step(double total_ms, int count) {
    const double raw = total_ms / std::max(1, count);
    double unit = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-3))));
    for (;; unit *= 10.0)
        for (double m : {1.0, 2.0, 5.0})
            if (m * unit >= raw) return m * unit;
}

// The decimals a multiple of `step` needs in `unit` ms (0.25 s: 2; 500 ms: 0).
int decimals(double step, double unit) {
    int d = 0;
    for (double v = step / unit; d < 3 && std::abs(v - std::round(v)) > 1e-9; v *= 10.0) ++d;
    return d;
}

}  // namespace

QString Timeline::tickLabel(double ms, double step, bool seconds) {
    if (seconds) return tr("%1 s").arg(ms / 1000.0, 0, 'f', decimals(step, 1000.0));
    return tr("%1 ms").arg(ms, 0, 'f', decimals(step, 1.0));
}

QString Timeline::durationText(double ms) {
    return ms >= 1000.0 ? tr("%1 s").arg(ms / 1000.0, 0, 'f', 2) : tr("%1 ms").arg(ms, 0, 'f', 1);
}

// The painted steps on their time axis (an implementation detail of Timeline): each step a bar
// from the time it started to the time it ended, on one linear scale, so a bar is as long as
// its forward pass took; under the bars their times, under those the axis with its ticks.
class TimelineCanvas : public QWidget {
public:
    TimelineCanvas(TraceModel* model, Timeline* owner) : QWidget(owner), model_(model), owner_(owner) {
        setObjectName(QStringLiteral("timelineCanvas"));
        setMinimumHeight(110);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

    // Where the shown branch's time runs: x of `ms` after the first step began.
    struct Scale {
        double total_ms = 0;   // the branch's forward time, summed
        double left = 0, px_per_ms = 0;
        double x(double ms) const { return left + ms * px_per_ms; }
    };
    Scale scale() const {
        Scale sc;
        for (qint32 s : model_->branchPath()) sc.total_ms += std::max(0.0, model_->step(s)->forward_ms);
        sc.left = kMargin;
        const double right = width() - kMargin - edgeRoom();
        sc.px_per_ms = sc.total_ms > 0 ? std::max(1.0, right - sc.left) / sc.total_ms : 0.0;
        return sc;
    }

    QRect stepRect(qint32 step) const {
        const QVector<qint32> branch = model_->branchPath();
        const qsizetype i = branch.indexOf(step);
        if (i < 0) return {};
        const Scale sc = scale();
        double start = 0.0;
        for (qsizetype j = 0; j < i; ++j) start += std::max(0.0, model_->step(branch[j])->forward_ms);
        const int x0 = int(std::lround(sc.x(start)));
        const int x1 = int(std::lround(sc.x(start + std::max(0.0, model_->step(step)->forward_ms))));
        const int w = x1 - x0, gap = w >= 8 ? 2 : w >= 4 ? 1 : 0;  // a gap where it leaves a bar to see
        const int full = barsHeight();
        const int h = model_->step(step)->phase == Phase::Prefill ? full : full * 11 / 20;
        return QRect(QPoint(x0, kMargin + full - h), QPoint(std::max(x0, x1 - 1 - gap), kMargin + full));
    }

    QVector<Timeline::Tick> ticks() const {
        QVector<Timeline::Tick> out;
        const Scale sc = scale();
        if (sc.total_ms <= 0) return out;
        const QFontMetrics fm(font());
        // As many ticks as labels of the widest kind fit, with room between them.
        const bool seconds = sc.total_ms >= 1000.0;
        const QString widest = Timeline::tickLabel(sc.total_ms, seconds ? 1000.0 : 1.0, seconds);
        const int room = fm.horizontalAdvance(widest) + 3 * fm.averageCharWidth() + 12;
        const double step = tick_step(sc.total_ms, std::max(1, int((width() - 2 * kMargin) / room)));
        const int y = axisY() + kTick + 1;
        for (int k = 0; k * step <= sc.total_ms * (1 + 1e-9); ++k) {
            Timeline::Tick t;
            t.ms = k * step;
            t.x = int(std::lround(sc.x(t.ms)));
            t.label = Timeline::tickLabel(t.ms, step, seconds);
            const int w = fm.horizontalAdvance(t.label);
            t.label_rect = QRect(std::clamp(t.x - w / 2, 0, std::max(0, width() - w)), y, w, fm.height());
            out.push_back(t);
        }
        return out;
    }

    qint32 stepAt(const QPoint& p) const {
        for (qint32 s : model_->branchPath()) {
            const QRect r = stepRect(s);
            if (p.x() >= r.left() && p.x() <= r.right() + 2 && p.y() <= axisY()) return s;  // the column above counts too
        }
        return -1;
    }

protected:
    static constexpr int kMargin = 8, kTick = 4;
    int labelHeight() const { return QFontMetrics(font()).height() + 4; }
    // Room at the right for the last tick's label to centre on its tick.
    int edgeRoom() const { return QFontMetrics(font()).horizontalAdvance(QStringLiteral("00.0 ms")) / 2; }
    int axisY() const { return height() - kMargin - labelHeight() - kTick; }
    int barsHeight() const { return std::max(12, axisY() - labelHeight() - 2 - kMargin); }

    // Decode bars alternate two shades, so neighbours stay apart however thin they get.
    static QColor barColor(const StepView& st, qsizetype decode_index) {
        if (st.phase == Phase::Prefill) return colors::phase(Phase::Prefill);
        const QColor c = st.tokens.value(0).origin == Choice::Forced ? colors::chosen() : colors::phase(Phase::Decode);
        return decode_index % 2 ? c.lighter(135) : c;
    }

    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), Qt::white);
        const QVector<qint32> branch = model_->branchPath();
        if (branch.isEmpty()) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(rect(), Qt::AlignCenter, Timeline::tr("No steps yet"));
            return;
        }
        const qint32 current = model_->currentStep();
        const bool ahead_exists = branch.back() != current;
        bool ahead = false;
        QFont bold = font();
        bold.setBold(true);
        qsizetype decodes = 0;
        int label_end = -1;  // the right end of the last time printed under a bar
        for (qint32 s : branch) {
            const StepView& st = *model_->step(s);
            const QRect r = stepRect(s);
            QColor fill = barColor(st, st.phase == Phase::Decode ? decodes++ : 0);
            if (ahead) fill.setAlpha(70);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.setRenderHint(QPainter::Antialiasing, r.width() >= 6);
            if (r.width() >= 6) p.drawRoundedRect(r, 3, 3);
            else p.drawRect(r);
            if (s == current) {
                p.setRenderHint(QPainter::Antialiasing);
                p.setPen(QPen(colors::selection(), 3));
                p.setBrush(Qt::NoBrush);
                p.drawRoundedRect(QRectF(r).adjusted(-1.5, -1.5, 1.5, 1.5), 4, 4);
            }
            // Text inside when it fits: the token (decode) or the token count (prefill).
            const QString what = st.phase == Phase::Prefill
                                     ? Timeline::tr("prefill\n%n token(s)", nullptr, int(st.tokens.size()))
                                     : display_text(st.tokens.value(0).text);
            p.setPen(ahead ? QColor(0x70, 0x70, 0x70) : QColor(Qt::white));
            p.setFont(bold);
            if (QFontMetrics(bold).boundingRect(QRect(0, 0, 1000, 1000), 0, what).width() + 6 <= r.width())
                p.drawText(r, Qt::AlignCenter, what);
            // The time under the bar when it fits there and clears the one before.
            p.setFont(font());
            p.setPen(palette().color(QPalette::WindowText));
            const QString ms = Timeline::durationText(st.forward_ms);
            const int w = QFontMetrics(font()).horizontalAdvance(ms);
            const int x = r.center().x() - w / 2;
            if (w <= r.width() + 4 && x > label_end + 4) {
                p.drawText(QRect(x, r.bottom() + 2, w, labelHeight()), Qt::AlignHCenter | Qt::AlignTop, ms);
                label_end = x + w;
            }
            if (s == current && ahead_exists) ahead = true;
        }
        // The time axis: a line, its ticks and their labels.
        p.setRenderHint(QPainter::Antialiasing, false);
        const Scale sc = scale();
        const QColor axis = palette().color(QPalette::WindowText);
        p.setPen(QPen(axis, 1));
        p.drawLine(QPointF(sc.x(0), axisY()), QPointF(sc.x(sc.total_ms), axisY()));
        for (const Timeline::Tick& t : ticks()) {
            p.drawLine(t.x, axisY(), t.x, axisY() + kTick);
            p.drawText(t.label_rect, Qt::AlignCenter, t.label);
        }
    }

    void mousePressEvent(QMouseEvent* e) override {
        const qint32 s = stepAt(e->position().toPoint());
        if (e->button() == Qt::LeftButton && s >= 0) emit owner_->rewindTo(s);
        else QWidget::mousePressEvent(e);
    }

    bool event(QEvent* e) override {
        if (e->type() != QEvent::ToolTip) return QWidget::event(e);
        auto* help = static_cast<QHelpEvent*>(e);
        const qint32 s = stepAt(help->pos());
        if (s < 0) {
            QToolTip::hideText();
            return true;
        }
        const StepView& st = *model_->step(s);
        const QString phase = st.phase == Phase::Prefill ? Timeline::tr("prefill") : Timeline::tr("decode");
        QToolTip::showText(help->globalPos(),
                           Timeline::tr("Step %1 · %2 · positions %3–%4<br>forward %5 ms · sampling %6 ms<br>click to rewind here")
                               .arg(s)
                               .arg(phase)
                               .arg(st.first_pos)
                               .arg(st.end_pos() - 1)
                               .arg(st.forward_ms, 0, 'f', 2)
                               .arg(st.sample_ms, 0, 'f', 2),
                           this, stepRect(s));
        return true;
    }

private:
    TraceModel* model_;
    Timeline* owner_;
};

Timeline::Timeline(TraceModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("timeline"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    branch_label_ = new QLabel(this);
    branch_box_ = new QComboBox(this);
    branch_box_->setObjectName(QStringLiteral("branchBox"));
    branch_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    branch_box_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);  // its entry whole; the summary wraps
    branch_label_->setBuddy(branch_box_);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("timelineSummary"));
    summary_->setWordWrap(true);
    top->addWidget(branch_label_);
    top->addWidget(branch_box_);
    top->addSpacing(16);
    top->addWidget(summary_, 1);
    layout->addLayout(top);
    canvas_ = new TimelineCanvas(model_, this);
    layout->addWidget(canvas_, 1);

    connect(branch_box_, &QComboBox::activated, this, [this](int i) {
        const qint32 leaf = branch_box_->itemData(i).toInt();
        model_->selectBranch(leaf);
        emit branchSelected(leaf);
    });
    connect(model_, &TraceModel::stepsChanged, this, &Timeline::refreshBranches);
    connect(model_, &TraceModel::branchChanged, this, &Timeline::refreshBranches);
    connect(model_, &TraceModel::currentStepChanged, this, [this] {
        refreshSummary();
        canvas_->update();
    });
    retranslate();
}

void Timeline::retranslate() {
    branch_label_->setText(tr("Branch"));
    refreshBranches();  // the entries and the summary
}

void Timeline::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

QWidget* Timeline::canvas() const { return canvas_; }

QRect Timeline::stepRect(qint32 step) const { return canvas_->stepRect(step); }

QVector<Timeline::Tick> Timeline::ticks() const { return canvas_->ticks(); }

void Timeline::refreshBranches() {
    const QSignalBlocker block(branch_box_);
    branch_box_->clear();
    const QVector<qint32> leaves = model_->leaves();
    for (qsizetype i = 0; i < leaves.size(); ++i) {
        const StepView& end = *model_->step(leaves[i]);
        const QString last = end.tokens.isEmpty() ? QString() : display_text(end.tokens.back().text);
        branch_box_->addItem(tr("%1: … '%2' (%n step(s))", nullptr, int(model_->pathTo(leaves[i]).size())).arg(i + 1).arg(last),
                             leaves[i]);
    }
    branch_box_->setCurrentIndex(branch_box_->findData(model_->branchLeaf()));
    // Some glyphs (Chinese punctuation) draw wider than the contents size counts: a little slack.
    branch_box_->setMinimumWidth(branch_box_->sizeHint().width() + fontMetrics().averageCharWidth());
    branch_box_->setEnabled(leaves.size() > 1);
    refreshSummary();
    canvas_->update();
}

void Timeline::refreshSummary() {
    double prefill_ms = 0, decode_ms = 0;
    qint32 prefill_tokens = 0, decodes = 0;
    for (qint32 s : model_->path()) {
        const StepView& st = *model_->step(s);
        if (st.phase == Phase::Prefill) {
            prefill_ms += st.forward_ms;
            prefill_tokens += qint32(st.tokens.size());
        } else {
            decode_ms += st.forward_ms;
            ++decodes;
        }
    }
    QStringList parts;
    if (prefill_tokens > 0)
        parts << tr("prefill %1 ms for %n token(s) (%2 ms/token)", nullptr, prefill_tokens)
                     .arg(prefill_ms, 0, 'f', 1)
                     .arg(prefill_ms / prefill_tokens, 0, 'f', 2);
    if (decodes > 0)
        parts << tr("decode %1 ms/token over %n step(s)", nullptr, decodes).arg(decode_ms / decodes, 0, 'f', 2);
    summary_->setText(parts.join(QStringLiteral(" · ")));
}

}  // namespace lmscope::widgets
