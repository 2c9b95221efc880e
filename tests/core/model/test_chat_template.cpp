// Chat templates: family detection from real template texts, and the exact prompt text each
// family renders (expected strings worked out by hand from each published Jinja template).
#include "model/chat_template.h"
#include "util/error.h"

#include <QtTest>

#include <vector>

using lmscope::model::ChatFamily;
using lmscope::model::ChatTemplate;
using lmscope::model::ChatTurn;
using lmscope::model::Role;
using lmscope::model::SpecialText;

Q_DECLARE_METATYPE(ChatFamily)
Q_DECLARE_METATYPE(std::vector<ChatTurn>)
Q_DECLARE_METATYPE(ChatTemplate)
Q_DECLARE_METATYPE(SpecialText)

namespace {

// Template texts as they appear in tokenizer.chat_template (Jinja escapes such as \n left as
// the two characters where the original JSON had them escaped twice).
const char* kSmolLM2 =
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ "
    "'<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}"
    "{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";
const char* kQwen25 =
    R"({%- if tools %}{{- '<|im_start|>system\n' }}{%- if messages[0]['role'] == 'system' %}{{- messages[0]['content'] }})"
    R"({%- else %}{{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}{%- endif %})"
    R"({%- else %}{%- if messages[0]['role'] == 'system' %})"
    R"({{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}{%- else %})"
    R"({{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }})"
    R"({%- endif %}{%- endif %}{%- for message in messages %}{{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}{%- endfor %})"
    R"({%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %})";
const char* kChatML =
    R"({% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %})";
const char* kLlama2 =
    R"({% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}{% set system_message = messages[0]['content'] %})"
    R"({% else %}{% set loop_messages = messages %}{% set system_message = false %}{% endif %}{% for message in loop_messages %})"
    R"({% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %})"
    R"({% if loop.index0 == 0 and system_message != false %}{% set content = '<<SYS>>\n' + system_message + '\n<</SYS>>\n\n' + message['content'] %})"
    R"({% else %}{% set content = message['content'] %}{% endif %}{% if message['role'] == 'user' %}{{ bos_token + '[INST] ' + content.strip() + ' [/INST]' }})"
    R"({% elif message['role'] == 'assistant' %}{{ ' '  + content.strip() + ' ' + eos_token }}{% endif %}{% endfor %})";
const char* kLlama3 =
    R"({% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %})"
    R"({% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %})"
    R"({% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %})";
const char* kLlama31 =
    R"({{- bos_token }}{%- if not date_string is defined %}{%- set date_string = "26 Jul 2024" %}{%- endif %})"
    R"({%- if messages[0]['role'] == 'system' %}{%- set system_message = messages[0]['content']|trim %}{%- set messages = messages[1:] %})"
    R"({%- else %}{%- set system_message = "" %}{%- endif %}{{- "<|start_header_id|>system<|end_header_id|>\n\n" }})"
    R"({{- "Cutting Knowledge Date: December 2023\n" }}{{- "Today Date: " + date_string + "\n\n" }}{{- system_message }}{{- "<|eot_id|>" }})"
    R"({%- for message in messages %}{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' }}{%- endfor %})"
    R"({%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{%- endif %})";
const char* kZephyr =
    "{% for message in messages %}\n{% if message['role'] == 'user' %}\n{{ '<|user|>\n' + message['content'] + eos_token }}\n"
    "{% elif message['role'] == 'system' %}\n{{ '<|system|>\n' + message['content'] + eos_token }}\n"
    "{% elif message['role'] == 'assistant' %}\n{{ '<|assistant|>\n'  + message['content'] + eos_token }}\n{% endif %}\n"
    "{% if loop.last and add_generation_prompt %}\n{{ '<|assistant|>' }}\n{% endif %}\n{% endfor %}";
const char* kGemma =
    R"({{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %})"
    R"({% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %})"
    R"({% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %})"
    R"({{ '<start_of_turn>' + role + '\n' + message['content'] | trim + '<end_of_turn>\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\n'}}{% endif %})";
const char* kGemma3 =
    R"({{ bos_token }}{%- if messages[0]['role'] == 'system' -%}{%- set first_user_prefix = messages[0]['content'] + '\n\n' -%})"
    R"({%- set loop_messages = messages[1:] -%}{%- else -%}{%- set first_user_prefix = "" -%}{%- set loop_messages = messages -%}{%- endif -%})"
    R"({%- for message in loop_messages -%}{{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else "") }})"
    R"({{ message['content'] | trim }}{{ '<end_of_turn>\n' }}{%- endfor -%}{%- if add_generation_prompt -%}{{'<start_of_turn>model\n'}}{%- endif -%})";
const char* kPhi3 =
    R"({% for message in messages %}{% if message['role'] == 'user' %}{{'<|user|>' + '\n' + message['content'] + '<|end|>' + '\n' + '<|assistant|>' + '\n'}})"
    R"({% elif message['role'] == 'assistant' %}{{message['content'] + '<|end|>' + '\n'}}{% endif %}{% endfor %})";

const ChatTurn kSystem{Role::System, "You are terse."};
const ChatTurn kHi{Role::User, "Hi!"};
const ChatTurn kHello{Role::Assistant, "Hello."};
const ChatTurn kCapital{Role::User, "Capital of France?"};

SpecialText special(const char* bos, const char* eos) { return SpecialText{bos, eos}; }

}  // namespace

