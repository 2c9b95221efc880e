#!/usr/bin/env bash
# Set up (Debian packages, build, sample model), then run the whole CTest suite.
# GUI tests use Qt's offscreen platform. Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
lmscope_setup
export QT_QPA_PLATFORM=offscreen
cd "$LMSCOPE_BUILD"
ctest --output-on-failure --parallel "$(nproc)" "$@"
