#!/bin/sh
# install_gguf.sh - install the PyPI package "gguf" (the GGUF reader from the llama.cpp project,
# our reference for tests/llm/test_model_real.sh) into $BUILD/py/gguf with pip --target,
# idempotently, and print that directory (for PYTHONPATH).  The version is pinned.
# Usage: sh tests/llm/install_gguf.sh      env: BUILD (default build), GGUF_VERSION (default 0.17.1)
# Exit status: 0 and the directory on stdout; 1 with a message on stderr.
set -u
BUILD=${BUILD:-build}
ver=${GGUF_VERSION:-0.17.1}
dir=$BUILD/py/gguf
if ! PYTHONPATH=$dir python3 -c "import importlib.metadata as m, sys; sys.exit(m.version('gguf') != '$ver')" 2>/dev/null; then
  python3 -m pip --version >/dev/null 2>&1 || { echo "install_gguf.sh: python3 has no pip" >&2; exit 1; }
  rm -rf "$dir"
  python3 -m pip install -q --disable-pip-version-check --target "$dir" "gguf==$ver" >&2 ||
    { echo "install_gguf.sh: pip install gguf==$ver failed (is PyPI reachable?)" >&2; exit 1; }
fi
echo "$dir"
