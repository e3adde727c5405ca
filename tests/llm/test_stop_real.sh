#!/bin/sh
# test_stop_real.sh - `wgc generate --stop` on SmolLM2-135M-Instruct Q4_1 (scripts/fetch-model.sh).
# A greedy run without stop strings gives the reference text and tokens; a stop string is cut
# from the middle of that text (6 characters, so it spans tokens), and greedy runs with --stop
# must then: end with "stop": "stop_string" naming it, after a prefix of the reference tokens
# that ends with the first token whose text completes the string; show the reference text up to
# the string's first occurrence, the string excluded, in --json and in the stream (which never
# shows a prefix of it: what is printed cannot be taken back); --ids gives the same.  A stop
# string that never occurs changes nothing ("stop": "length").  Bad input: an empty --stop,
# -ctk f16 -ctv f32.
set -u
BUILD=${BUILD:-build}
W=$BUILD/wgc
fail() { echo "FAIL: $*"; exit 1; }
Q=$(sh scripts/fetch-model.sh) || fail "cannot fetch the model (scripts/fetch-model.sh; needs PyPI)"
T=${TMPDIR:-/tmp}/wgc_stop_$$
mkdir -p "$T" || fail "mkdir $T"
trap 'rm -rf "$T"' EXIT
P="The capital of France is"
"$W" generate -m "$Q" -p "$P" -n 12 --temp 0 --json >"$T/ref.json" || fail "wgc generate (reference)"
cat "$T/ref.json"
S=$(python3 - "$T/ref.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["stop"] == "length" and len(r["tokens"]) == 12, r
t = r["text"]
m = len(t) // 2
print(t[m - 3:m + 3], end="")
PY
) || fail "the reference run: 12 tokens, stop length"
echo "stop string: '$S'"
"$W" generate -m "$Q" -p "$P" -n 12 --temp 0 --json --stop "$S" --stop "never in this text" >"$T/stop.json" ||
  fail "wgc generate --stop --json"
cat "$T/stop.json"
"$W" generate -m "$Q" -p "$P" -n 12 --temp 0 --stop "$S" >"$T/stream.txt" 2>/dev/null || fail "wgc generate --stop"
ids=$(python3 -c 'import json,sys; print(",".join(map(str, json.load(open(sys.argv[1]))["promptTokens"])))' "$T/ref.json")
"$W" generate -m "$Q" --ids "$ids" -n 12 --temp 0 --json --stop "$S" >"$T/ids.json" || fail "wgc generate --ids --stop"
"$W" generate -m "$Q" -p "$P" -n 12 --temp 0 --json --stop "never in this text" >"$T/none.json" ||
  fail "wgc generate --stop (no match)"
python3 - "$T" "$S" <<'PY' || fail "see above"
import json, sys
d, s = sys.argv[1], sys.argv[2]
ref, st, ids, none = (json.load(open("%s/%s.json" % (d, n))) for n in ("ref", "stop", "ids", "none"))
want = ref["text"][:ref["text"].index(s)]
k = len(st["tokens"])
assert st["stop"] == "stop_string" and st["stopString"] == s, st
assert st["tokens"] == ref["tokens"][:k] and 1 <= k < 12, (st["tokens"], ref["tokens"])
assert st["text"] == want, (st["text"], want)
stream = open(d + "/stream.txt", encoding="utf-8", newline="").read()
assert stream == want + "\n", (stream, want)
assert ids["tokens"] == st["tokens"] and ids["stop"] == "stop_string", ids
assert none["tokens"] == ref["tokens"] and none["text"] == ref["text"] and none["stop"] == "length", none
print("stopped after %d of 12 tokens; shown %r" % (k, want))
PY
bad() {   # expected message, then the arguments
  msg=$1; shift
  err=$("$W" generate "$@" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || fail "wgc generate $*: exit $rc, want 2"
  case "$err" in *"$msg"*) ;; *) fail "wgc generate $*: '$err' lacks '$msg'" ;; esac
}
bad "an empty stop string" -m "$Q" -p hi --stop ""
bad "the cache keeps k and v in one type" -m "$Q" -p hi -ctk f16 -ctv f32
bad "cache type 'q8_0'" -m "$Q" -p hi --cache-type q8_0
echo "ok"
