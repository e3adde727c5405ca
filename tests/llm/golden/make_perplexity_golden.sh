#!/bin/sh
# make_perplexity_golden.sh - regenerate tests/llm/golden/perplexity.txt, the reference of
# tests/llm/test_perplexity.sh: llama.cpp's llama-perplexity over perplexity-text.txt (beside this
# script; prose written for this test) on the F32 copy of SmolLM2-135M-Instruct
# (scripts/make-f32-model.py; fetched and converted here when missing).  llama.cpp is the one from
# the PyPI sdist llama-cpp-python 0.3.36 (vendor/llama.cpp, commit 0c1e57098bba), built for the CPU
# with cmake; nothing of it is committed.
#
# Flags: -c 128 -b 128 -fa off -ctk f32 -ctv f32: windows of 128 tokens (floor(n/128) of them, each
# scoring its second half, the rule wgc perplexity follows), one sequence per batch, flash
# attention off and an F32 KV cache (exact math).
#
# Usage: LLAMA_CPP_BUILD=.../build sh tests/llm/golden/make_perplexity_golden.sh
# env: BUILD (default build), WGC_MODEL_DIR (as scripts/fetch-model.sh), LLAMA_CPP_VERSION (a label)
set -eu
: "${LLAMA_CPP_BUILD:?set LLAMA_CPP_BUILD to llama.cpp's cmake build directory}"
BUILD=${BUILD:-build}
ver=${LLAMA_CPP_VERSION:-"llama-cpp-python 0.3.36 sdist, vendor/llama.cpp commit 0c1e57098bba"}
here=$(dirname "$0")
q4=$(sh scripts/fetch-model.sh)
f32=$(dirname "$q4")/SmolLM2-135M-Instruct.F32.gguf
PYTHONPATH=$(BUILD=$BUILD sh tests/llm/install_gguf.sh) /usr/bin/python3 scripts/make-f32-model.py "$q4" "$f32" >/dev/null
ctx=128
flags="-c $ctx -b $ctx -fa off -ctk f32 -ctv f32"
log=$(mktemp)
# shellcheck disable=SC2086
"$LLAMA_CPP_BUILD/bin/llama-perplexity" -m "$f32" -f "$here/perplexity-text.txt" $flags >"$log" 2>&1 ||
  { cat "$log"; rm -f "$log"; exit 1; }
ppl=$(sed -n 's/.*Final estimate: PPL = \([0-9.]*\).*/\1/p' "$log")
chunks=$(sed -n 's/.*calculating perplexity over \([0-9]*\) chunks.*/\1/p' "$log")
rm -f "$log"
[ -n "$ppl" ] && [ -n "$chunks" ] || { echo "no 'Final estimate' in llama-perplexity's output" >&2; exit 1; }
out=$here/perplexity.txt
{
  echo "# llama.cpp reference for tests/llm/test_perplexity.sh: llama-perplexity $flags"
  echo "# over perplexity-text.txt, SmolLM2-135M-Instruct dequantized to F32 ($ver)."
  echo "# Regenerate: sh tests/llm/golden/make_perplexity_golden.sh (see its header)."
  echo "ctx $ctx"
  echo "chunks $chunks"
  echo "ppl $ppl"
} > "$out"
cat "$out"
