#include "widgets/spec_panel.h"

#include "widgets/format.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QScrollBar>
#include <QStringList>
#include <QVBoxLayout>

namespace lmscope::widgets {

static QFont scaled_font(const QFont& base, double scale, bool bold) {
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * scale);
    f.setBold(bold);
    return f;
}

namespace {

// Each line of `text` elided to SpecPanel::kMaxLineChars; *cut tells whether any was.
QString bounded_lines(const QString& text, bool* cut) {
    QStringList lines = text.split(QLatin1Char('\n'));
    *cut = false;
    for (QString& line : lines) {
        const QString shown = elided(line, SpecPanel::kMaxLineChars);
        *cut = *cut || shown.size() != line.size();
        line = shown;
    }
    return lines.join(QLatin1Char('\n'));
}

// Shows `text` bounded, as plain text (a name from a file is never markup), with the whole of
// it in the tooltip when a line was cut (or `tip` alone when none was).
void show_bounded(QLabel* label, const QString& text, const QString& tip = {}) {
    bool cut = false;
    label->setText(bounded_lines(text, &cut));
    const QString whole = cut ? (tip.isEmpty() ? text : tip + QLatin1Char('\n') + text) : tip;
    label->setToolTip(whole.isEmpty() ? QString() : tooltip_text(whole));
}

}  // namespace

SpecPanel::SpecPanel(QWidget* parent)
    : QScrollArea(parent), title_(new QLabel), subtitle_(new QLabel), grid_(new QGridLayout) {
    auto* inner = new QWidget;
    title_->setObjectName(QStringLiteral("title"));
    title_->setFont(scaled_font(font(), 1.9, true));
    title_->setWordWrap(true);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setTextFormat(Qt::PlainText);
    subtitle_->setObjectName(QStringLiteral("subtitle"));
    subtitle_->setWordWrap(true);
    subtitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    subtitle_->setTextFormat(Qt::PlainText);
    subtitle_->setForegroundRole(QPalette::PlaceholderText);

    auto* line = new QFrame;
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);

    grid_->setHorizontalSpacing(16);
    grid_->setVerticalSpacing(6);
    grid_->setColumnStretch(0, 1);

    auto* layout = new QVBoxLayout(inner);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(title_);
    layout->addWidget(subtitle_);
    layout->addWidget(line);
    layout->addLayout(grid_);
    layout->addStretch(1);

    setWidget(inner);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QSize SpecPanel::minimumSizeHint() const {
    const int chrome = verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
    return {widget()->minimumSizeHint().width() + chrome, 120};
}

QSize SpecPanel::sizeHint() const {
    const int chrome = verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
    return {widget()->sizeHint().width() + chrome, widget()->sizeHint().height()};
}

QString SpecPanel::subtitle() const { return subtitle_->text(); }

QString SpecPanel::title() const { return title_->text(); }

QLabel* SpecPanel::valueLabel(const QString& id) const {
    return widget()->findChild<QLabel*>(QStringLiteral("value_") + id);
}

void SpecPanel::clearRows() {
    for (QLabel* l : row_labels_) delete l;
    row_labels_.clear();
}

void SpecPanel::setSpec(const QString& title, const QString& subtitle,
                        const QList<SpecFigure>& figures) {
    show_bounded(title_, title);
    show_bounded(subtitle_, subtitle);
    subtitle_->setVisible(!subtitle.isEmpty());
    clearRows();
    figures_ = figures;

    const QFont label_font = scaled_font(font(), 1.15, false);
    const QFont value_font = scaled_font(font(), 1.6, true);
    int row = 0;
    for (const SpecFigure& f : figures_) {
        auto* label = new QLabel;
        label->setObjectName(QStringLiteral("label_") + f.id);
        label->setFont(label_font);
        label->setTextFormat(Qt::PlainText);
        show_bounded(label, f.label, f.tooltip);
        auto* value = new QLabel;
        value->setObjectName(QStringLiteral("value_") + f.id);
        // A list (Gemma's recipe: a line per feature) under its label, at the label's size: in
        // the large figures' font beside it, it widened the Model dock past a 1280-px window's room.
        const bool list = f.value.contains(QLatin1Char('\n'));
        value->setFont(list ? label_font : value_font);
        value->setTextFormat(Qt::PlainText);
        show_bounded(value, f.value, f.tooltip);
        value->setAlignment(list ? Qt::AlignLeft | Qt::AlignTop : Qt::AlignRight | Qt::AlignVCenter);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        grid_->addWidget(label, row, 0, 1, list ? 2 : 1);
        if (list) ++row;
        grid_->addWidget(value, row, list ? 0 : 1, 1, list ? 2 : 1);
        row_labels_ << label << value;
        label->show();  // now, not at the layout's deferred show, so the minimum below counts them
        value->show();
        ++row;
    }
    // An explicit minimum from the new rows: docks and splitters then never cut values off.
    setMinimumWidth(minimumSizeHint().width());
}

}  // namespace lmscope::widgets
