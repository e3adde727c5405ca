#!/bin/sh
# Runs the Python package's unittest suite (tests/python/test_*.py) with Debian's python3 against
# $BUILD/libwgc.so.  numpy is optional: the suite covers both paths when it is installed.
BUILD=${BUILD:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$BUILD" in /*) lib=$BUILD/libwgc.so ;; *) lib=$root/$BUILD/libwgc.so ;; esac
[ -f "$lib" ] || { echo "no $lib (run make)"; exit 1; }
cd "$root" || exit 1
WGC_LIB=$lib PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH} WGC_ROOT=$root \
  python3 -m unittest discover -s tests/python -p 'test_*.py' -v
