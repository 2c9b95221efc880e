// The sample model's own tokenizer.chat_template (SmolLM2-135M-Instruct): recognised as ChatML
// with SmolLM2's default system turn, and rendered the way that template renders.
#include "common/testing.h"
#include "gguf/gguf.h"
#include "model/chat_template.h"

#include <QtTest>

#include <vector>

using lmscope::model::ChatFamily;
using lmscope::model::ChatTemplate;
using lmscope::model::ChatTurn;
using lmscope::model::Role;

class TestChatTemplateModel : public QObject {
    Q_OBJECT

private slots:
    void smollm2_template() {
        const std::string path = lmscope::testing::sample_model();
        LMSCOPE_REQUIRE_FILE(path, "the sample model");
        const lmscope::gguf::File file = lmscope::gguf::File::open(path);
        const std::string jinja = file.get_string("tokenizer.chat_template");
        const ChatTemplate t = ChatTemplate::detect(jinja);
        QCOMPARE(t.family, ChatFamily::ChatML);
        QCOMPARE(t.default_system, std::string("You are a helpful AI assistant named SmolLM, trained by Hugging Face"));
        QVERIFY(t.notice.empty());
        const std::vector<ChatTurn> turns{{Role::User, "What is the capital of France?"}};
        const auto r = lmscope::model::render_chat(t, turns, true);
        QCOMPARE(QString::fromStdString(r.text),
                 QString("<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face"
                         "<|im_end|>\n<|im_start|>user\nWhat is the capital of France?<|im_end|>\n"
                         "<|im_start|>assistant\n"));
        QVERIFY(!r.starts_with_bos);
    }
};

QTEST_APPLESS_MAIN(TestChatTemplateModel)
#include "test_chat_template_model.moc"
