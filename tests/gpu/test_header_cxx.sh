#!/bin/sh
# gpu.h compiles as C++ (and as strict C) on its own, with every warning an error.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "wgc/gpu.h"\nint main() { wg_buffer_desc d{}; d.size = 4; return (int)d.size - 4 + (int)WG_ERR_NONE; }\n' > "$tmp/a.cc"
CXX=${CXX:-}
for c in c++ g++ clang++; do [ -z "$CXX" ] && command -v $c >/dev/null 2>&1 && CXX=$c; done
[ -n "$CXX" ] || { echo "FAIL: no C++ compiler (c++, g++ or clang++; scripts/deps.sh installs clang)"; exit 1; }
$CXX -std=c++11 -Wall -Wextra -Wpedantic -Werror -Iinclude -c "$tmp/a.cc" -o "$tmp/a.o"
printf '#include "wgc/gpu.h"\nint main(void) { return (int)WG_ERR_NONE; }\n' > "$tmp/b.c"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude -c "$tmp/b.c" -o "$tmp/b.o"
