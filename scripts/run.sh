#!/usr/bin/env bash
# Set up (Debian packages, build, sample model) and start the lmscope GUI.
# Usage: scripts/run.sh [MODEL.gguf]   (default: the sample model, SmolLM2-135M-Instruct)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
lmscope_setup
model="${1:-$LMSCOPE_ROOT/sample_models/SmolLM2-135M-Instruct.Q4_1.gguf}"
exec "$LMSCOPE_BUILD/app/gui/lmscope" "$model"
