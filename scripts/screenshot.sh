#!/usr/bin/env bash
# Takes docs/first-window.png: the lmscope window with the sample model, on a virtual X
# display (Xvfb), captured from the X server itself (xwd) so the picture is exactly what a
# user sees; the app has no screenshot code of its own.
# Usage: scripts/screenshot.sh [OUTPUT.png]
#   LMSCOPE_BUILD selects the build folder; LMSCOPE_SCREENSHOT_LANG the locale the app starts
#   in (default C.UTF-8, English; zh_CN.UTF-8 for Chinese, which needs a CJK font installed).
# Needs: the build's packages, plus xvfb, xauth, x11-apps (xwd), x11-utils (xwininfo), netpbm.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

out="${1:-$LMSCOPE_ROOT/docs/first-window.png}"
size="1280x800"

lmscope_install_packages "${lmscope_packages[@]}" xvfb xauth x11-apps x11-utils netpbm
lmscope_configure
cmake --build "$LMSCOPE_BUILD" --target lmscope --parallel "$(nproc)"
bash "$LMSCOPE_ROOT/sample_models/fetch.sh"
model="$LMSCOPE_ROOT/sample_models/SmolLM2-135M-Instruct.Q4_1.gguf"

# A fresh settings folder: default layout, English, no recent files.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"

# Inside the X session: start lmscope, wait until its title names the model (it changes once
# the model has loaded), let it paint, grab the screen, then close the app.
cat > "$work/capture.sh" <<'INNER'
set -euo pipefail
app="$1"; model="$2"; out="$3"; size="$4"
for _ in $(seq 1 50); do xwininfo -root >/dev/null 2>&1 && break; sleep 0.2; done
"$app" -geometry "${size}+0+0" "$model" &
pid=$!
name="$(basename "$model")"
for _ in $(seq 1 300); do
  if LC_ALL=C.UTF-8 xwininfo -root -tree 2>/dev/null | grep -qF "\"$name"; then break; fi
  kill -0 "$pid" 2>/dev/null || { echo "screenshot: lmscope exited early" >&2; exit 1; }
  sleep 0.2
done
LC_ALL=C.UTF-8 xwininfo -root -tree | grep -qF "\"$name" || { echo "screenshot: the model did not load" >&2; kill "$pid"; exit 1; }
sleep 1
xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng -compression 9 > "$out"
kill "$pid"
wait "$pid" 2>/dev/null || true
INNER

lang="${LMSCOPE_SCREENSHOT_LANG:-C.UTF-8}"
XDG_CONFIG_HOME="$work/config" LANG="$lang" LC_ALL="$lang" \
  xvfb-run --auto-servernum --server-args="-screen 0 ${size}x24 -dpi 96" \
  bash "$work/capture.sh" "$LMSCOPE_BUILD/app/gui/lmscope" "$model" "$out" "$size"
echo "screenshot: wrote $out ($(du -k "$out" | cut -f1) KiB)"
