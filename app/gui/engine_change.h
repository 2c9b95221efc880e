// Asking before an engine setting (KV cache type, context, threads, backend) restarts the
// engine under a session that has steps: re-run the current path on the new engine (the same
// tokens, recomputed on the new cache), start empty, or keep the old setting.
#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace lmscope::gui {

enum class EngineChange { Rerun, StartEmpty, Keep };

// Opens a window-modal question on `parent` (it does not block) and calls `answer` once with
// the choice; closing the box is Keep. `tokens` is the length of the path to re-run.
void ask_engine_change(QWidget* parent, qint32 tokens, std::function<void(EngineChange)> answer);

}  // namespace lmscope::gui
