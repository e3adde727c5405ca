#!/bin/sh
# deps.sh - install the Debian 12 packages wgc needs to build, run its demo and pass its tests.
# As root it runs apt-get itself; otherwise it prints the exact apt-get line and fails.
# Usage: sh scripts/deps.sh [demo|check]   (check = everything the test suite needs; the default)
# check also fetches the test model (scripts/fetch-model.sh: once, into ~/.cache/wgc/models; a
# no-op when cached); a failed fetch is reported here and fails tests/llm/test_model_real.sh.
set -u
what=${1:-check}
# python3: scripts/fetch-model.sh (make demo's model) and the tests
pkgs="gcc make pkg-config libc6-dev libvulkan-dev libvulkan1 mesa-vulkan-drivers spirv-tools python3"
if [ "$what" = check ]; then
  # libegl-dev: dawn.node (tests/oracle, the reference runner) dlopens the unversioned libEGL.so
  # for Dawn's OpenGL ES backend on Mesa llvmpipe (libegl-mesa0 + libgl1-mesa-dri).
  # python3-sklearn: its digits.csv.gz is the data set of the training tests (wt_digits_load).
  pkgs="$pkgs vulkan-validationlayers vulkan-tools valgrind clang libclang-rt-14-dev python3-numpy nodejs npm
        libegl-dev libegl-mesa0 libgl1-mesa-dri python3-sklearn"
fi
missing=""
for p in $pkgs; do
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;   # a node from elsewhere is fine
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
install_missing() {
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "wgc: missing packages; run as root:"
    echo "  apt-get update && apt-get install -y$missing"
    return 1
  fi
  echo "wgc: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt_waiting update -q && apt_waiting install -y -q$missing || {
    echo "wgc: apt-get install failed for:$missing"; return 1; }
}
# apt_waiting ARGS: apt-get ARGS, waiting while another apt or dpkg (unattended upgrades on a
# fresh machine, a second terminal) holds the dpkg lock or the package lists' lock, for up to
# WGC_APT_WAIT_S seconds (default 900).  DPkg::Lock::Timeout makes apt-get wait for the dpkg
# lock itself; the lists' lock of `apt-get update` is not covered by it on every apt release, so
# a "Could not get lock" failure is retried here every 5 s (WGC_APT_RETRY_S), saying so once.
apt_waiting() {
  wait_s=${WGC_APT_WAIT_S:-900}; retry_s=${WGC_APT_RETRY_S:-5}
  t0=$(date +%s); said=
  err=$(mktemp) || return 1
  while :; do
    apt-get -o DPkg::Lock::Timeout="$wait_s" "$@" >/dev/null 2>"$err" && { rm -f "$err"; return 0; }
    if ! grep -q -e 'Could not get lock' -e 'Unable to acquire' -e 'is held by process' "$err" ||
       [ $(( $(date +%s) - t0 )) -ge "$wait_s" ]; then
      cat "$err" >&2; rm -f "$err"; return 1
    fi
    [ -n "$said" ] || echo "wgc: another apt or dpkg holds the package lock; waiting (up to ${wait_s}s): $(grep -m1 'lock' "$err")"
    said=1
    sleep "$retry_s"
  done
}
install_missing || exit 1
if [ "$what" = check ]; then
  here=$(dirname "$0")
  sh "$here/fetch-model.sh" >/dev/null ||
    echo "wgc: cannot fetch the test model (scripts/fetch-model.sh, above); tests/llm/test_model_real.sh will fail"
fi
exit 0
