#include "gui/labs/kv_lab_experiment_panel.h"

#include "gui/labs/lab.h"  // set_column_headers
#include "gui/labs/lab_host.h"

#include "gui/labs/kv_lab_common.h"
#include "tokenizer/tokenizer.h"
#include "widgets/cache_kl_chart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lmscope::gui::labs {
namespace {

QTableWidgetItem* number_item(const QString& text, const QVariant& value) {
    auto* item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString kl_text(double kl) { return QLocale().toString(kl, 'g', 3); }

}  // namespace

KvExperimentPanel::KvExperimentPanel(const LabHost* host, QWidget* parent)
    : QWidget(parent),
      prompt_(new QLineEdit),
      steps_(new QSpinBox),
      run_(new QPushButton),
      stop_(new QPushButton),
      progress_(new QProgressBar),
      table_(new QTableWidget(0, ColumnCount)),
      kl_chart_(new widgets::CacheKlChart),
      prompt_label_(new QLabel),
      steps_label_(new QLabel),
      status_(new QLabel),
      explain_(new QLabel),
      host_(host),
      runner_(new JobRunner(this)) {
    setObjectName(QStringLiteral("kvExperimentPanel"));
    prompt_->setObjectName(QStringLiteral("kvExperimentPrompt"));
    steps_->setObjectName(QStringLiteral("kvExperimentSteps"));
    run_->setObjectName(QStringLiteral("kvExperimentRun"));
    stop_->setObjectName(QStringLiteral("kvExperimentStop"));
    progress_->setObjectName(QStringLiteral("kvExperimentProgress"));
    table_->setObjectName(QStringLiteral("kvExperimentTable"));
    status_->setObjectName(QStringLiteral("kvExperimentStatus"));
    kl_chart_->setObjectName(QStringLiteral("kvExperimentKlChart"));

    prompt_->setText(QStringLiteral("The keys and values of every token stay in the cache, so each new token "
                                    "only computes its own and attends to all of them."));
    steps_->setRange(0, 64);
    steps_->setValue(8);
    prompt_label_->setBuddy(prompt_);
    steps_label_->setBuddy(steps_);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    status_->setWordWrap(true);
    explain_->setWordWrap(true);
    auto* input = new QHBoxLayout;
    input->addWidget(prompt_label_);
    input->addWidget(prompt_, 1);
    input->addWidget(steps_label_);
    input->addWidget(steps_);
    input->addWidget(run_);
    input->addWidget(stop_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explain_);
    layout->addLayout(input);
    layout->addWidget(progress_);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    layout->addWidget(table_);
    layout->addWidget(kl_chart_, 1);
    layout->addWidget(status_);

    retranslate();
    showRunning();
    connect(runner_, &JobRunner::busyChanged, this, &KvExperimentPanel::showRunning);
    connect(runner_, &JobRunner::failed, this, [this](const JobError& error) {
        const QString message = error.text();
        status_->setText(tr("The experiment failed: %1").arg(message));
        emit failed(message);
    });
    connect(run_, &QPushButton::clicked, this, &KvExperimentPanel::runExperiment);
    connect(stop_, &QPushButton::clicked, this, &KvExperimentPanel::stopExperiment);
    connect(prompt_, &QLineEdit::returnPressed, this, &KvExperimentPanel::runExperiment);
    connect(runner_, &JobRunner::progress, this, [this](const JobProgress& p) { progress_->setValue(int(p.done)); });
}

QString KvExperimentPanel::prompt() const { return prompt_->text(); }
void KvExperimentPanel::setPrompt(const QString& text) { prompt_->setText(text); }
void KvExperimentPanel::setDecodeSteps(int steps) { steps_->setValue(steps); }

void KvExperimentPanel::setModel(const LabModelPtr& model) {
    stopExperiment();
    model_ = model;
    has_result_ = false;
    table_->setRowCount(0);
    showChart();
    status_->clear();
    showRunning();
}

void KvExperimentPanel::runExperiment() {
    if (!model_) {
        status_->setText(tr("Open a model first."));
        return;
    }
    stopExperiment();
    KvExperimentOptions options;
    options.prompt = prompt_->text().toStdString();
    options.decode_steps = steps_->value();
    options.engine = host_->engine();
    const int steps = kv_experiment_steps(options);
    progress_->setRange(0, steps);
    progress_->setValue(0);
    status_->setText(tr("Running the prompt through %1 with f16, q8_0 and q4_0 caches…").arg(model_->name));
    const LabModelPtr model = model_;
    runner_->start(
        [model, options, steps](const JobContext& job) {
            int done = 0;
            return run_kv_experiment(model, options, job.token(), [&] { job.progress(++done, steps); });
        },
        [this](KvExperimentResult result) {
            showResult(result);
            emit finished();
        });
}

void KvExperimentPanel::stopExperiment() {
    if (!runner_->busy()) return;
    runner_->abandon();  // the job's result, if any, is dropped
    status_->setText(tr("Stopped."));
}

void KvExperimentPanel::showRunning() {
    const bool running = runner_->busy();
    run_->setEnabled(!running && model_);
    stop_->setEnabled(running);
    progress_->setVisible(running);
}

void KvExperimentPanel::showResult(const KvExperimentResult& result) {
    result_ = result;
    has_result_ = true;
    const QLocale loc;
    table_->setRowCount(int(result.runs.size()));
    for (int r = 0; r < int(result.runs.size()); ++r) {
        const KvRunResult& run = result.runs[size_t(r)];
        auto* type = new QTableWidgetItem(cache_type_label(run.type));
        type->setData(Qt::UserRole, widgets::type_name_text(kv_type_name(run.type)));
        table_->setItem(r, Type, type);
        table_->setItem(r, Measured, number_item(tr("%1 B").arg(format_byte_count(run.measured_bytes)),
                                                 QVariant::fromValue<qulonglong>(run.measured_bytes)));
        table_->setItem(r, Formula, number_item(tr("%1 B").arg(format_byte_count(run.formula_bytes)),
                                                QVariant::fromValue<qulonglong>(run.formula_bytes)));
        table_->item(r, Measured)->setToolTip(format_si_bytes(run.measured_bytes));
        table_->item(r, Formula)->setToolTip(format_si_bytes(run.formula_bytes));
        table_->setItem(r, MeanKl, number_item(kl_text(run.mean_kl), run.mean_kl));
        table_->setItem(r, KlAfterPrompt, number_item(kl_text(run.kl_after_prompt), run.kl_after_prompt));
        table_->setItem(r, MeanKlDecode, number_item(kl_text(run.mean_kl_decode), run.mean_kl_decode));
        table_->setItem(r, Top1, number_item(loc.toString(100.0 * run.top1_agreement, 'f', 1) + QLatin1Char('%'),
                                             run.top1_agreement));
        if (run.measured_bytes != run.formula_bytes) table_->item(r, Measured)->setForeground(QColor(0xc0, 0x39, 0x2b));
    }
    showChart();

    std::string bytes;
    for (int32_t id : result.generated) bytes += model_ ? model_->tokenizer->token_bytes(id) : std::string();
    const QString generated = QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
    status_->setText(tr("%1: %2 prompt tokens + %3 decode steps (f16's greedy continuation: “%4”), fed to every "
                        "cache. KL(P_f16 ‖ P_cache) in nats over the whole vocabulary; the mean is over every "
                        "prompt position's next-token distribution and every decode step.")
                         .arg(model_ ? model_->name : QString())
                         .arg(result.prompt.size())
                         .arg(result.generated.size())
                         .arg(generated.simplified()));
}

void KvExperimentPanel::showChart() {
    widgets::CacheKlData chart;
    const KvType quantized[2] = {KvType::Q8_0, KvType::Q4_0};
    for (int i = 0; i < 2; ++i) {
        chart.series[i].cache = cache_type_label(quantized[i]);
        if (!has_result_) continue;
        for (const KvRunResult& run : result_.runs)
            if (run.type == quantized[i]) chart.series[i].kl = QVector<double>(run.kl.begin(), run.kl.end());
    }
    if (has_result_) {
        chart.prompt_rows = qint32(result_.prompt.size());
        chart.decode_rows = qint32(result_.generated.size());
    }
    kl_chart_->setData(chart);
}

void KvExperimentPanel::retranslate() {
    prompt_label_->setText(tr("Prompt"));
    steps_label_->setText(tr("Decode steps"));
    run_->setText(tr("Run f16 / q8_0 / q4_0"));
    stop_->setText(tr("Stop"));
    set_column_headers(table_, {tr("Cache"), tr("Measured KV bytes"), tr("Formula"), tr("Mean KL vs f16"),
                                tr("KL after the prompt"), tr("Mean KL, decode steps"), tr("Same top token")});
    explain_->setText(tr("The same prompt runs three times, with the cache stored as fp16, int8 (q8_0) and int4 "
                         "(q4_0). A smaller cache saves memory; the KL divergence shows how much each one changes "
                         "what the model predicts next (0 = identical)."));
    if (has_result_) showResult(result_);
    else showChart();
}

}  // namespace lmscope::gui::labs
