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

namespace lmscope::widgets {

// The painted row of step blocks (an implementation detail of Timeline).
class TimelineCanvas : public QWidget {
public:
    TimelineCanvas(TraceModel* model, Timeline* owner) : QWidget(owner), model_(model), owner_(owner) {
        setObjectName(QStringLiteral("timelineCanvas"));
        setMinimumHeight(110);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

    QRect stepRect(qint32 step) const {
        const QVector<qint32> branch = model_->branchPath();
        const qsizetype i = branch.indexOf(step);
        if (i < 0) return {};
        // Prefill blocks are wider (kPrefillWidth decode widths) as well as taller.
        double before = 0.0, total = 0.0;
        for (qsizetype j = 0; j < branch.size(); ++j) {
            const double w = model_->step(branch[j])->phase == Phase::Prefill ? kPrefillWidth : 1.0;
            if (j < i) before += w;
            total += w;
        }
        const double own = model_->step(step)->phase == Phase::Prefill ? kPrefillWidth : 1.0;
        const int gap = branch.size() > 60 ? 1 : 4;
        const double unit = double(width() - 2 * kMargin) / total;
        const int x0 = kMargin + int(before * unit), x1 = kMargin + int((before + own) * unit) - gap;
        const int full = height() - 2 * kMargin - labelHeight();
        const bool prefill = model_->step(step)->phase == Phase::Prefill;
        const int h = prefill ? full : full * 11 / 20;
        return QRect(QPoint(x0, kMargin + full - h), QPoint(std::max(x0, x1), kMargin + full));
    }

    qint32 stepAt(const QPoint& p) const {
        for (qint32 s : model_->branchPath())
            if (stepRect(s).adjusted(0, -height(), 0, 0).contains(p)) return s;  // the column above counts too
        return -1;
    }

protected:
    static constexpr int kMargin = 8;
    static constexpr double kPrefillWidth = 2.5;
    int labelHeight() const { return QFontMetrics(font()).height() + 4; }

    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), Qt::white);
        p.setRenderHint(QPainter::Antialiasing);
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
        for (qint32 s : branch) {
            const StepView& st = *model_->step(s);
            const QRect r = stepRect(s);
            QColor fill = st.phase == Phase::Prefill ? colors::phase(Phase::Prefill)
                          : st.tokens.value(0).origin == Choice::Forced ? colors::chosen()
                                                                           : colors::phase(Phase::Decode);
            if (ahead) fill.setAlpha(70);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawRoundedRect(r, 3, 3);
            if (s == current) {
                p.setPen(QPen(colors::selection(), 3));
                p.setBrush(Qt::NoBrush);
                p.drawRoundedRect(QRectF(r).adjusted(-1.5, -1.5, 1.5, 1.5), 4, 4);
            }
            // Text inside when it fits: the token (decode) or the token count (prefill), and the time.
            const QString what = st.phase == Phase::Prefill
                                     ? Timeline::tr("prefill\n%n token(s)", nullptr, int(st.tokens.size()))
                                     : display_text(st.tokens.value(0).text);
            p.setPen(ahead ? QColor(0x70, 0x70, 0x70) : QColor(Qt::white));
            p.setFont(bold);
            if (QFontMetrics(bold).boundingRect(QRect(0, 0, 1000, 1000), 0, what).width() + 6 <= r.width())
                p.drawText(r, Qt::AlignCenter, what);
            p.setFont(font());
            p.setPen(palette().color(QPalette::WindowText));
            const QString ms = Timeline::tr("%1 ms").arg(st.forward_ms, 0, 'f', 1);
            if (QFontMetrics(font()).horizontalAdvance(ms) + 4 <= r.width() + 4)
                p.drawText(QRect(r.left() - 2, r.bottom() + 2, r.width() + 4, labelHeight()), Qt::AlignHCenter | Qt::AlignTop, ms);
            if (s == current && ahead_exists) ahead = true;
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
