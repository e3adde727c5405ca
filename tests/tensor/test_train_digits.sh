#!/bin/sh
# test_train_digits.sh - examples/train_digits.c, built against this tree's libwgc.a, trains its MLP
# on the digits data set (python3-sklearn's copy) to at least 97% on the held-out rows, and the
# checkpoint it writes reloads into a model that scores the same (the example checks both and
# prints "train_digits: ok"); then `wgc demo train --model cnn --json` (the same code inside the
# CLI) trains the CNN to at least 97%, its checkpoint reloading to the same accuracy; and
# `wgc demo train --amp --json` trains the MLP in mixed precision (autocast to f16, a GradScaler)
# to at least 97% too.
B=${BUILD:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d /tmp/wgc-test-train-XXXXXX)
trap 'rm -rf "$t"' EXIT
# a sanitizer build's library (make asan) needs the same instrumentation in the example
san=
nm "$B/libwgc.a" 2>/dev/null | grep -q ' U __asan_' && san="-fsanitize=address,undefined"
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror $san -I"$root/include" -o "$t/train_digits" "$root/examples/train_digits.c" \
  "$B/libwgc.a" -ldl -lm -lpthread || { echo "FAIL: build examples/train_digits.c"; exit 1; }
"$t/train_digits" --checkpoint "$t/digits.safetensors" >"$t/out" 2>&1
rc=$?
cat "$t/out"
[ $rc = 0 ] && grep -q '^train_digits: ok' "$t/out" || { echo "FAIL: train_digits (exit $rc)"; exit 1; }
[ -s "$t/digits.safetensors" ] || { echo "FAIL: no checkpoint written"; exit 1; }
"$B/wgc" demo train --model cnn --json --checkpoint "$t/cnn.safetensors" >"$t/cnn.json" 2>"$t/cnn.err"
rc=$?
cat "$t/cnn.json" "$t/cnn.err"
python3 - "$t/cnn.json" <<'PY' || { echo "FAIL: wgc demo train --model cnn (exit $rc)"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is True and d["model"] == "cnn", d
assert d["testAccuracy"] >= 0.97 and d["reloadedAccuracy"] == d["testAccuracy"], d
assert len(d["epochs"]) == 30 and d["testImages"] == 299, d
print("cnn: test accuracy %.2f%%" % (100 * d["testAccuracy"]))
PY
[ $rc = 0 ] || { echo "FAIL: exit $rc"; exit 1; }
"$B/wgc" demo train --amp --json >"$t/amp.json" 2>"$t/amp.err"
rc=$?
cat "$t/amp.err"
python3 - "$t/amp.json" <<'PY' || { echo "FAIL: wgc demo train --amp (exit $rc)"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is True and d["model"] == "mlp" and d["amp"] is True, d
assert d["testAccuracy"] >= 0.97 and len(d["epochs"]) == 30, d
print("mlp amp: test accuracy %.2f%%, loss %.4f -> %.4f" % (100 * d["testAccuracy"], d["epochs"][0]["loss"],
                                                          d["epochs"][-1]["loss"]))
PY
[ $rc = 0 ] || { echo "FAIL: exit $rc"; exit 1; }
"$B/wgc" demo train --epochs 0 >/dev/null 2>"$t/bad"; rc=$?
[ $rc = 2 ] && grep -q "epochs" "$t/bad" || { echo "FAIL: --epochs 0 gave exit $rc: $(cat "$t/bad")"; exit 1; }
echo "ok"
