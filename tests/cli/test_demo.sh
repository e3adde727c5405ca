#!/bin/sh
# wgc demo: adapter line, the checked vector add, the transformer block's per-op rows, its check
# against the CPU reference (max relative error, pass) and "demo: ok" with exit 0; a smaller
# block through the options; bad options exit 2.
W=${BUILD:-build}/wgc
fail=0
out=$($W demo 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: wgc demo exit $rc"; fail=1; }
for row in '^adapter: ' 'vector add of 100003 floats on the GPU matches the CPU' \
    'transformer block on random weights: seq 32, dim 128, heads 4' \
    '^  rmsnorm (attention) ' '^  linear q, k, v ' '^  rope q, k ' '^  causal attention ' \
    '^  merge heads (copy) ' '^  linear out ' '^  residual add ' '^  rmsnorm (mlp) ' '^  linear gate, up ' \
    '^  silu(gate) \* up ' '^  linear down ' '^  whole block, 1 batch ' \
    'max relative error .*: pass$' '^demo: ok$'; do
  echo "$out" | grep -q "$row" || { echo "FAIL: no line matching '$row'"; fail=1; }
done
# every per-op row carries a time
n=$(echo "$out" | grep -cE '^  [a-z].* +[0-9]+\.[0-9]{3}( |$)')
[ "$n" -ge 14 ] || { echo "FAIL: $n timed rows, expected 14"; fail=1; }
out=$($W demo --seq 7 --dim 64 --heads 2 --mlp 96 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q 'seq 7, dim 64, heads 2 (head dim 32), mlp 96' \
  && echo "$out" | grep -q ': pass$' || { echo "FAIL: small block: exit $rc: $out"; fail=1; }
$W demo --heads 3 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: --heads 3 (128 / 3) not exit 2"; fail=1; }
$W demo --frob >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: unknown option not exit 2"; fail=1; }
exit $fail
