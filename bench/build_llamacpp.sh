#!/bin/sh
# build_llamacpp.sh - builds llama.cpp's llama-bench, the baseline of `wgc bench generate`, from an
# unpacked llama.cpp source tree (e.g. the vendor/llama.cpp of the llama-cpp-python sdist): the
# CUDA backend for sm_90 (the H200) where nvcc is found, else the CPU build.  Nothing of llama.cpp
# is kept in this repository.
# Usage: sh bench/build_llamacpp.sh SRC_DIR [BUILD_DIR]
#   BUILD_DIR default SRC_DIR/build-wgc; prints the path of llama-bench last (for WGC_LLAMA_BENCH).
# env: JOBS (default: the number of CPUs), LLAMACPP_CUDA=0|1 (default: 1 when nvcc is found, on
#      PATH or in /usr/local/cuda/bin), CUDA_ARCH (default 90), LLAMACPP_VULKAN=1 (the Vulkan
#      backend instead of CUDA, for `wgc bench generate --llama-bench-vulkan`: needs the Vulkan
#      headers and glslc), LLAMACPP_CMAKE_ARGS (more -D...).
# Exit status: 0 and the path on stdout; 1 with cmake's output on stderr.
set -u
src=${1:-}
[ -n "$src" ] && [ -f "$src/CMakeLists.txt" ] || { echo "usage: sh bench/build_llamacpp.sh SRC_DIR [BUILD_DIR] (SRC_DIR holds llama.cpp's CMakeLists.txt)" >&2; exit 1; }
out=${2:-$src/build-wgc}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
cuda=${LLAMACPP_CUDA:-}
if [ -z "$cuda" ]; then
  cuda=0
  if command -v nvcc >/dev/null 2>&1; then cuda=1
  elif [ -x /usr/local/cuda/bin/nvcc ]; then cuda=1; PATH=/usr/local/cuda/bin:$PATH; export PATH
  fi
fi
if [ "${LLAMACPP_VULKAN:-0}" = 1 ]; then
  backend="-DGGML_CUDA=OFF -DGGML_VULKAN=ON"; what=Vulkan
elif [ "$cuda" = 1 ]; then
  backend="-DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH:-90}"; what="CUDA sm_${CUDA_ARCH:-90}"
else
  backend="-DGGML_CUDA=OFF"; what=CPU
fi
echo "build_llamacpp.sh: $src -> $out ($what, $jobs jobs)" >&2
# shellcheck disable=SC2086
cmake -S "$src" -B "$out" -DCMAKE_BUILD_TYPE=Release $backend -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_SERVER=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF ${LLAMACPP_CMAKE_ARGS:-} >&2 ||
  { echo "build_llamacpp.sh: cmake configure failed" >&2; exit 1; }
cmake --build "$out" --target llama-bench -j "$jobs" >&2 || { echo "build_llamacpp.sh: build failed" >&2; exit 1; }
bin=$out/bin/llama-bench
[ -x "$bin" ] || { echo "build_llamacpp.sh: no $bin after the build" >&2; exit 1; }
echo "$bin"
