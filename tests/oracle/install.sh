#!/bin/sh
# install.sh - install the npm package "webgpu" (dawn.node: Dawn + Tint for node) into
# $BUILD/npm, idempotently, and print the package directory (the one holding index.js).
#
# The package is our reference oracle: Tint validates WGSL (tests/oracle/tint-check.mjs, used by
# tests/oracle/tint_diff.sh, tests/wgsl/test_syntax_diff.sh and tests/wgsl/test_parity_dawn.sh)
# and Dawn's OpenGL ES backend on Mesa llvmpipe runs the parity kernels
# (tests/oracle/dawn-run.mjs).  The version is pinned: Tint's messages, which the tests compare
# with ours, change between releases.
# Nothing is installed when $BUILD/npm already holds that version.  Works with Debian 12's own
# node 18 / npm 9 and with node 20 (the package declares no "engines"; dawn.node needs N-API 7
# and glibc 2.34, both present on Debian 12).
# Usage: sh tests/oracle/install.sh      env: BUILD (default build), WEBGPU_VERSION (default 0.6.2)
# Exit status: 0 and the directory on stdout; 1 with a message on stderr.
set -u
BUILD=${BUILD:-build}
ver=${WEBGPU_VERSION:-0.6.2}
prefix=$BUILD/npm
pkg=$prefix/node_modules/webgpu

installed_version() {
  [ -f "$pkg/package.json" ] || return 1
  node -e 'process.stdout.write(require(process.argv[1]).version)' "$(cd "$pkg" && pwd)/package.json" 2>/dev/null
}

command -v node >/dev/null 2>&1 || { echo "install.sh: node not found (sh scripts/deps.sh installs nodejs)" >&2; exit 1; }
if [ "$(installed_version)" != "$ver" ]; then
  command -v npm >/dev/null 2>&1 || { echo "install.sh: npm not found (sh scripts/deps.sh installs npm)" >&2; exit 1; }
  mkdir -p "$prefix"
  # A package.json of our own keeps npm from walking up to some other project root.
  [ -f "$prefix/package.json" ] || echo '{ "name": "wgc-oracle", "private": true }' >"$prefix/package.json"
  # --ignore-scripts: the package's only script is a macOS quarantine fix-up.
  if ! (cd "$prefix" && npm install --no-save --no-audit --no-fund --ignore-scripts --loglevel=error \
          "webgpu@$ver" >&2); then
    echo "install.sh: npm install webgpu@$ver failed (is the npm registry reachable?)" >&2
    exit 1
  fi
  got=$(installed_version)
  [ "$got" = "$ver" ] || { echo "install.sh: installed webgpu is '$got', wanted $ver" >&2; exit 1; }
fi
arch=$(node -p 'process.platform + "-" + (process.platform === "darwin" ? "universal" : process.arch)')
[ -f "$pkg/dist/$arch/dawn.node" ] || { echo "install.sh: $pkg has no dist/$arch/dawn.node" >&2; exit 1; }
cd "$pkg" && pwd
