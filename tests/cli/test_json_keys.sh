#!/bin/sh
# test_json_keys.sh - one naming style in all JSON: every key of every wgc --json document is
# camelCase (^[a-z][a-zA-Z0-9]*$), as WebGPU names its fields, except the keys of maps whose
# keys are data (a model's dtype names, bench's info facts and baseline names, a model file's
# metadata).  Documents: version, info, check, compile --reflect, run, profile, model (a GGUF of
# tests/llm/corpus), bench compile at the small size.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(cd "$(dirname "${BUILD:-build}/wgc")" && pwd)/wgc
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
export WGC_NO_PROGRESS=1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
printf '@group(0) @binding(0) var<storage, read_write> v: array<f32>;\n@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3u) { v[g.x] = 2.0 * v[g.x]; }\n' >k.wgsl
printf 'fn f() {\n  let x = 1\n}\n' >bad.wgsl
n=0
doc() {   # doc NAME CMD...: runs CMD, keeps its stdout as NAME.json
  name=$1; shift
  "$@" >"$name.json" 2>"$name.err"
  n=$((n + 1))
  [ -s "$name.json" ] || { bad "$name: no document ($(head -c 300 "$name.err"))"; rm -f "$name.json"; }
}
doc version "$W" version --json
doc info "$W" info --json
doc check "$W" check --json k.wgsl bad.wgsl
doc reflect "$W" compile --reflect k.wgsl
doc run "$W" run k.wgsl --dispatch 1 --bind 0=rand:f32:4:1 --json
doc run_error "$W" run k.wgsl --dispatch 1 --bind 0=missing.npy --json
doc profile "$W" profile k.wgsl --dispatch 1 --bind 0=rand:f32:4:1 --repeat 2 --json
tail -c +2 "$ROOT/tests/llm/corpus/gguf-v2-llama.bin" >m.gguf   # the corpus' first byte picks the fuzzer's reader
doc model "$W" model --json --tensors m.gguf
doc bench "$W" bench compile --size small --runs 1 --baseline none --root "$ROOT" --json
python3 - *.json <<'PY' || fail=1
import json, re, sys
CAMEL = re.compile(r"^[a-z][a-zA-Z0-9]*$")
DATA_MAPS = {"dtypes", "info", "baselines", "metadata"}   # keys are names of things, not fields
bad = []
def walk(v, path, doc, data=False):
    if isinstance(v, dict):
        for k, x in v.items():
            if not data and not CAMEL.match(k):
                bad.append("%s: key %r at %s" % (doc, k, path or "/"))
            walk(x, path + "/" + k, doc, k in DATA_MAPS)
    elif isinstance(v, list):
        for x in v:
            walk(x, path + "[]", doc)
for f in sys.argv[1:]:
    d = json.load(open(f))
    walk(d, "", f)
for b in bad:
    print("FAIL:", b)
print("%d documents checked, %d keys not camelCase" % (len(sys.argv) - 1, len(bad)))
sys.exit(1 if bad else 0)
PY
exit $fail
