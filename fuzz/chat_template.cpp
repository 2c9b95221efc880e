// Fuzzes chat-template detection (model::ChatTemplate::detect never throws) and rendering.
// Input: the Jinja text, then optionally a 0x00 byte followed by turns separated by 0x01,
// each turn's first byte picking its role. render_chat may refuse a conversation only with
// UsageError.
#include "fuzz_common.h"

#include "model/chat_template.h"
#include "util/error.h"

#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace lmscope::model;
    const std::string_view all(reinterpret_cast<const char*>(data), size);
    const size_t split = all.find('\0');
    const ChatTemplate tmpl = ChatTemplate::detect(all.substr(0, split));
    (void)chat_family_name(tmpl.family);

    std::vector<ChatTurn> turns;
    if (split != std::string_view::npos) {
        std::string_view rest = all.substr(split + 1);
        while (!rest.empty()) {
            const size_t end = rest.find('\x01');
            const std::string_view turn = rest.substr(0, end);
            if (!turn.empty())
                turns.push_back({static_cast<Role>(uint8_t(turn[0]) % 3), std::string(turn.substr(1))});
            if (end == std::string_view::npos) break;
            rest = rest.substr(end + 1);
        }
    } else {
        turns.push_back({Role::User, "Hi"});
    }
    for (bool gen : {false, true}) {
        try {
            (void)render_chat(tmpl, turns, gen, SpecialText{});
        } catch (const lmscope::UsageError&) {
        }
    }
    return 0;
}
