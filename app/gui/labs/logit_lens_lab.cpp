#include "gui/labs/logit_lens_lab.h"

#include "gui/labs/lab_host.h"
#include "gui/labs/token_list_view.h"
#include "tokenizer/tokenizer.h"
#include "widgets/lens_rank_chart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace lmscope::gui::labs {

namespace {

const QColor kShade(0x42, 0x85, 0xf4);  // table cells: white to this by probability

QColor shade(float prob) {
    const double a = std::sqrt(std::clamp(double(prob), 0.0, 1.0));  // sqrt: small probabilities stay visible
    return QColor::fromRgbF(1.0 - a * (1.0 - kShade.redF()), 1.0 - a * (1.0 - kShade.greenF()),
                            1.0 - a * (1.0 - kShade.blueF()));
}

}  // namespace

LogitLensLab::LogitLensLab(LabHost* host, QWidget* parent)
    : Lab(LabId::LogitLens, host, parent), explanation_(new QLabel), prompt_label_(new QLabel), prompt_(new QLineEdit),
      run_(new QPushButton), tokens_(new TokenListView), summary_(new QLabel), table_(new QTableWidget),
      chart_(new widgets::LensRankChart), status_(new QLabel), edit_timer_(new QTimer(this)),
      runner_(new JobRunner(this)) {
    setObjectName(QStringLiteral("logitLensLab"));
    explanation_->setObjectName(QStringLiteral("lensExplanation"));
    prompt_->setObjectName(QStringLiteral("lensPrompt"));
    run_->setObjectName(QStringLiteral("lensRunButton"));
    tokens_->setObjectName(QStringLiteral("lensTokens"));
    summary_->setObjectName(QStringLiteral("lensSummary"));
    table_->setObjectName(QStringLiteral("lensTable"));
    chart_->setObjectName(QStringLiteral("rankChart"));
    status_->setObjectName(QStringLiteral("lensStatus"));

    explanation_->setWordWrap(true);
    summary_->setWordWrap(true);
    status_->setWordWrap(true);
    prompt_->setText(QStringLiteral("The capital of France is"));  // model input, not UI text: not translated
    tokens_->setSelectionMode(QAbstractItemView::SingleSelection);
    tokens_->setMaximumHeight(fontMetrics().height() * 4);
    table_->setColumnCount(kTopK);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);

    auto* prompt_row = new QHBoxLayout;
    prompt_row->addWidget(prompt_label_);
    prompt_row->addWidget(prompt_, 1);
    prompt_row->addWidget(run_);


    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({1100, 900});  // proportions: the table a little wider than the chart

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation_);
    layout->addLayout(prompt_row);
    layout->addWidget(tokens_);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
    layout->addWidget(status_);

    edit_timer_->setSingleShot(true);
    edit_timer_->setInterval(400);
    connect(edit_timer_, &QTimer::timeout, this, [this] { setPrompt(prompt_->text()); });
    connect(prompt_, &QLineEdit::textEdited, edit_timer_, qOverload<>(&QTimer::start));
    connect(prompt_, &QLineEdit::returnPressed, this, [this] { setPrompt(prompt_->text()); });
    connect(run_, &QPushButton::clicked, this, [this] { setPrompt(prompt_->text()); });
    connect(tokens_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { selectPosition(tokens_->row(item)); });
    connect(runner_, &JobRunner::failed, this,
            [this](const JobError& error) { status_->setText(tr("The lens failed: %1").arg(error.text())); });

    retranslate();
}

void LogitLensLab::modelChanged(const LabModelPtr&) {
    runner_->abandon();
    result_.reset();
    if (isVisible()) {
        setPrompt(prompt_->text());
        return;
    }
    tokenize();
    position_ = ids_.empty() ? -1 : int(ids_.size()) - 1;
    showTokens();
    showResult();
    stale_ = true;
}

void LogitLensLab::showEvent(QShowEvent* event) {
    Lab::showEvent(event);
    if (stale_) runLens();
}

void LogitLensLab::setPrompt(const QString& text) {
    edit_timer_->stop();
    if (prompt_->text() != text) prompt_->setText(text);
    tokenize();
    position_ = ids_.empty() ? -1 : int(ids_.size()) - 1;
    showTokens();
    runLens();
}

void LogitLensLab::tokenize() {
    ids_.clear();
    const LabModelPtr m = model();
    if (!m) return;
    ids_ = m->tokenizer->encode_ids(prompt_->text().toStdString(), true, false);
}

QString LogitLensLab::pieceText(int32_t id) const {
    const LabModelPtr m = model();
    if (!m || id < 0 || id >= m->tokenizer->vocab_size()) return {};
    QString s = visible_token_text(m->tokenizer->token_bytes(id, true));
    return s.isEmpty() ? QString::fromStdString(m->tokenizer->piece(id)) : s;
}

