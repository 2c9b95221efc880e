// The labs, in one table: each lab's id, its title and how to make it, in the order of the
// lesson (docs/lesson.md). The labs window's tabs, the Labs menu and its Ctrl+Alt+N shortcuts
// all follow it; a new lab is one row here (and its class).
#pragma once

#include <QString>

#include <span>

namespace lmscope::gui::labs {

class Lab;
class LabHost;

enum class LabId { Tokenizers, KvCache, Chat, ContextCompare, LogitLens };

struct LabEntry {
    LabId id;
    const char* context;  // the translation context of the title (the lab's class)
    const char* title;    // untranslated; lab_title() translates it
    Lab* (*make)(LabHost* host);
};

std::span<const LabEntry> lab_registry();
// The entry of `id` and its tab's index (its row).
const LabEntry& lab_entry(LabId id);
int lab_index(LabId id);
// The title of `id` in the current language.
QString lab_title(LabId id);

}  // namespace lmscope::gui::labs
