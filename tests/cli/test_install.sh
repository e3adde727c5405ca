#!/bin/sh
# make install into a temporary prefix: headers, libwgc.a, libwgc.so.0 (soname) + libwgc.so link,
# the wgc binary, wgc.pc and the Python package; then the examples build with
# `pkg-config --cflags --libs wgc` (shared, and statically linked) and run, and the installed
# Python package loads the installed library.
BUILD=${BUILD:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
P=$T/prefix
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$root" || exit 1
make -s BUILD="$BUILD" install-files PREFIX="$P" >"$T/install.log" 2>&1 || { cat "$T/install.log"; echo "FAIL: make install"; exit 1; }
for f in include/wgc/gpu.h include/wgc/wgsl.h include/wgc/tensor.h lib/libwgc.a lib/libwgc.so.0 \
         lib/pkgconfig/wgc.pc bin/wgc lib/wgc/python/wgc/__init__.py lib/wgc/python/wgc/_lib.py; do
  [ -f "$P/$f" ] || bad "not installed: $f"
done
[ "$(readlink "$P/lib/libwgc.so")" = libwgc.so.0 ] || bad "libwgc.so is not a link to libwgc.so.0"
readelf -d "$P/lib/libwgc.so.0" | grep -q 'SONAME.*\[libwgc.so.0\]' || bad "soname is not libwgc.so.0"
"$P/bin/wgc" version | grep -q '^wgc [0-9]' || bad "installed wgc does not run"

export PKG_CONFIG_PATH="$P/lib/pkgconfig"
pkg-config --exists wgc || bad "pkg-config does not find wgc"
[ "$(pkg-config --modversion wgc)" = "$("$P/bin/wgc" version | cut -d' ' -f2)" ] || bad "wgc.pc version differs from wgc version"
cflags=$(pkg-config --cflags wgc); libs=$(pkg-config --libs wgc)
echo "$cflags $libs" | grep -q -- "-I$P/include" || bad "cflags: $cflags"
cc=${CC:-cc}
# A sanitizer build (make asan) leaves __asan_/__ubsan_ symbols to the program's runtime: link
# the examples with the same sanitizers then.
san=""
nm -D "$P/lib/libwgc.so.0" | grep -q ' U __asan_' && san="-fsanitize=address,undefined"
cc="$cc $san"
for ex in run_kernel tensor; do
  $cc -std=c11 -O1 -Wall -Wextra -Werror $cflags -o "$T/$ex" "$root/examples/$ex.c" $libs -lm || { bad "build $ex (shared)"; continue; }
  readelf -d "$T/$ex" | grep -q 'NEEDED.*\[libwgc.so.0\]' || bad "$ex does not need libwgc.so.0"
  LD_LIBRARY_PATH="$P/lib" "$T/$ex" >"$T/$ex.out" 2>&1 || { cat "$T/$ex.out"; bad "run $ex (shared)"; }
  grep -q "^$ex: ok" "$T/$ex.out" || bad "$ex output: $(cat "$T/$ex.out")"
  $cc -std=c11 -O1 $cflags -o "$T/$ex-static" "$root/examples/$ex.c" -L"$P/lib" -Wl,-Bstatic -lwgc -Wl,-Bdynamic \
    $(pkg-config --libs-only-other --static wgc) -ldl -lm -lpthread || { bad "build $ex (static)"; continue; }
  readelf -d "$T/$ex-static" | grep -q 'libwgc' && bad "$ex-static still needs libwgc.so"
  "$T/$ex-static" | grep -q "^$ex: ok" || bad "run $ex (static)"
done
# the examples' own Makefile, as a user would run it
make -s -C "$root/examples" OUT="$T" CC="$cc" >"$T/exmake.log" 2>&1 || { cat "$T/exmake.log"; bad "examples/Makefile"; }
LD_LIBRARY_PATH="$P/lib" "$T/run_kernel" | grep -q '^run_kernel: ok' || bad "examples/Makefile run_kernel"
# the installed Python package finds the installed library by itself
[ -n "$san" ] && export LD_PRELOAD="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)" \
  ASAN_OPTIONS=detect_leaks=0   # python itself is not leak-clean
(cd "$T" && env -u WGC_LIB PYTHONPATH="$P/lib/wgc/python" python3 -c "
import os, wgc
assert os.path.realpath(wgc._lib.lib._name).startswith(os.path.realpath('$P')), wgc._lib.lib._name
ok, msg = wgc.validate_kernel('fn f() {}'); assert ok, msg
print('python ok', wgc.get_device_specs()['warp_size'])") || bad "installed python package"
unset LD_PRELOAD
make -s BUILD="$BUILD" uninstall PREFIX="$P" >/dev/null 2>&1 || bad "make uninstall"
[ -e "$P/lib/libwgc.so.0" ] || [ -e "$P/bin/wgc" ] && bad "uninstall left files"
exit $fail
