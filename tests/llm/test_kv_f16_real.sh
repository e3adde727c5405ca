#!/bin/sh
# test_kv_f16_real.sh - the f16 KV cache (wl_engine_desc.cache_type, `wgc generate --cache-type
# f16`) on SmolLM2-135M-Instruct Q4_1 (scripts/fetch-model.sh): test_engine --kv-f16 compares its
# logits with the f32 cache's over a 24-token prompt and 6 decode steps, and checks in wt_stats
# that the weights (quantized, in their own buffers) and the cache are live memory and that the
# f16 cache takes half the bytes; then `wgc generate --cache-type f16 --json` runs.
set -u
BUILD=${BUILD:-build}
fail() { echo "FAIL: $*"; exit 1; }
Q=$(sh scripts/fetch-model.sh) || fail "cannot fetch the model (scripts/fetch-model.sh; needs PyPI)"
"$BUILD/tests/llm/test_engine" --kv-f16 "$Q" || fail "test_engine --kv-f16"
out=$("$BUILD/wgc" generate -m "$Q" -p "The capital of France is" -n 3 --temp 0 -c 64 -ctk f16 -ctv f16 --json) ||
  fail "wgc generate -ctk f16 -ctv f16"
echo "$out"
echo "$out" | grep -q '"tokens": \[[0-9]*, [0-9]*, [0-9]*\]' || fail "three tokens"
echo "ok"
