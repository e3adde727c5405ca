#!/bin/sh
# test_train_digits.sh - examples/train_digits.c, built against this tree's libwgc.a, trains its MLP
# on the digits data set (python3-sklearn's copy) to at least 97% on the held-out rows, and the
# checkpoint it writes reloads into a model that scores the same (the example checks both and
# prints "train_digits: ok").
B=${BUILD:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d /tmp/wgc-test-train-XXXXXX)
trap 'rm -rf "$t"' EXIT
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" -o "$t/train_digits" "$root/examples/train_digits.c" \
  "$B/libwgc.a" -ldl -lm -lpthread || { echo "FAIL: build examples/train_digits.c"; exit 1; }
"$t/train_digits" --checkpoint "$t/digits.safetensors" >"$t/out" 2>&1
rc=$?
cat "$t/out"
[ $rc = 0 ] && grep -q '^train_digits: ok' "$t/out" || { echo "FAIL: train_digits (exit $rc)"; exit 1; }
[ -s "$t/digits.safetensors" ] || { echo "FAIL: no checkpoint written"; exit 1; }
echo "ok"
