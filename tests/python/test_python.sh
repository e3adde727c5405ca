#!/bin/sh
# Runs the Python package's unittest suite (tests/python/test_*.py) with Debian's python3 against
# $BUILD/libwgc.so.  numpy is optional: the suite covers both paths when it is installed.
BUILD=${BUILD:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$BUILD" in /*) lib=$BUILD/libwgc.so ;; *) lib=$root/$BUILD/libwgc.so ;; esac
[ -f "$lib" ] || { echo "no $lib (run make)"; exit 1; }
cd "$root" || exit 1
# A sanitizer build (make asan) needs its runtimes loaded first into python; python itself is
# not leak-clean, so leak checking is off there.
if nm -D "$lib" | grep -q ' U __asan_'; then
  cc=${CC:-cc}
  LD_PRELOAD="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)"
  export LD_PRELOAD ASAN_OPTIONS=detect_leaks=0
fi
# Debian's python3 (the one the package targets; python3-numpy comes from scripts/deps.sh), else the
# first python3 on PATH.
py=${WGC_PYTHON:-python3}
[ -z "${WGC_PYTHON:-}" ] && [ -x /usr/bin/python3 ] && py=/usr/bin/python3
WGC_BIN=$(dirname "$lib")/wgc WGC_LIB=$lib PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH} WGC_ROOT=$root \
  $py -m unittest discover -s tests/python -p 'test_*.py' -v