class TestChatTemplate : public QObject {
    Q_OBJECT

private slots:
    void detect_data() {
        QTest::addColumn<QString>("jinja");
        QTest::addColumn<ChatFamily>("family");
        QTest::addColumn<QString>("default_system");
        QTest::addColumn<QString>("preamble");
        QTest::addColumn<bool>("notice");
        auto row = [](const char* name, QString jinja, ChatFamily family, QString system, QString preamble,
                      bool notice) { QTest::newRow(name) << jinja << family << system << preamble << notice; };
        row("SmolLM2 (ChatML, default system)", kSmolLM2, ChatFamily::ChatML, "You are a helpful AI assistant named SmolLM, trained by Hugging Face", "", false);
        row("Qwen2.5 (ChatML, default system after the tools branch)", kQwen25, ChatFamily::ChatML, "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.", "", false);
        row("plain ChatML", kChatML, ChatFamily::ChatML, "", "", false);
        row("Llama 2", kLlama2, ChatFamily::Llama2, "", "", false);
        row("Llama 3", kLlama3, ChatFamily::Llama3, "", "", false);
        row("Llama 3.1", kLlama31, ChatFamily::Llama3, "", "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n", false);
        row("Zephyr", kZephyr, ChatFamily::Zephyr, "", "", false);
        row("Gemma", kGemma, ChatFamily::Gemma, "", "", false);
        row("Phi-3 is not Zephyr", kPhi3, ChatFamily::Plain, "", "", true);
        row("unknown", "{{ messages | join(' ') }}", ChatFamily::Plain, "", "", true);
        row("absent", "", ChatFamily::Plain, "", "", true);
    }
    void detect() {
        QFETCH(QString, jinja);
        QFETCH(ChatFamily, family);
        QFETCH(QString, default_system);
        QFETCH(QString, preamble);
        QFETCH(bool, notice);
        const ChatTemplate t = ChatTemplate::detect(jinja.toStdString());
        QCOMPARE(t.family, family);
        QCOMPARE(QString::fromStdString(t.default_system), default_system);
        QCOMPARE(QString::fromStdString(t.llama3_system_preamble), preamble);
        QCOMPARE(!t.notice.empty(), notice);
    }

    void notices_say_why() {
        QVERIFY(QString::fromStdString(ChatTemplate::detect("").notice).contains("no chat template"));
        QVERIFY(QString::fromStdString(ChatTemplate::detect(kPhi3).notice).contains("not one lmscope recognises"));
        QVERIFY(ChatTemplate::detect(kGemma3).gemma_system_in_first_user);
        QVERIFY(!ChatTemplate::detect(kGemma).gemma_system_in_first_user);
    }

