#!/usr/bin/env bash
# Makes the pictures in docs/screenshots/: the step-through window on the sample model and
# each of its panels, then each lab, by running the real window under a virtual X display
# (Xvfb) with lmscope-screenshots (app/tools/screenshots.cpp), which types, steps and clicks
# through the public slots a user's actions call, and saves each widget's own rendering.
# Usage: scripts/screenshots.sh [OUTPUT_FOLDER] [extra lmscope-screenshots arguments]
#   e.g. scripts/screenshots.sh /tmp/zh --lang zh_CN
# Without extra arguments it also makes the window at 1280x720 (OUT/1280x720/), every stage of
# stage mode at 1280x720 (OUT/stage/) and in Chinese (OUT/zh_CN/), and the first-run hints with
# a "?" explanation open, in English and Chinese (OUT/hints/, OUT/hints/zh_CN/), and the
# lesson's Gemma 3 270M pictures (OUT/gemma/): its attention grid (one KV head), a local layer's
# heatmap and the KV cache chart after a prompt of 623 tokens, past the 512-token window.
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
  # A story told nine times over: 623 Gemma tokens, more than its local layers' 512.
  story=" The river ran past the old mill where the children played every summer, and the miller told them"
  story+=" stories about the floods of long ago, when the water rose over the bridge and the whole village"
  story+=" watched from the hill. Each story was a little longer than the last, and the children remembered"
  story+=" every word of them."
  prompt="A teacher types a prompt in front of the class and presses Step. The text splits into tokens,"
  prompt+=" the prompt fills the cache, and attention lights up head by head."
  for _ in 1 2 3 4 5 6 7 8 9; do prompt+="$story"; done
  prompt+=" Sliding windows keep only the last tokens in view, while global layers still reach back to the"
  prompt+=" very first word of this long text, which is why the teacher"
  gemma="$(mktemp -d)"
  tour --out "$gemma" --model "$LMSCOPE_ROOT/sample_models/gemma-3-270m-q4_k_m.gguf" --no-labs --steps 2 --prompt "$prompt"
  mkdir -p "$out/gemma"
  cp "$gemma"/panel-attention-grid.png "$gemma"/panel-attention.png "$gemma"/panel-kv-cache.png "$out/gemma/"
  rm -rf "$gemma"
fi
