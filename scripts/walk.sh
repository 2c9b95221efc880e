#!/usr/bin/env bash
# The project's own walk through the window (app/tools/walk.cpp): drives the real window under a
# virtual X display (Xvfb) through the docked window and every lab, at 1280x720 and 1920x1080,
# in English and Chinese, after: start, one step, Play to 100 tokens, a 2,000-token prompt,
# Reset, a model change (SmolLM2 -> Gemma 3 270M) and a language change. Every screen is saved
# and checked (texts cut off or overlapping, charts too small, the newest token out of view,
# panels on another step, text left in the other language); OUT/manifest.json lists each screen
# with its violations, OUT/contact-MODE-WxH.png shows them all as thumbnails.
# Usage: scripts/walk.sh [--out DIR] [extra lmscope-walk arguments, e.g. --langs en --states start,step]
#   DIR defaults to build/walk. LMSCOPE_BUILD selects the build folder.
# Exits 1 when a screen has a violation (2 when the walk itself failed).
# Needs: the build's packages, plus xvfb and xauth.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

out=""
if [[ "${1:-}" == "--out" ]]; then
  [[ $# -ge 2 ]] || { echo "walk.sh: --out needs a folder" >&2; exit 2; }
  out="$2"
  shift 2
fi
lmscope_install_packages "${lmscope_packages[@]}" xvfb xauth
lmscope_configure
out="${out:-$LMSCOPE_BUILD/walk}"
cmake --build "$LMSCOPE_BUILD" --target lmscope-walk --parallel "$(nproc)"
bash "$LMSCOPE_ROOT/sample_models/fetch.sh"
rm -rf "$out"
mkdir -p "$out"

# A fresh settings folder: the default layout, no recent files, no remembered language.
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
XDG_CONFIG_HOME="$config" LANG=C.UTF-8 LC_ALL=C.UTF-8 \
  xvfb-run --auto-servernum --server-args="-screen 0 1920x1080x24 -dpi 96" \
  "$LMSCOPE_BUILD/app/tools/lmscope-walk" --out "$out" \
  --ts "$LMSCOPE_ROOT/resources/translations/lmscope_zh_CN.ts" \
  --second-model "$LMSCOPE_ROOT/sample_models/gemma-3-270m-q4_k_m.gguf" "$@"
