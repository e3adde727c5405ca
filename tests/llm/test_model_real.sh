#!/bin/sh
# test_model_real.sh - the real model: SmolLM2-135M-Instruct Q4_1 (scripts/fetch-model.sh), read by
# `wgc model` and compared tensor by tensor with the PyPI gguf package's reader
# (tests/llm/gguf_compare.py), plus the figures the model card gives.  No silent skip: a failed
# download or pip install fails the test with the reason.
set -u
BUILD=${BUILD:-build}
W=$BUILD/wgc
mkdir -p "$BUILD/test-logs"
fail() { echo "FAIL: $*"; exit 1; }
M=$(sh scripts/fetch-model.sh) || fail "cannot fetch the model (scripts/fetch-model.sh; needs PyPI)"
PY=$(sh tests/llm/install_gguf.sh) || fail "cannot install the gguf package (tests/llm/install_gguf.sh)"
"$W" model "$M" || fail "wgc model $M"
"$W" model --json --tensors "$M" >"$BUILD/test-logs/model_real.json" || fail "wgc model --json"
PYTHONPATH=$PY python3 tests/llm/gguf_compare.py "$M" <"$BUILD/test-logs/model_real.json" || fail "wgc and gguf differ"
python3 - "$BUILD/test-logs/model_real.json" <<'PY' || fail "figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["architecture"] == "llama" and d["blockCount"] == 30 and d["embeddingLength"] == 576, d
assert d["attentionHeadCount"] == 9 and d["attentionHeadCountKv"] == 3 and d["vocabSize"] == 49152, d
t = {x["name"]: x for x in d["tensors"]}
assert t["token_embd.weight"]["dtype"] == "Q8_0" and t["token_embd.weight"]["ne"] == [576, 49152]
assert t["blk.0.attn_q.weight"]["dtype"] == "Q4_1" and t["blk.0.ffn_down.weight"]["dtype"] == "Q4_1"
assert all(x["dtype"] == "F32" for n, x in t.items() if n.endswith("norm.weight"))
assert set(d["dtypes"]) == {"F32", "Q4_1", "Q8_0"}, d["dtypes"]
PY
echo "ok"
