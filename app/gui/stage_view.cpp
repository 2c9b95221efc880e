#include "gui/stage_view.h"

#include "gui/labs/lab.h"
#include "gui/labs/lab_window.h"
#include "gui/main_window.h"
#include "gui/session_controller.h"
#include "widgets/format.h"
#include "widgets/trace_model.h"

#include <QAction>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lmscope::gui {

namespace {

constexpr double kTitleScale = 1.6;      // over the stage's font
constexpr double kSentenceScale = 1.15;  // over the stage's font
constexpr qsizetype kTokenChars = 14;    // the picked token's text beside its picker

QFont scaled(QFont f, double factor) {
    if (f.pointSizeF() > 0) f.setPointSizeF(f.pointSizeF() * factor);
    else f.setPixelSize(std::max(1, int(f.pixelSize() * factor)));
    return f;
}

}  // namespace

// A widget taken from its place for the stage and put back when the loan ends: from a tab
// widget (a lab or a lab's tab: its tab goes and comes back where it was, under its title
// then), a splitter or a layout (a dock's panel: a placeholder keeps its place). A home
// destroyed meanwhile (the window closing) leaves the widget to the stage.
class StageView::Loan {
public:
    explicit Loan(QWidget* w) : widget_(w) {
        for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
            if (auto* tabs = qobject_cast<QTabWidget*>(p); tabs && tabs->indexOf(w) >= 0) {
                tabs_ = tabs;
                index_ = tabs->indexOf(w);
                text_ = tabs->tabText(index_);
                current_ = tabs->currentIndex() == index_;
                tabs->removeTab(index_);
                return;
            }
        QWidget* parent = w->parentWidget();
        if (auto* split = qobject_cast<QSplitter*>(parent); split && split->indexOf(w) >= 0) {
            splitter_ = split;
            index_ = split->indexOf(w);
            sizes_ = split->sizes();
            placeholder_ = new QWidget;
            split->replaceWidget(index_, placeholder_);
            return;
        }
        layout_ = parent ? parent->layout() : nullptr;
        if (layout_ && layout_->indexOf(w) >= 0) {
            placeholder_ = new QWidget;
            placeholder_->setObjectName(w->objectName() + QStringLiteral("OnStage"));
            delete layout_->replaceWidget(w, placeholder_);
        } else {
            layout_ = nullptr;  // no home to go back to: it stays where the stage puts it
        }
    }
    ~Loan() {
        if (!widget_) return;
        if (tabs_) {
            auto* lab = qobject_cast<labs::Lab*>(widget_.data());
            const int index = tabs_->insertTab(std::min(index_, tabs_->count()), widget_, lab ? lab->title() : text_);
            if (current_) tabs_->setCurrentIndex(index);
            widget_->setVisible(tabs_->currentIndex() == index);  // the tab widget shows its current page only
            return;
        } else if (splitter_ && placeholder_) {
            splitter_->replaceWidget(index_, widget_);
            splitter_->setSizes(sizes_);
            delete placeholder_;
        } else if (layout_ && placeholder_) {
            delete layout_->replaceWidget(placeholder_, widget_);
            delete placeholder_;
        } else {
            return;
        }
        widget_->show();
    }
    Loan(const Loan&) = delete;
    Loan& operator=(const Loan&) = delete;

private:
    QPointer<QWidget> widget_;
    QPointer<QTabWidget> tabs_;
    QString text_;  // the tab's text (a lab's own tab takes the lab's title, in the language then)
    QPointer<QSplitter> splitter_;
    QList<int> sizes_;
    int index_ = 0;
    bool current_ = false;
    QPointer<QLayout> layout_;
    QPointer<QWidget> placeholder_;
};

