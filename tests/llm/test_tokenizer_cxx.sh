#!/bin/sh
# test_tokenizer_cxx.sh - include/wgc/llm.h (with its tokenizer section) compiles as C++11 and as
# strict C11 on its own, every warning an error; the caller-owned wl_detok zero-initialises.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "wgc/llm.h"\nint main() { wl_detok d{}; wl_special_tokens s{}; return (int)d.npending + (int)s.add_bos + (int)WL_PRETOK_SMOLLM - 4 + (int)(wl_tokenizer_vocab_size(nullptr) != 0); }\n' > "$tmp/a.cc"
CXX=${CXX:-}
for c in c++ g++ clang++; do [ -z "$CXX" ] && command -v $c >/dev/null 2>&1 && CXX=$c; done
[ -n "$CXX" ] || { echo "FAIL: no C++ compiler (c++, g++ or clang++; scripts/deps.sh installs clang)"; exit 1; }
$CXX -std=c++11 -Wall -Wextra -Wpedantic -Werror -Iinclude -c "$tmp/a.cc" -o "$tmp/a.o"
printf '#include "wgc/llm.h"\nint main(void) { wl_detok d = { 0 }; return (int)d.npending + (int)WL_TOKENIZE_PARSE_SPECIAL - 1; }\n' > "$tmp/b.c"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude "$tmp/b.c" -o "$tmp/b"
"$tmp/b"
echo "ok: llm.h compiles as C++11 and C11"
