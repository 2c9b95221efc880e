#include "tools/lab_tour.h"

#include "gui/labs/chat_lab.h"
#include "gui/labs/context_compare_lab.h"
#include "gui/labs/kv_lab.h"
#include "gui/labs/kv_lab_experiment_panel.h"
#include "gui/labs/kv_lab_offload.h"
#include "gui/labs/lab_host.h"
#include "gui/labs/lab_window.h"
#include "gui/labs/logit_lens_lab.h"
#include "gui/labs/misspelling_view.h"
#include "gui/labs/tokenizer_lab.h"
#include "gui/labs/tokenizer_trainer_panel.h"
#include "gui/main_window.h"
#include "tools/window_driver.h"
#include "util/error.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QPixmap>
#include <QTabWidget>
#include <QTextStream>

namespace lmscope::tools {
namespace {

constexpr int kTimeoutMs = 300000;

template <class Pred>
void wait_until(Pred done, const char* what) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > kTimeoutMs) throw Error(std::string("lab tour: timed out waiting for ") + what);
        QApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    }
}

// Calls `action`, then runs the event loop until `sender` emits `signal`.
template <class Sender, class Signal, class Action>
void act_and_wait(Sender* sender, Signal signal, Action action, const char* what) {
    bool fired = false;
    QObject guard;
    QObject::connect(sender, signal, &guard, [&fired] { fired = true; });
    action();
    wait_until([&] { return fired; }, what);
}

// The lab `id` (its tab is the registry's row), as the class T it is.
template <class T>
T* lab_at(gui::labs::LabWindow* labs, gui::labs::LabId id) {
    const int index = gui::labs::lab_index(id);
    auto* lab = qobject_cast<T*>(labs->labs().value(index));
    if (!lab) throw Error("lab tour: the Labs window's tab " + std::to_string(index) + " is not the lab expected there");
    return lab;
}

}  // namespace

std::vector<LabJob> lab_engine_jobs(gui::MainWindow& window) {
    using namespace gui::labs;
    LabWindow* labs = window.labWindow();
    wait_until([&] { return window.labHost()->model() != nullptr; }, "the labs' model");
    auto* kv = lab_at<KvLab>(labs, LabId::KvCache);
    auto* chat = lab_at<ChatLab>(labs, LabId::Chat);
    auto* context = lab_at<ContextCompareLab>(labs, LabId::ContextCompare);
    auto* lens = lab_at<LogitLensLab>(labs, LabId::LogitLens);
    return {
        // The KV cache: the f16 / q8_0 / q4_0 experiment, then the offload measurement.
        {"kv-experiment",
         [=] {
             labs->showLab(LabId::KvCache);
             act_and_wait(kv->experiment(), &KvExperimentPanel::finished, [&] { kv->runExperiment(); }, "the KV experiment");
             return 0LL;
         }},
        {"kv-offload",
         [=] {
             labs->showLab(LabId::KvCache);
             kv->showPage(KvLab::OffloadPage);
             act_and_wait(kv->offload(), &KvOffloadPanel::measured, [&] { kv->offload()->measure(); }, "the offload measurement");
             return 0LL;
         },
         false},
        // Chat: three turns, each re-sending the ones before.
        {"chat",
         [=] {
             labs->showLab(LabId::Chat);
             chat->resetChat();
             chat->setMaxReplyTokens(48);
             for (const char* message : {"Hi! Who are you?", "What is the capital of France?", "Thanks!"})
                 act_and_wait(chat, &ChatLab::turnFinished, [&] { chat->sendMessage(QString::fromUtf8(message)); }, "a chat turn");
             long long tokens = 0;
             for (const auto& turn : chat->turns()) tokens += turn.fed + turn.generated;
             return tokens;
         }},
        // Context: "bank" by a river and in a bank account ...
        {"context-compare",
         [=] {
             labs->showLab(LabId::ContextCompare);
             act_and_wait(context, &ContextCompareLab::runFinished, [&] { context->run(); }, "the context comparison");
             return 0LL;
         }},
        // ... and which head of the shown layer makes the two differ: each switched off in turn
        {"head-sweep",
         [=] {
             labs->showLab(LabId::ContextCompare);
             act_and_wait(context, &ContextCompareLab::sweepFinished, [&] { context->sweepLayer(); }, "the head sweep");
             return 0LL;
         }},
        // The logit lens on the classroom prompt.
        {"logit-lens",
         [=] {
             labs->showLab(LabId::LogitLens);
             act_and_wait(lens, &LogitLensLab::lensFinished,
                          [&] { lens->setPrompt(QStringLiteral("The capital of France is")); }, "the logit lens");
             return 0LL;
         }},
    };
}

