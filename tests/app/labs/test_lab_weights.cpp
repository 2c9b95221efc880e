// Opening SmolLM2 and running every lab once packs its weights once: the step-through session's
// CPU backend packs them when the model opens, and each lab's backend takes that same packing
// (CpuWeights::of builds nothing while a holder is alive). The test counts the holders of the
// one packing after each lab: back to the session's alone, the object never replaced; the chat
// lab, whose session lives across turns, holds the same object, not a copy.
#include "common/testing.h"
#include "engine/backend_factory.h"
#include "engine/cpu_weights.h"
#include "engine/model.h"
#include "gui/labs/chat_lab_engine.h"
#include "gui/labs/context_compare_lab_run.h"
#include "gui/labs/kv_lab_experiment.h"
#include "gui/engine_setup.h"
#include "gui/labs/logit_lens_run.h"
#include "gui/labs/next_token_compare.h"
#include "tokenizer/tokenizer.h"

#include <QTest>

#include <functional>

using namespace lmscope;
using namespace lmscope::gui;
using namespace lmscope::gui::labs;

class TestLabWeights : public QObject {
    Q_OBJECT
private slots:
    void everyLabTakesTheSessionsPacking() {
        const std::string path = testing::sample_model();
        LMSCOPE_REQUIRE_FILE(path, "the sample model");
        const LabModelPtr m = load_lab_model(QString::fromStdString(path));
        engine::BackendOptions bo;
        bo.n_threads = 2;
        bo.n_ctx = 256;
        const std::unique_ptr<engine::Backend> session = engine::make_backend("cpu", m->model, bo);
        const std::weak_ptr<const engine::CpuWeights> packed = engine::CpuWeights::of(m->model);
        QCOMPARE(packed.use_count(), 1);  // the session's backend alone

        EngineOptions options;
        options.resources.n_threads = 2;
        ChatEngine chat(m, options);
        const CancelToken token;
        const std::vector<int32_t> ids = m->tokenizer->encode_ids("The capital of France is", true, false);
        KvExperimentOptions kv;
        kv.prompt = "The capital of France is";
        kv.decode_steps = 2;
        kv.engine = options;
        const std::vector<std::pair<const char*, std::function<void()>>> labs = {
            {"tokenizers: next token", [&] { compare_next_token(m, "I like red", "I like blue", &token); }},
            {"context compare", [&] { context_compare::run_side(m, "The cat sat on the mat.", &token); }},
            {"logit lens", [&] { run_logit_lens(m, ids, int32_t(ids.size()) - 1, 5, &token); }},
            {"kv cache experiment", [&] { run_kv_experiment(m, kv, &token, {}); }},
            {"chat", [&] { chat.run_turn("Hi", 4, true, &token); }},
        };
        for (const auto& [name, run] : labs) {
            run();
            QVERIFY2(!packed.expired(), name);
            QVERIFY2(engine::CpuWeights::of(m->model) == packed.lock(), name);  // the same packing, not a new one
        }
        QCOMPARE(packed.use_count(), 2);  // the session's backend and the chat's, which lives on
    }
};

QTEST_GUILESS_MAIN(TestLabWeights)
#include "test_lab_weights.moc"