void LogitLensLab::showTokens() {
    QVector<TokenItem> items;
    for (size_t p = 0; p < ids_.size(); ++p) {
        TokenItem item;
        item.id = ids_[p];
        item.label = pieceText(ids_[p]);
        item.tooltip = tr("position %1, id %2: click to read the lens here").arg(p).arg(ids_[p]);
        items.append(item);
    }
    tokens_->setTokens(items);
    if (position_ >= 0 && position_ < tokens_->count()) tokens_->setCurrentRow(position_);
}

void LogitLensLab::selectPosition(int position) {
    if (position < 0 || position >= int(ids_.size())) return;
    position_ = position;
    if (tokens_->currentRow() != position) tokens_->setCurrentRow(position);
    runLens();
}

void LogitLensLab::runLens() {
    stale_ = false;
    runner_->abandon();
    const LabModelPtr m = model();
    if (!m || position_ < 0 || position_ >= int(ids_.size())) {
        status_->setText(m ? tr("Type a prompt.") : tr("Open a model to read its logit lens."));
        return;
    }
    status_->setText(tr("Reading every layer at position %1...").arg(position_));
    const std::vector<int32_t> ids = ids_;
    const int32_t position = position_;
    runner_->start([m, ids, position, engine = engine()](const JobContext& job) { return run_logit_lens(m, ids, position, kTopK, job.token(), engine); },
                   [this](LensResult r) { finished(std::move(r)); });
}

void LogitLensLab::finished(LensResult result) {
    result_ = std::move(result);
    status_->clear();
    showResult();
    emit lensFinished();
}

void LogitLensLab::showResult() {
    table_->clearContents();
    if (!result_) {
        table_->setRowCount(0);
        chart_->setData({});
        summary_->clear();
        return;
    }
    const LensResult& r = *result_;
    table_->setRowCount(r.n_layer);
    QStringList rows;
    for (int32_t l = 0; l < r.n_layer; ++l) {
        rows << tr("layer %1").arg(l);
        for (int32_t k = 0; k < r.top_k && k < kTopK; ++k) {
            const trace::LensEntry& e = r.top[size_t(l) * size_t(r.top_k) + size_t(k)];
            auto* item = new QTableWidgetItem(QStringLiteral("%1  %2%").arg(pieceText(e.token)).arg(100.0 * e.prob, 0, 'f', 1));
            item->setData(Qt::UserRole, e.token);
            item->setData(Qt::UserRole + 1, double(e.prob));
            item->setBackground(shade(e.prob));
            item->setForeground(QColor(Qt::black));
            item->setToolTip(tr("id %1, probability %2").arg(e.token).arg(double(e.prob), 0, 'g', 4));
            if (e.token == r.final_token) {
                QFont f = item->font();
                f.setBold(true);
                f.setUnderline(true);
                item->setFont(f);
            }
            table_->setItem(l, k, item);
        }
    }
    table_->setVerticalHeaderLabels(rows);
    table_->resizeRowsToContents();

    widgets::LensRankData lens;
    for (int32_t l = 0; l < r.n_layer; ++l) {
        lens.rank.append(double(r.final_rank[size_t(l)]) + 1.0);  // 1-based
        lens.prob.append(r.final_lens_prob[size_t(l)]);
    }
    chart_->setData(lens);

    int32_t first = r.n_layer - 1;  // the first layer from which the prediction stays at rank 1
    while (first > 0 && r.final_rank[size_t(first - 1)] == 0) --first;
    const QString at = position_ >= 0 && position_ < int(ids_.size()) ? pieceText(ids_[size_t(position_)]) : QString();
    summary_->setText(tr("After \"%1\" (position %2) the model predicts \"%3\" (p = %4). It is the lens's top "
                         "token from layer %5 on; the table shows each layer's top %6, the chart its rank.")
                          .arg(at)
                          .arg(r.position)
                          .arg(pieceText(r.final_token))
                          .arg(double(r.final_prob), 0, 'f', 3)
                          .arg(first)
                          .arg(kTopK));
}

void LogitLensLab::retranslate() {
    explanation_->setText(
        tr("The logit lens reads the model's mind half-way: after every layer, the residual stream is passed "
           "through the final norm and the output head as if it were the last layer. Early layers give vague "
           "guesses; the final answer usually forms in the upper layers. Click a token to read the lens at "
           "that position."));
    prompt_label_->setText(tr("Prompt:"));
    run_->setText(tr("Run"));
    QStringList cols;
    for (int k = 0; k < kTopK; ++k) cols << tr("top %1").arg(k + 1);
    table_->setHorizontalHeaderLabels(cols);
    if (result_) showResult();
}

}  // namespace lmscope::gui::labs