void prepare_labs(gui::MainWindow& window) {
    using namespace gui::labs;
    LabWindow* labs = window.labWindow();
    const std::vector<LabJob> jobs = lab_engine_jobs(window);

    // Tokenizers: the model's, GPT-4's, GPT-4o's, BERT's, the sample one and a WordPiece trained
    // live; then a misspelling.
    auto* tok = lab_at<TokenizerLab>(labs, LabId::Tokenizers);
    labs->showLab(LabId::Tokenizers);
    wait_until([&] { return tok->sampleReady() && tok->referencesReady(); }, "the sample and reference tokenizers");
    tok->showMode(0);
    act_and_wait(tok->trainer(), &TokenizerTrainerPanel::trained,
                 [&] { tok->trainTokenizer(800, lmscope::tok::TrainOptions::Model::WordPiece); },
                 "training a WordPiece tokenizer");
    tok->setText(QStringLiteral("Tokenizers split unfamiliar words, like tokenisation or definately, into more pieces."));
    act_and_wait(tok->misspellingView(), &MisspellingView::finished,
                 [&] { tok->compareMisspelling(QStringLiteral("definitely"), QStringLiteral("definately")); },
                 "the misspelling comparison");
    tok->replayMerges(QStringLiteral("tokenization"));

    for (const LabJob& job : jobs)
        if (job.in_tour) job.run();
    labs->hide();
}

void visit_labs(gui::MainWindow& window, const LabScreen& screen) {
    using namespace gui::labs;
    LabWindow* labs = window.labWindow();
    auto* tok = lab_at<TokenizerLab>(labs, LabId::Tokenizers);
    labs->showLab(LabId::Tokenizers);
    const char* const tokenizer_modes[] = {"lab-tokenizer", "lab-tokenizer-misspelling", "lab-tokenizer-merges"};
    for (int mode = 0; mode < 3; ++mode) {
        tok->showMode(mode);
        screen(labs, QString::fromLatin1(tokenizer_modes[mode]));
    }
    auto* kv = lab_at<KvLab>(labs, LabId::KvCache);
    labs->showLab(LabId::KvCache);
    const std::pair<KvLab::Page, const char*> kv_pages[] = {
        {KvLab::ChartPage, "lab-kv-cache"}, {KvLab::ExperimentPage, "lab-kv-experiment"}, {KvLab::OffloadPage, "lab-kv-offload"}};
    for (const auto& [page, name] : kv_pages) {
        kv->showPage(page);
        screen(labs, QString::fromLatin1(name));
    }
    labs->showLab(LabId::Chat);
    screen(labs, QStringLiteral("lab-chat"));
    auto* context = lab_at<ContextCompareLab>(labs, LabId::ContextCompare);
    labs->showLab(LabId::ContextCompare);
    const char* const context_views[] = {"lab-context-compare", "lab-context-compare-rows", "lab-context-compare-next",
                                          "lab-context-compare-sweep"};  // by ContextCompareLab::View
    for (int view = 0; view < ContextCompareLab::ViewCount; ++view) {
        context->views()->setCurrentIndex(view);
        screen(labs, QString::fromLatin1(context_views[view]));
    }
    context->views()->setCurrentIndex(ContextCompareLab::GridsView);
    labs->showLab(LabId::LogitLens);
    screen(labs, QStringLiteral("lab-logit-lens"));
    labs->hide();
}

void lab_tour(gui::MainWindow& window, const QString& out) {
    window.labWindow()->resize(1600, 1000);
    prepare_labs(window);
    visit_labs(window, [&out](QWidget* labs, const QString& name) {
        WindowDriver::pump(400);  // queued replots and paints
        const QString path = QDir(out).filePath(name + QStringLiteral(".png"));
        if (!labs->grab().save(path)) throw IoError(path.toStdString() + ": cannot write the picture");
        QTextStream(stdout) << "wrote " << path << "\n";
    });
}

}  // namespace lmscope::tools