    void render_data() {
        QTest::addColumn<ChatTemplate>("tmpl");
        QTest::addColumn<std::vector<ChatTurn>>("turns");
        QTest::addColumn<bool>("gen");
        QTest::addColumn<SpecialText>("sp");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("bos");
        auto row = [](const char* name, ChatTemplate t, std::vector<ChatTurn> turns, bool gen, SpecialText sp,
                      QString expected, bool bos) {
            QTest::newRow(name) << t << turns << gen << sp << expected << bos;
        };
        const SpecialText llama = special("<s>", "</s>");
        row("ChatML one turn", ChatTemplate::detect(kChatML), std::vector<ChatTurn>{kHi}, true, llama, "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n", false);
        row("ChatML without generation prompt", ChatTemplate::detect(kChatML), std::vector<ChatTurn>{kHi, kHello}, false, llama, "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\nHello.<|im_end|>\n", false);
        row("SmolLM2 adds its system turn", ChatTemplate::detect(kSmolLM2), std::vector<ChatTurn>{kHi, kHello, kCapital}, true, llama, "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n"
               "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\nHello.<|im_end|>\n"
               "<|im_start|>user\nCapital of France?<|im_end|>\n<|im_start|>assistant\n", false);
        row("SmolLM2 keeps the user's system turn", ChatTemplate::detect(kSmolLM2), std::vector<ChatTurn>{kSystem, kHi}, true, llama, "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n", false);
        row("ChatML keeps content whitespace", ChatTemplate::detect(kChatML), std::vector<ChatTurn>{{Role::User, "  a b \n"}}, false, llama, "<|im_start|>user\n  a b \n<|im_end|>\n", false);
        row("Llama 2 with system", ChatTemplate::detect(kLlama2), std::vector<ChatTurn>{kSystem, kHi, kHello, kCapital}, true, llama, "<s>[INST] <<SYS>>\nYou are terse.\n<</SYS>>\n\nHi! [/INST] Hello. </s><s>[INST] Capital of France? [/INST]", true);
        row("Llama 2 strips content", ChatTemplate::detect(kLlama2), std::vector<ChatTurn>{{Role::User, " \n Hi! \t"}}, false, llama, "<s>[INST] Hi! [/INST]", true);
        const SpecialText l3 = special("<|begin_of_text|>", "<|eot_id|>");
        row("Llama 3 with system", ChatTemplate::detect(kLlama3), std::vector<ChatTurn>{kSystem, kHi}, true, l3, "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are terse.<|eot_id|>"
               "<|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n", true);
        row("Llama 3 trims content", ChatTemplate::detect(kLlama3), std::vector<ChatTurn>{{Role::User, "\n Hi! \n"}}, false, l3, "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>", true);
        row("Llama 3.1 system header without a system turn", ChatTemplate::detect(kLlama31), std::vector<ChatTurn>{kHi}, true, l3, "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
               "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>"
               "<|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n", true);
        row("Llama 3.1 with system", ChatTemplate::detect(kLlama31), std::vector<ChatTurn>{kSystem, kHi}, false, l3, "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
               "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\nYou are terse.<|eot_id|>"
               "<|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>", true);
        row("Zephyr", ChatTemplate::detect(kZephyr), std::vector<ChatTurn>{kSystem, kHi, kHello, kCapital}, true, llama, "<|system|>\nYou are terse.</s>\n<|user|>\nHi!</s>\n<|assistant|>\nHello.</s>\n"
                                   "<|user|>\nCapital of France?</s>\n<|assistant|>\n", false);
        const SpecialText gemma = special("<bos>", "<eos>");
        row("Gemma", ChatTemplate::detect(kGemma), std::vector<ChatTurn>{kHi, kHello, kCapital}, true, gemma, "<bos><start_of_turn>user\nHi!<end_of_turn>\n<start_of_turn>model\nHello.<end_of_turn>\n"
                                  "<start_of_turn>user\nCapital of France?<end_of_turn>\n<start_of_turn>model\n", true);
        row("Gemma 3 folds the system turn", ChatTemplate::detect(kGemma3), std::vector<ChatTurn>{kSystem, kHi}, true, gemma, "<bos><start_of_turn>user\nYou are terse.\n\nHi!<end_of_turn>\n<start_of_turn>model\n", true);
        row("plain fallback", ChatTemplate::detect(""), std::vector<ChatTurn>{kSystem, kHi, kHello, kCapital}, true, llama, "System: You are terse.\nUser: Hi!\nAssistant: Hello.\nUser: Capital of France?\nAssistant:", false);
    }
    void render() {
        QFETCH(ChatTemplate, tmpl);
        QFETCH(std::vector<ChatTurn>, turns);
        QFETCH(bool, gen);
        QFETCH(SpecialText, sp);
        QFETCH(QString, expected);
        QFETCH(bool, bos);
        const auto r = lmscope::model::render_chat(tmpl, turns, gen, sp);
        QCOMPARE(QString::fromStdString(r.text), expected);
        QCOMPARE(r.starts_with_bos, bos);
    }

    void rejected_conversations_data() {
        QTest::addColumn<QString>("jinja");
        QTest::addColumn<std::vector<ChatTurn>>("turns");
        auto row = [](const char* name, QString jinja, std::vector<ChatTurn> turns) {
            QTest::newRow(name) << jinja << turns;
        };
        row("Llama 2: assistant first", kLlama2, std::vector<ChatTurn>{kHello});
        row("Llama 2: two user turns", kLlama2, std::vector<ChatTurn>{kHi, kCapital});
        row("Llama 2: late system turn", kLlama2, std::vector<ChatTurn>{kHi, kSystem});
        row("Gemma: system turn", kGemma, std::vector<ChatTurn>{kSystem, kHi});
        row("Gemma 3: assistant first", kGemma3, std::vector<ChatTurn>{kHello, kHi});
    }
    void rejected_conversations() {
        QFETCH(QString, jinja);
        QFETCH(std::vector<ChatTurn>, turns);
        QVERIFY_THROWS_EXCEPTION(lmscope::UsageError,
                                 lmscope::model::render_chat(ChatTemplate::detect(jinja.toStdString()), turns, true));
    }
};

QTEST_APPLESS_MAIN(TestChatTemplate)
#include "test_chat_template.moc"
