#include "gui/dock_layout.h"

#include "gui/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>

#include <algorithm>

namespace lmscope::gui {
namespace {

constexpr QSize kWideFrom(1500, 900);  // window pixels at the normal font size
constexpr int kStateVersion = 2;       // QMainWindow::saveState's version tag for these layouts

QString settings_key(const QString& key) { return QStringLiteral("layout/") + key; }

// The height `dock` needs at about `width` so that its panel does not scroll: the panel's own
// minimum (heights that follow the width, as wrapped text does, asked a little narrower, since
// splitters and frames take some of it), the dock's title bar and some slack.
int needed_height(const QDockWidget* dock, int width) {
    const QWidget* panel = dock->widget();
    if (const auto* scroll = qobject_cast<const QScrollArea*>(panel); scroll && scroll->widget()) panel = scroll->widget();
    const int narrower = width * 85 / 100;
    const int h = panel->hasHeightForWidth() ? panel->heightForWidth(narrower) : panel->minimumSizeHint().height();
    return std::max(h, panel->minimumSizeHint().height()) + dock->fontMetrics().height() + 22;
}

// Every floating dock of the window fitted to the screen.
void fit_floating_docks(MainWindow* window) {
    for (QDockWidget* d : window->findChildren<QDockWidget*>())
        if (d->isFloating()) fit_to_screen(d);
}

// The event filter of keep_on_screen: the window fitted on each Show, and once more after it
// (its frame is known only once the window is mapped) unless it was resized meanwhile.
class ScreenKeeper : public QObject {
public:
    explicit ScreenKeeper(QWidget* window) : QObject(window), window_(window) { window->installEventFilter(this); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == window_ && event->type() == QEvent::Show) {
            fit_to_screen(window_);
            QTimer::singleShot(0, this, [this, shown = window_->size()] {
                if (window_->size() == shown) fit_to_screen(window_);
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QWidget* window_;
};

}  // namespace

void keep_on_screen(QWidget* window) { new ScreenKeeper(window); }

bool fit_to_screen(QWidget* window) {
    const QScreen* screen = window->screen();
    if (!screen) return false;
    const QRect room = screen->availableGeometry();
    const QRect frame = window->frameGeometry(), inner = window->geometry();
    const QSize chrome = frame.size() - inner.size();  // title bar and borders
    if (room.contains(frame)) return false;
    const QSize size = inner.size().boundedTo(room.size() - chrome).expandedTo(QSize(1, 1));
    window->resize(size);
    // Then onto the screen: the frame's top left clamped so that the whole frame fits.
    const QSize outer = size + chrome;
    window->move(std::clamp(frame.left(), room.left(), std::max(room.left(), room.right() + 1 - outer.width())),
                 std::clamp(frame.top(), room.top(), std::max(room.top(), room.bottom() + 1 - outer.height())));
    return true;
}

DockLayout::DockLayout(MainWindow* window)
    : QObject(window), window_(window), workspace_action_(new QAction(this)), resized_(new QTimer(this)) {
    resized_->setSingleShot(true);
    resized_->setInterval(0);
    connect(resized_, &QTimer::timeout, this, [this] {
        if (arranged_ && !window_->isStageMode()) fitRows(*arranged_ == Arrangement::Compact);
    });
    window->installEventFilter(this);
    workspace_action_->setObjectName(QStringLiteral("workspaceAction"));
    workspace_action_->setCheckable(true);
    workspace_action_->setChecked(true);
    connect(workspace_action_, &QAction::toggled, this, &DockLayout::setWorkspaceShown);
}

DockLayout::Arrangement DockLayout::arrangementFor(QSize window, double font_scale) {
    const double s = font_scale > 0 ? font_scale : 1.0;
    return window.width() / s < kWideFrom.width() || window.height() / s < kWideFrom.height() ? Arrangement::Compact
                                                                                                : Arrangement::Wide;
}

bool DockLayout::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::Resize) resized_->start();
    return QObject::eventFilter(watched, event);
}

void DockLayout::applyDefault(double font_scale) {
    const auto [tokens, heat, grid, logits, kv, timeline, spec, sampling] = find();
    for (QDockWidget* d : {tokens, heat, grid, logits, kv, timeline, spec, sampling}) {
        d->setFloating(false);
        d->show();
    }
    const QSize size = window_->size();
    arranged_ = arrangementFor(size, font_scale);
    const bool compact = *arranged_ == Arrangement::Compact;
    window_->setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    window_->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    // Re-adding a dock takes it out of any tab group or split it was in. (Splits come before
    // tab groups: splitting a tabbed dock adds a tab instead.)
    window_->addDockWidget(Qt::RightDockWidgetArea, heat);
    window_->tabifyDockWidget(heat, grid);
    if (QDockWidget* layer = window_->dock(Panel::Layer)) {
        layer->setFloating(false);
        layer->show();
        window_->tabifyDockWidget(heat, layer);
    }
    window_->addDockWidget(Qt::TopDockWidgetArea, tokens);
    window_->addDockWidget(Qt::BottomDockWidgetArea, logits);
    // The tensor and metadata tables give their room to the panels in the compact arrangement
    // (View > Tensors and Metadata brings them back).
    setWorkspaceShown(!compact);
    if (compact) {
        for (QDockWidget* d : {kv, timeline, spec, sampling}) {
            window_->addDockWidget(Qt::BottomDockWidgetArea, d);
            window_->tabifyDockWidget(logits, d);
        }
    } else {
        // Tokens over Timeline | Model along the top, Logits, KV Cache and Sampling along the
        // bottom.
        window_->addDockWidget(Qt::TopDockWidgetArea, timeline);
        window_->splitDockWidget(tokens, timeline, Qt::Vertical);
        window_->addDockWidget(Qt::BottomDockWidgetArea, kv);
        window_->splitDockWidget(logits, kv, Qt::Horizontal);
        window_->addDockWidget(Qt::BottomDockWidgetArea, sampling);
        window_->splitDockWidget(kv, sampling, Qt::Horizontal);
        window_->addDockWidget(Qt::TopDockWidgetArea, spec);
        window_->tabifyDockWidget(timeline, spec);
        timeline->raise();
    }
    heat->raise();
    logits->raise();
    // Sizes once the window has laid the new arrangement out (the heights split are then
    // the real ones: resizeDocks scales sizes that do not add up to them).
    QTimer::singleShot(0, this, [this, compact] { fitDocks(compact); });
}

void DockLayout::refit(double font_scale) {
    const bool compact = arranged_.value_or(arrangementFor(window_->size(), font_scale)) == Arrangement::Compact;
    QTimer::singleShot(0, this, [this, compact] { fitRows(compact); });
}

void DockLayout::fitDocks(bool compact) {
    // The columns first; the rows and the bottom's widths once the columns are laid out.
    window_->resizeDocks({find().heat}, {heatWidth(compact)}, Qt::Horizontal);
    QTimer::singleShot(0, this, [this, compact] { fitRows(compact); });
}

DockLayout::Docks DockLayout::find() const {
    auto dock = [this](Panel panel) { return window_->dock(panel); };
    return {dock(Panel::Tokens),  dock(Panel::Attention), dock(Panel::AttentionGrid), dock(Panel::Logits),
            dock(Panel::KvCache), dock(Panel::Timeline),  dock(Panel::Model),         dock(Panel::Sampling)};
}

int DockLayout::heatWidth(bool compact) const { return window_->width() * (compact ? 50 : 38) / 100; }

void DockLayout::fitRows(bool compact) {
    const auto [tokens, heat, grid, logits, kv, timeline, spec, sampling] = find();
    const QSize size = window_->size();
    const int left = size.width() - heatWidth(compact);
    if (compact) {
        // Tokens get what their panel needs, or 30% (a few rows of chips) where the tabs below
        // keep what theirs need.
        const int both = tokens->height() + logits->height();
        int below = 0;
        for (QDockWidget* d : {logits, kv, timeline, spec, sampling}) below = std::max(below, needed_height(d, left));
        const int top = std::max(needed_height(tokens, left), std::min(size.height() * 30 / 100, both - below));
        window_->resizeDocks({tokens, logits}, {top, std::max(both - top, 1)}, Qt::Vertical);
        return;
    }
    const int top = std::max(needed_height(tokens, left), size.height() * 19 / 100);
    // The timeline and its tab bar (the model's figures behind it scroll).
    const int middle = needed_height(timeline, left) + timeline->fontMetrics().height() + 14;
    const int bottom = std::max(size.height() * 40 / 100, std::max(needed_height(logits, left * 41 / 100), needed_height(sampling, left * 24 / 100)));
    const int rows = tokens->height() + timeline->height() + logits->height() + window_->centralWidget()->height();
    window_->resizeDocks({tokens, timeline, logits}, {top, middle, std::min(bottom, std::max(rows - top - middle - 84, 1))},
                         Qt::Vertical);
    // Logits, KV cache and the settings side by side: each its share of the row.
    const int row = logits->width() + kv->width() + sampling->width();
    window_->resizeDocks({logits, kv, sampling}, {row * 41 / 100, row * 35 / 100, row * 24 / 100}, Qt::Horizontal);
}

// The tables are collapsed to no height rather than hidden: without a visible central widget,
// Qt's dock layout widens the right dock area by one separator at each relayout (each step
// relays the panels out: the left column drifted narrower step by step, issue 35).
void DockLayout::setWorkspaceShown(bool shown) {
    if (QWidget* central = window_->centralWidget()) {
        if (!shown && central->maximumHeight() > 0) central_min_height_ = central->minimumHeight();
        central->setMinimumHeight(shown ? central_min_height_ : 0);
        central->setMaximumHeight(shown ? QWIDGETSIZE_MAX : 0);
    }
    const QSignalBlocker quiet(workspace_action_);
    workspace_action_->setChecked(shown);
}

QString DockLayout::key() const {
    const QScreen* screen = window_->screen();
    const QSize s = screen ? screen->availableGeometry().size() : QSize();
    return QStringLiteral("%1x%2").arg(s.width()).arg(s.height());
}

void DockLayout::save(const QString& key) const {
    if (key.isEmpty()) return;
    fit_floating_docks(window_);
    QSettings().setValue(settings_key(key), window_->saveState(kStateVersion));
    QSettings().setValue(settings_key(key) + QStringLiteral("/workspace"), workspace_action_->isChecked());
    if (arranged_) QSettings().setValue(settings_key(key) + QStringLiteral("/arrangement"), int(*arranged_));
    else QSettings().remove(settings_key(key) + QStringLiteral("/arrangement"));
}

void DockLayout::restoreOrDefault(const QString& key, double font_scale) {
    current_ = key;
    const QByteArray state = QSettings().value(settings_key(key)).toByteArray();
    if (state.isEmpty() || !window_->restoreState(state, kStateVersion)) return applyDefault(font_scale);
    fit_floating_docks(window_);
    setWorkspaceShown(QSettings().value(settings_key(key) + QStringLiteral("/workspace"), true).toBool());
    const QVariant arranged = QSettings().value(settings_key(key) + QStringLiteral("/arrangement"));
    arranged_.reset();
    if (arranged.isValid()) arranged_ = arranged.toInt() == int(Arrangement::Compact) ? Arrangement::Compact : Arrangement::Wide;
}

}  // namespace lmscope::gui
