#!/usr/bin/env bash
# Makes the pictures in docs/screenshots/: the step-through window on the sample model and
# each of its panels, then each lab, by running the real window under a virtual X display
# (Xvfb) with lmscope-screenshots (app/tools/screenshots.cpp), which types, steps and clicks
# through the public slots a user's actions call, and saves each widget's own rendering.
# Usage: scripts/screenshots.sh [OUTPUT_FOLDER] [extra lmscope-screenshots arguments]
#   e.g. scripts/screenshots.sh /tmp/zh --lang zh_CN
# Without extra arguments it also makes the window at 1280x720 (OUT/1280x720/), every stage of
# stage mode at 1280x720 (OUT/stage/) and in Chinese (OUT/zh_CN/), and the first-run hints with
# a "?" explanation open, in English and Chinese (OUT/hints/, OUT/hints/zh_CN/).
#   LMSCOPE_BUILD selects the build folder.
# Needs: the build's packages, plus xvfb and xauth.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

out="${1:-$LMSCOPE_ROOT/docs/screenshots}"
shift || true
lmscope_install_packages "${lmscope_packages[@]}" xvfb xauth
lmscope_configure
cmake --build "$LMSCOPE_BUILD" --target lmscope-screenshots --parallel "$(nproc)"
bash "$LMSCOPE_ROOT/sample_models/fetch.sh"

# A fresh settings folder: the default layout, no recent files, no remembered language.
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
tour() {
  rm -rf "$config"/*
  XDG_CONFIG_HOME="$config" LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    xvfb-run --auto-servernum --server-args="-screen 0 1920x1080x24 -dpi 96" \
    "$LMSCOPE_BUILD/app/tools/lmscope-screenshots" "$@"
}
extra=$#
tour --out "$out" "$@"
if [[ $extra -eq 0 ]]; then
  tour --out "$out/1280x720" --size 1280x720 --window-only
  tour --out "$out/stage" --size 1280x720 --stage all
  tour --out "$out/zh_CN" --lang zh_CN --window-only
  tour --out "$out/hints" --hints
  tour --out "$out/hints/zh_CN" --hints --lang zh_CN
fi
