#!/usr/bin/env bash
# Takes docs/step-through.png: the lmscope window after a few steps on the sample model, on a
# virtual X display (Xvfb). xdotool presses the keys a user would (Ctrl+Return steps while the
# prompt box has the focus, as Space does elsewhere); xwd grabs the screen from the X server.
# Usage: scripts/screenshot_steps.sh [OUTPUT.png] [STEPS]
#   LMSCOPE_BUILD selects the build folder; LMSCOPE_SCREENSHOT_LANG the locale (default English).
# Needs: the build's packages, plus xvfb, xauth, x11-apps (xwd), x11-utils (xwininfo), netpbm,
# xdotool.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

out="${1:-$LMSCOPE_ROOT/docs/step-through.png}"
steps="${2:-6}"
size="1600x1000"

lmscope_install_packages "${lmscope_packages[@]}" xvfb xauth x11-apps x11-utils netpbm xdotool
lmscope_configure
cmake --build "$LMSCOPE_BUILD" --target lmscope --parallel "$(nproc)"
bash "$LMSCOPE_ROOT/sample_models/fetch.sh"
model="$LMSCOPE_ROOT/sample_models/SmolLM2-135M-Instruct.Q4_1.gguf"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"

cat > "$work/capture.sh" <<'INNER'
set -euo pipefail
app="$1"; model="$2"; out="$3"; size="$4"; steps="$5"
for _ in $(seq 1 50); do xwininfo -root >/dev/null 2>&1 && break; sleep 0.2; done
"$app" -geometry "${size}+0+0" "$model" &
pid=$!
name="$(basename "$model")"
for _ in $(seq 1 300); do
  if LC_ALL=C.UTF-8 xwininfo -root -tree 2>/dev/null | grep -qF "\"$name"; then break; fi
  kill -0 "$pid" 2>/dev/null || { echo "screenshot: lmscope exited early" >&2; exit 1; }
  sleep 0.2
done
sleep 3  # the engine loads the model on its thread
win="$(xdotool search --name "$name" | head -1)"
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"
for _ in $(seq 1 "$steps"); do
  xdotool key --window "$win" ctrl+Return
  sleep 1.5
done
sleep 1
xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng -compression 9 > "$out"
kill "$pid"
wait "$pid" 2>/dev/null || true
INNER

lang="${LMSCOPE_SCREENSHOT_LANG:-C.UTF-8}"
XDG_CONFIG_HOME="$work/config" LANG="$lang" LC_ALL="$lang" \
  xvfb-run --auto-servernum --server-args="-screen 0 ${size}x24 -dpi 96" \
  bash "$work/capture.sh" "$LMSCOPE_BUILD/app/gui/lmscope" "$model" "$out" "$size" "$steps"
echo "screenshot: wrote $out ($(du -k "$out" | cut -f1) KiB)"
