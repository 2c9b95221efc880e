#include "gui/labs/kv_lab.h"

#include "gui/labs/kv_lab_chart.h"
#include "gui/labs/kv_lab_experiment_panel.h"
#include "gui/labs/kv_lab_formula.h"
#include "gui/labs/kv_lab_offload.h"
#include "gui/labs/lab_host.h"

#include <QHBoxLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>

namespace lmscope::gui::labs {

KvLab::KvLab(LabHost* host, QWidget* parent)
    : Lab(LabId::KvCache, host, parent),
      formula_(new KvFormulaPanel),
      chart_(new KvCostChart),
      experiment_(new KvExperimentPanel(host)),
      offload_(new KvOffloadPanel),
      pages_(new QTabWidget) {
    setObjectName(QStringLiteral("kvLab"));
    pages_->setObjectName(QStringLiteral("kvLabPages"));
    pages_->addTab(chart_, QString());
    pages_->addTab(experiment_, QString());
    pages_->addTab(offload_, QString());

    auto* left = new QScrollArea;
    left->setWidget(formula_);
    left->setWidgetResizable(true);
    left->setFrameShape(QFrame::NoFrame);
    left->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // At least as wide as the fields need (they follow the font), plus the vertical scroll bar.
    left->setMinimumWidth(formula_->minimumSizeHint().width() + left->verticalScrollBar()->sizeHint().width());
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(pages_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setSizes({1, 2});  // a ratio: a third for the formula, two for the pages
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);

    const auto follow = [this] {
        chart_->setChoice(formula_->choice());
        offload_->setChoice(formula_->choice());
    };
    connect(formula_, &KvFormulaPanel::changed, this, follow);
    follow();
    chart_->setLiveTrace(host->liveTrace());
    retranslate();
}

void KvLab::showPage(int page) { pages_->setCurrentIndex(page); }

void KvLab::runExperiment() {
    showPage(ExperimentPage);
    experiment_->runExperiment();
}

void KvLab::modelChanged(const LabModelPtr& model) {
    formula_->setLoadedModel(model);
    experiment_->setModel(model);
    offload_->setModel(model);
}

void KvLab::retranslate() {
    pages_->setTabText(ChartPage, tr("Cost against context"));
    pages_->setTabText(ExperimentPage, tr("Experiment: quantized cache"));
    pages_->setTabText(OffloadPage, tr("Offload to host memory"));
    formula_->retranslate();
    chart_->retranslate();
    experiment_->retranslate();
    offload_->retranslate();
}

}  // namespace lmscope::gui::labs