StageView::StageView(MainWindow* window)
    : QWidget(window),
      window_(window),
      counter_(new QLabel),
      title_(new QLabel),
      back_button_(new QPushButton),
      next_button_(new QPushButton),
      side_(new QWidget),
      sentences_(new QLabel),
      layer_label_(new QLabel),
      head_label_(new QLabel),
      token_label_(new QLabel),
      layer_(new QSpinBox),
      head_(new QSpinBox),
      token_(new QSpinBox),
      token_text_(new QLabel),
      keys_(new QLabel),
      panels_box_(new QSplitter),
      next_(new QAction(this)),
      previous_(new QAction(this)) {
    setObjectName(QStringLiteral("stageView"));
    setFocusPolicy(Qt::StrongFocus);  // the keys work from the start
    setFont(scaled(font(), kPanelScale));
    counter_->setObjectName(QStringLiteral("stageCounter"));
    title_->setObjectName(QStringLiteral("stageTitle"));
    sentences_->setObjectName(QStringLiteral("stageSentences"));
    side_->setObjectName(QStringLiteral("stageSide"));
    panels_box_->setObjectName(QStringLiteral("stagePanels"));
    panels_box_->setChildrenCollapsible(false);
    title_->setFont(scaled(font(), kTitleScale));
    counter_->setFont(scaled(font(), kTitleScale));
    sentences_->setFont(scaled(font(), kSentenceScale));
    sentences_->setWordWrap(true);
    sentences_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    sentences_->setTextFormat(Qt::PlainText);
    keys_->setWordWrap(true);
    keys_->setObjectName(QStringLiteral("stageKeys"));
    token_text_->setObjectName(QStringLiteral("stageTokenText"));
    layer_->setObjectName(QStringLiteral("stageLayer"));
    head_->setObjectName(QStringLiteral("stageHead"));
    token_->setObjectName(QStringLiteral("stageToken"));

    // Clicking a button or picker leaves the keyboard where it was: Space keeps stepping and
    // Page Down keeps moving on (a spin box with the focus would take Space and the arrows).
    for (QWidget* w : std::initializer_list<QWidget*>{back_button_, next_button_, layer_, head_, token_}) {
        w->setFocusPolicy(Qt::NoFocus);
        if (auto* edit = w->findChild<QLineEdit*>()) edit->setFocusPolicy(Qt::NoFocus);
    }

    next_->setObjectName(QStringLiteral("nextStageAction"));
    next_->setShortcuts({QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::Key_Right)});
    previous_->setObjectName(QStringLiteral("previousStageAction"));
    previous_->setShortcuts({QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_Left)});
    for (QAction* a : {next_, previous_}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }
    connect(next_, &QAction::triggered, this, [this] { showStage(current_ + 1); });
    connect(previous_, &QAction::triggered, this, [this] { showStage(current_ - 1); });
    connect(next_button_, &QPushButton::clicked, next_, &QAction::trigger);
    connect(back_button_, &QPushButton::clicked, previous_, &QAction::trigger);

    title_->setWordWrap(true);
    auto* heading = new QWidget;
    auto* heading_row = new QHBoxLayout(heading);
    heading_row->setContentsMargins(0, 0, 0, 0);
    heading_row->addWidget(counter_, 0, Qt::AlignTop);
    heading_row->addWidget(title_, 1);

    pickers_ = new QWidget;
    auto* pickers = new QGridLayout(pickers_);
    pickers->setContentsMargins(0, 6, 0, 6);
    pickers->addWidget(layer_label_, 0, 0);
    pickers->addWidget(layer_, 0, 1);
    pickers->addWidget(head_label_, 1, 0);
    pickers->addWidget(head_, 1, 1);
    pickers->addWidget(token_label_, 2, 0);
    pickers->addWidget(token_, 2, 1);
    pickers->addWidget(token_text_, 3, 0, 1, 2);
    pickers->setColumnStretch(1, 1);

    auto* nav = new QWidget;
    auto* nav_row = new QHBoxLayout(nav);
    nav_row->setContentsMargins(0, 0, 0, 0);
    nav_row->addWidget(back_button_);
    nav_row->addWidget(next_button_);

    gap_ = new QWidget;
    gap_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    side_layout_ = new QBoxLayout(QBoxLayout::TopToBottom, side_);
    side_layout_->setContentsMargins(0, 0, 0, 0);
    side_layout_->addWidget(heading);
    side_layout_->addWidget(sentences_);
    side_layout_->addWidget(pickers_);
    side_layout_->addWidget(gap_);
    side_layout_->addWidget(nav, 0, Qt::AlignBottom);
    side_layout_->addWidget(keys_);

    body_ = new QBoxLayout(QBoxLayout::LeftToRight);
    body_->addWidget(side_);
    body_->addWidget(panels_box_, 1);

    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(8, 6, 8, 6);
    column->addLayout(body_, 1);

    widgets::TraceModel* trace = window_->session()->model();
    for (auto signal : {&widgets::TraceModel::modelChanged, &widgets::TraceModel::stepsChanged})
        connect(trace, signal, this, &StageView::updatePickers);
    connect(trace, &widgets::TraceModel::headChanged, this, &StageView::updatePickers);
    connect(trace, &widgets::TraceModel::queryChanged, this, &StageView::updatePickers);
    connect(trace, &widgets::TraceModel::currentStepChanged, this, &StageView::updatePickers);
    for (QSpinBox* s : {layer_, head_, token_}) connect(s, &QSpinBox::valueChanged, this, &StageView::pick);
    retranslate();
    updatePickers();
}

