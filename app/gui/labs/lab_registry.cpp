#include "gui/labs/lab_registry.h"

#include "gui/labs/chat_lab.h"
#include "gui/labs/context_compare_lab.h"
#include "gui/labs/kv_lab.h"
#include "gui/labs/logit_lens_lab.h"
#include "gui/labs/tokenizer_lab.h"

#include <QCoreApplication>

#include <algorithm>

namespace lmscope::gui::labs {

namespace {

template <class L> Lab* make(LabHost* host) { return new L(host); }

const LabEntry kLabs[] = {
    {LabId::Tokenizers, "lmscope::gui::labs::TokenizerLab", QT_TRANSLATE_NOOP("lmscope::gui::labs::TokenizerLab", "Tokenizers"), make<TokenizerLab>},
    {LabId::KvCache, "lmscope::gui::labs::KvLab", QT_TRANSLATE_NOOP("lmscope::gui::labs::KvLab", "KV cache"), make<KvLab>},
    {LabId::Chat, "lmscope::gui::labs::ChatLab", QT_TRANSLATE_NOOP("lmscope::gui::labs::ChatLab", "Chat: no memory"), make<ChatLab>},
    {LabId::ContextCompare, "lmscope::gui::labs::ContextCompareLab", QT_TRANSLATE_NOOP("lmscope::gui::labs::ContextCompareLab", "Context compare"), make<ContextCompareLab>},
    {LabId::LogitLens, "lmscope::gui::labs::LogitLensLab", QT_TRANSLATE_NOOP("lmscope::gui::labs::LogitLensLab", "Logit lens"), make<LogitLensLab>},
};

}  // namespace

std::span<const LabEntry> lab_registry() { return kLabs; }

int lab_index(LabId id) {
    return int(std::find_if(std::begin(kLabs), std::end(kLabs), [id](const LabEntry& e) { return e.id == id; }) - std::begin(kLabs));
}

const LabEntry& lab_entry(LabId id) { return kLabs[lab_index(id)]; }

QString lab_title(LabId id) {
    const LabEntry& e = lab_entry(id);
    return QCoreApplication::translate(e.context, e.title);
}

}  // namespace lmscope::gui::labs
