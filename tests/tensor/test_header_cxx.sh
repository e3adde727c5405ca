#!/bin/sh
# tensor.h and llm.h (its tokenizer section included) each compile as C++ (and as strict C) on
# their own, with every warning an error, and their desc structs zero-initialise to the defaults
# (wt_context_desc, wt_stats; the caller-owned wl_detok and wl_special_tokens).
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "wgc/tensor.h"\nint main() { wt_context_desc d{}; wt_stats s{}; return (int)d.policy.max_batch_ops + (int)s.ops + (int)WT_STATUS_OK + (int)wt_dtype_size(WT_F32) - 4; }\n' > "$tmp/a.cc"
CXX=${CXX:-}
for c in c++ g++ clang++; do [ -z "$CXX" ] && command -v $c >/dev/null 2>&1 && CXX=$c; done
[ -n "$CXX" ] || { echo "FAIL: no C++ compiler (c++, g++ or clang++; scripts/deps.sh installs clang)"; exit 1; }
$CXX -std=c++11 -Wall -Wextra -Wpedantic -Werror -Iinclude -c "$tmp/a.cc" -o "$tmp/a.o"
printf '#include "wgc/tensor.h"\nstatic int f(int n, const int64_t *s) { return n + (int)s[1]; }\nint main(void) { return f(WT_SHAPE(2, 3)) - 5 + (int)WT_STATUS_OK; }\n' > "$tmp/b.c"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude "$tmp/b.c" -o "$tmp/b"
"$tmp/b"
printf '#include "wgc/llm.h"\nint main() { wl_detok d{}; wl_special_tokens s{}; return (int)d.npending + (int)s.add_bos + (int)WL_PRETOK_SMOLLM - 4 + (int)(wl_tokenizer_vocab_size(nullptr) != 0); }\n' > "$tmp/c.cc"
$CXX -std=c++11 -Wall -Wextra -Wpedantic -Werror -Iinclude -c "$tmp/c.cc" -o "$tmp/c.o"
printf '#include "wgc/llm.h"\nint main(void) { wl_detok d = { 0 }; return (int)d.npending + (int)WL_TOKENIZE_PARSE_SPECIAL - 1; }\n' > "$tmp/d.c"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude "$tmp/d.c" -o "$tmp/d"
"$tmp/d"
echo "ok: tensor.h and llm.h compile as C++11 and C11"
