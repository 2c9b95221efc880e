#!/usr/bin/env bash
# Shared set-up for run.sh and test.sh: installs the Debian packages the build needs (only
# the missing ones), configures and builds lmscope in build/ (incremental on re-runs), and
# fetches the sample model. Source it; it defines LMSCOPE_ROOT and LMSCOPE_BUILD.
set -euo pipefail

LMSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LMSCOPE_BUILD="${LMSCOPE_BUILD:-$LMSCOPE_ROOT/build}"

lmscope_packages=(
  build-essential cmake ninja-build pkg-config python3
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqcustomplot-dev libqcustomplot2.1-qt6
  libsentencepiece-dev libpcre2-dev libutf8proc-dev zlib1g-dev nlohmann-json3-dev libcli11-dev libopenblas-dev libgl-dev
  libsimde-dev
  fonts-wqy-microhei
)

lmscope_install_packages() {
  local missing=() p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "lmscope: installing Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "lmscope: need root or sudo to install: ${missing[*]}" >&2; return 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Configures build/ once (later runs reuse its cache); extra arguments go to cmake.
lmscope_configure() {
  local generator=()
  if [ ! -f "$LMSCOPE_BUILD/CMakeCache.txt" ]; then
    command -v ninja >/dev/null && generator=(-G Ninja)
    cmake -S "$LMSCOPE_ROOT" -B "$LMSCOPE_BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
  fi
}

lmscope_build() {
  lmscope_configure "$@"
  cmake --build "$LMSCOPE_BUILD" --parallel "$(nproc)"
}

lmscope_setup() {
  lmscope_install_packages "${lmscope_packages[@]}"
  lmscope_build "$@"
  bash "$LMSCOPE_ROOT/sample_models/fetch.sh"
}
