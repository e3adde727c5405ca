#!/bin/sh
# scripts/results_table.py on a committed H200 result: one table per suite file, a row per bench
# row with wgc's figure, the torch figure and ratio, the target and its verdict as in the JSON;
# a folder without result files exits 1.
fail=0
bad() { echo "FAIL: $*"; fail=1; }
d=doc/results/h200-c8485f3
out=$(python3 scripts/results_table.py $d ops) || bad "exit $? on $d"
echo "$out" | grep -q '^\*\*ops\*\* (`ops.json`; full: ' || bad "no ops heading"
echo "$out" | grep -qF '| add, f32 (3 x 4n bytes) | GB/s | 4401 | 4310 (x1.02) | ≥ 4310 | yes |' || bad "add row"
echo "$out" | grep -qF '| dependent tiny op, one batch, end to end | us | 0.711 | 5.42 (x7.63) | ≤ 2.50 | yes |' || bad "tiny row"
n=$(python3 -c "import json; print(len(json.load(open('$d/ops.json'))['rows']))")
rows=$(echo "$out" | grep -c '^| [a-z0-9]')
[ "$rows" -eq $((n + 1)) ] || bad "$rows table lines for $n rows (+ header)"
t=$(mktemp -d /tmp/wgc-results-XXXXXX)
python3 scripts/results_table.py "$t" >/dev/null 2>&1 && bad "empty folder did not fail"
rmdir "$t"
[ $fail -eq 0 ] && echo ok
exit $fail
