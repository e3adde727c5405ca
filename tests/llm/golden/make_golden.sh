#!/bin/sh
# make_golden.sh - regenerate tests/llm/golden/smollm2-f32.txt, the llama.cpp reference values of
# tests/llm/test_engine.c: llama_ref.c (beside this script) compiled against libllama, run on the
# F32 copy of SmolLM2-135M-Instruct (scripts/make-f32-model.py; fetched and converted here when
# missing).  The reference is llama.cpp from the PyPI sdist llama-cpp-python 0.3.36
# (vendor/llama.cpp, commit 0c1e57098bba), built for the CPU with cmake; nothing of it is committed.
#
# Usage: LLAMA_CPP_DIR=.../vendor/llama.cpp LLAMA_CPP_BUILD=.../build sh tests/llm/golden/make_golden.sh
# env: BUILD (default build), WGC_MODEL_DIR (as scripts/fetch-model.sh), LLAMA_CPP_VERSION (a label)
set -eu
: "${LLAMA_CPP_DIR:?set LLAMA_CPP_DIR to llama.cpp's source directory}"
: "${LLAMA_CPP_BUILD:?set LLAMA_CPP_BUILD to its cmake build directory}"
BUILD=${BUILD:-build}
ver=${LLAMA_CPP_VERSION:-"llama-cpp-python 0.3.36 sdist, vendor/llama.cpp commit 0c1e57098bba"}
here=$(dirname "$0")
q4=$(sh scripts/fetch-model.sh)
f32=$(dirname "$q4")/SmolLM2-135M-Instruct.F32.gguf
PYTHONPATH=$(BUILD=$BUILD sh tests/llm/install_gguf.sh) /usr/bin/python3 scripts/make-f32-model.py "$q4" "$f32" >/dev/null
libdir=$LLAMA_CPP_BUILD/bin
mkdir -p "$BUILD/golden"
cc -std=c11 -O2 -o "$BUILD/golden/llama_ref" "$here/llama_ref.c" -I"$LLAMA_CPP_DIR/include" \
   -I"$LLAMA_CPP_DIR/ggml/include" -L"$libdir" -lllama -lggml -lggml-base -Wl,-rpath,"$libdir" -lm
out=$here/smollm2-f32.txt
{
  echo "# llama.cpp reference for tests/llm/test_engine.c: SmolLM2-135M-Instruct dequantized to F32"
  echo "# ($ver; F32 KV cache, flash attention off, CPU)."
  echo "# Regenerate: sh tests/llm/golden/make_golden.sh (see its header)."
  "$BUILD/golden/llama_ref" "$f32" 64 \
    "The capital of France is" \
    "<|im_start|>system
You are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>
<|im_start|>user
What is the boiling point of water at sea level?<|im_end|>
<|im_start|>assistant
" \
    "def fibonacci(n):
    "
} > "$out.part"
mv "$out.part" "$out"
echo "$out: $(wc -c < "$out") bytes"