StageView::~StageView() { release(); }

int StageView::count() const { return int(stages().size()); }

QList<QWidget*> StageView::panels() const { return shown_; }

labs::Lab* StageView::lab(Panel panel) const {
    for (labs::Lab* lab : window_->labWindow()->labs())
        if (lab->objectName() == panel_object_name(panel)) return lab;
    return nullptr;
}

QWidget* StageView::lend(Panel panel) { return lend(is_lab(panel) ? lab(panel) : window_->session()->panelWidget(panel)); }

QWidget* StageView::lend(QWidget* w) {
    if (!w) return nullptr;
    if (window_->labWindow()->isAncestorOf(w)) lab_panes_.insert(w);
    loans_.push_back(std::make_unique<Loan>(w));
    return w;
}

void StageView::release() {
    shown_.clear();
    lab_panes_.clear();
    loans_.clear();  // each goes home, out of its holder
    while (panels_box_->count() > 0) delete panels_box_->widget(0);  // the holders, empty now
    current_ = -1;
}

void StageView::showStage(int index) {
    index = std::clamp(index, 0, count() - 1);
    if (index == current_) return;
    release();
    current_ = index;
    const StageSpec& stage = stages()[std::size_t(index)];
    shown_ = stage.panels(*this);
    const bool wide = stage.arrangement == StageArrangement::Wide;
    // a column on the left, or a band across the top: the title, the sentences, Back and Next
    body_->setDirection(wide ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    side_layout_->setDirection(wide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    side_layout_->setStretchFactor(sentences_, wide ? 1 : 0);
    gap_->setVisible(!wide);
    panels_box_->setOrientation(stage.arrangement == StageArrangement::SideBySide ? Qt::Horizontal : Qt::Vertical);
    keys_->setVisible(!wide);
    fitSide();
    for (QWidget* w : shown_) {
        // Each panel in a holder with its font: the stage's, or the window's for a lab. The
        // panel inherits it while it is here and its home's again when it goes back.
        auto* holder = new QWidget;
        holder->setObjectName(w->objectName() + QStringLiteral("Holder"));
        // a panel that needs more than the stage has is cut (and the layout check says so),
        // never a window grown past the projector's screen
        holder->setMinimumSize(1, 1);
        holder->setFont(lab_panes_.contains(w) ? window_->font() : font());
        auto* box = new QVBoxLayout(holder);
        box->setContentsMargins(0, 0, 0, 0);
        box->addWidget(w);
        panels_box_->addWidget(holder);
        w->show();
    }
    // Of two panels side by side the first (a heatmap, the logits) is the larger; of two
    // stacked, the second (the first is a strip: tokens, a timeline, a lab's rows).
    const bool across = stage.arrangement == StageArrangement::SideBySide;
    for (int i = 0; i < panels_box_->count(); ++i) panels_box_->setStretchFactor(i, (i == 0) == across ? 3 : 2);
    if (panels_box_->count() == 2) panels_box_->setSizes(across ? QList<int>{3000, 2000} : QList<int>{2000, 3000});  // scaled to the room
    const bool layer = stage.pickers & kPickLayer, head = stage.pickers & kPickHead, token = stage.pickers & kPickToken;
    pickers_->setVisible(stage.pickers != kPickNone);
    back_button_->setEnabled(index > 0);
    next_button_->setEnabled(index < count() - 1);
    layer_label_->setVisible(layer);
    layer_->setVisible(layer);
    head_label_->setVisible(head);
    head_->setVisible(head);
    token_label_->setVisible(token);
    token_->setVisible(token);
    token_text_->setVisible(token);
    retranslate();
    emit stageChanged(index);
}

void StageView::resizeEvent(QResizeEvent* e) {
    fitSide();
    QWidget::resizeEvent(e);
}

void StageView::fitSide() {
    const bool band = current_ >= 0 && stages()[std::size_t(current_)].arrangement == StageArrangement::Wide;
    if (band) {  // above the panels, across the width; the title a column of its own
        side_->setMinimumWidth(0);
        side_->setMaximumWidth(QWIDGETSIZE_MAX);
        title_->parentWidget()->setFixedWidth(std::clamp(width() / 5, 200, 400));
    } else {  // the column: a fifth of the width, within what a line of large text needs
        title_->parentWidget()->setMinimumWidth(0);
        title_->parentWidget()->setMaximumWidth(QWIDGETSIZE_MAX);
        side_->setFixedWidth(std::clamp(width() / 5, 240, 420));
    }
}

void StageView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

void StageView::retranslate() {
    back_button_->setText(tr("‹ Back"));
    next_button_->setText(tr("Next ›"));
    next_->setText(tr("Next Stage"));
    previous_->setText(tr("Previous Stage"));
    layer_label_->setText(tr("Layer"));
    head_label_->setText(tr("Head"));
    token_label_->setText(tr("Token"));
    keys_->setText(tr("Page Down / → next stage · Page Up / ← back · Space steps · Esc leaves"));
    if (current_ < 0) return;
    const StageSpec& stage = stages()[std::size_t(current_)];
    counter_->setText(QStringLiteral("%1 / %2").arg(current_ + 1).arg(count()));
    title_->setText(stage_title(stage));
    sentences_->setText(stage_sentences(stage));
    updatePickers();
}

void StageView::updatePickers() {
    const widgets::TraceModel* trace = window_->session()->model();
    const widgets::ModelView& m = trace->model();
    const QSignalBlocker quiet_layer(layer_), quiet_head(head_), quiet_token(token_);
    layer_->setRange(0, std::max(0, m.n_layer - 1));
    head_->setRange(0, std::max(0, m.n_head - 1));
    layer_->setValue(trace->selectedLayer());
    head_->setValue(trace->selectedHead());
    // the KV head the query head reads: its GQA group
    head_->setSuffix(m.n_head_kv > 0 && m.n_head_kv < m.n_head ? tr(" (KV %1)").arg(m.kv_group(head_->value())) : QString());
    const qint32 n = trace->sequenceLength();
    token_->setRange(0, std::max(0, n - 1));
    token_->setEnabled(n > 0);
    if (n == 0) {
        token_text_->clear();
        token_text_->setToolTip({});
        return;
    }
    const qint32 query = trace->selectedQuery();
    token_->setValue(query);
    const QString text = widgets::display_text(trace->sequence()[query].text);
    token_text_->setText(widgets::elided(text, kTokenChars));
    token_text_->setToolTip(text.size() > kTokenChars ? widgets::tooltip_text(text) : QString());
}

void StageView::pick() {
    widgets::TraceModel* trace = window_->session()->model();
    if (layer_->value() != trace->selectedLayer() || head_->value() != trace->selectedHead())
        trace->setSelectedHead(layer_->value(), head_->value());
    if (trace->sequenceLength() > 0 && token_->value() != trace->selectedQuery()) trace->setSelectedQuery(token_->value());
}

}  // namespace lmscope::gui
