// A GGUF model as the window shows it: the core summary (spec, tensors, sizes) plus the rows
// the widgets display, and the model prepared for the engine (the file is parsed once). load_model()
// runs on a worker thread; it touches no Qt widget.
#pragma once

#include "gui/engine_setup.h"
#include "model/summary.h"
#include "widgets/metadata_model.h"
#include "widgets/tensor_table_model.h"

#include <QList>
#include <QString>

namespace lmscope::gui {

struct LoadedModel {
    QString path;                            // as opened
    model::ModelSummary summary;
    QList<widgets::TensorRow> tensors;       // file order
    QList<widgets::MetadataRow> metadata;    // file order, long keys and values abbreviated
    qint64 load_ms = 0;                      // wall time of load_model()
    LabModelPtr runnable;              // the engine's Model and Tokenizer, prepared once:
                                             // the step-through session and every lab run them
};

// Opens and validates the file (the container, the spec, every tensor, the vocabulary),
// summarises it and builds the rows. Throws lmscope::Error (FormatError names the file, the
// field and the reason; UnsupportedError an architecture or type lmscope does not run).
LoadedModel load_model(const QString& path);

}  // namespace lmscope::gui
