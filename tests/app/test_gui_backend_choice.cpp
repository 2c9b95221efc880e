// The backend the user chooses in the Sampling panel is the one everything of the window runs
// on: the step-through session, the Layer view's probe, the with-and-without comparison and the
// Context compare lab each build their backend by that name (gui/engine_setup.h), never a
// "cpu" of their own. The test registers a backend of its own, "recording" (the CPU backend,
// noting the thread that asked for it: each of those runs on a JobRunner thread of its own
// name), chooses it as a user would (the panel's saved setting) and watches who builds one;
// "cpu" is replaced by the same recorder, and nothing may ask for it.
#include "common/testing.h"
#include "engine/backend_factory.h"
#include "engine/cpu_backend.h"
#include "gui/labs/context_compare_lab.h"
#include "gui/labs/lab_window.h"
#include "gui/language.h"
#include "gui/layer_view.h"
#include "gui/main_window.h"
#include "gui/session_controller.h"
#include "gui_testing.h"
#include "widgets/attention_grid.h"
#include "widgets/logits_view.h"
#include "widgets/trace_model.h"

#include <QComboBox>
#include <QDockWidget>
#include <QSettings>
#include <QThread>
#include <QtTest>

#include <cmath>
#include <map>
#include <mutex>
#include <set>

using namespace lmscope;
using lmscope::gui::SessionController;
using lmscope::testing::open_window;
using lmscope::testing::panel_widget;
using lmscope::testing::step_and_wait;

namespace {

// The threads that built a backend, by the backend's name and the thread's.
std::mutex built_mutex;
std::map<std::string, std::set<QString>> built_on;

std::set<QString> builders(const std::string& backend) {
    std::lock_guard lock(built_mutex);
    return built_on[backend];
}

bool built_by(const QString& thread) {
    return QTest::qWaitFor([&] { return builders("recording").count(thread) > 0; }, 60000);
}

engine::BackendFactory recorder(std::string name) {
    return [name](std::shared_ptr<const engine::Model> model, const engine::BackendOptions& o) {
        {
            std::lock_guard lock(built_mutex);
            built_on[name].insert(QThread::currentThread()->objectName());
        }
        return engine::make_cpu_backend(std::move(model), o);
    };
}

}  // namespace

class TestGuiBackendChoice : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() {
        testing::use_test_settings("test_gui_backend_choice");
        engine::register_backend("recording", recorder("recording"));
        engine::register_backend("cpu", recorder("cpu"));
        QSettings().setValue(QStringLiteral("sampling/backend"), QStringLiteral("recording"));  // the user's choice
    }

    void everythingRunsOnTheChosenBackend() {
        LMSCOPE_REQUIRE_FILE(testing::fixture_model().toStdString(), "the fixture model");
        auto w = open_window(&language_, QStringLiteral("The sky is"));
        QVERIFY(w);
        SessionController* s = w->session();
        const auto* backend = s->dock(gui::Panel::Sampling)->findChild<QComboBox*>(QStringLiteral("backend"));
        QVERIFY(backend);
        QCOMPARE(backend->currentText(), QStringLiteral("recording"));
        QCOMPARE(s->engineOptions().backend, std::string("recording"));
        QVERIFY(built_by(QStringLiteral("lmscope engine")));  // the step-through session

        // The Layer view's probe.
        QVERIFY(step_and_wait(s));
        QDockWidget* layer = s->dock(gui::Panel::Layer);
        layer->show();
        layer->raise();
        auto* view = panel_widget<gui::LayerView>(s, gui::Panel::Layer);
        QVERIFY(view);
        QVERIFY(QTest::qWaitFor([view] { return view->figures() != nullptr; }, 60000));
        QVERIFY(built_by(QStringLiteral("lmscope layer view")));

        // The with-and-without comparison of a step that ran with a head switched off.
        s->model()->setAblation({{0, 0}});
        QVERIFY(step_and_wait(s));
        auto* logits = panel_widget<widgets::LogitsView>(s, gui::Panel::Logits);
        QVERIFY(logits);
        QTRY_VERIFY_WITH_TIMEOUT(!std::isnan(logits->viewState().kl), 60000);
        QVERIFY(built_by(QStringLiteral("lmscope with and without")));

        // The Context compare lab: a run and a sweep.
        gui::labs::ContextCompareLab* lab = nullptr;
        for (gui::labs::Lab* l : w->labWindow()->labs())
            if (auto* c = qobject_cast<gui::labs::ContextCompareLab*>(l)) lab = c;
        QVERIFY(lab);
        QSignalSpy finished(lab, &gui::labs::ContextCompareLab::runFinished);
        lab->setPrompts(QStringLiteral("The river bank"), QStringLiteral("The bank account"));
        lab->run();
        QVERIFY(finished.wait(60000) || (lab->result(0) && !lab->isRunning()));
        QVERIFY(built_by(QStringLiteral("lmscope context compare")));
        QSignalSpy swept(lab, &gui::labs::ContextCompareLab::sweepFinished);
        lab->sweepLayer();
        QVERIFY(swept.wait(60000));
        QVERIFY(built_by(QStringLiteral("lmscope context sweep")));

        // Nothing asked for the CPU backend by name (the labs that ran on the model's open too).
        for (const QString& t : builders("cpu")) QVERIFY2(false, qPrintable(QStringLiteral("a cpu backend was built on ") + t));
    }
};

QTEST_MAIN(TestGuiBackendChoice)
#include "test_gui_backend_choice.moc"
