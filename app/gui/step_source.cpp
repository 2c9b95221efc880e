#include "gui/step_source.h"

#include "widgets/format.h"

namespace lmscope::gui {

QString StepSource::kvText(quint64 bytes) { return tr("KV %1").arg(widgets::format_bytes(bytes)); }

}  // namespace lmscope::gui
