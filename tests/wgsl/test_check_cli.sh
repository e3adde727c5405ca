#!/bin/sh
# test_check_cli.sh - `wgc check`: exit 0 all valid / 1 some invalid / 2 usage or unreadable file,
# text format (file:line:col: error: msg, source line, caret) on stderr with nothing on stdout,
# as tint and naga print them, several files, stdin '-', --json on stdout
# (one parseable document with line/col/offset/length), --help, devices and FIFOs refused,
# the input size limit (--max-size).
W=${BUILD:-build}/wgc
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
printf 'const x = 1;\n' > "$t/ok.wgsl"
printf 'fn f() {\n  let x = 1\n}\n' > "$t/bad.wgsl"

out=$($W check "$t/ok.wgsl" 2>&1); rc=$?
[ $rc -eq 0 ] || no "valid file: exit $rc"
[ -z "$out" ] || no "valid file prints: $out"

$W check "$t/bad.wgsl" >"$t/stdout" 2>"$t/stderr"; rc=$?
out=$(cat "$t/stderr")
[ $rc -eq 1 ] || no "invalid file: exit $rc"
[ -s "$t/stdout" ] && no "invalid file: diagnostics on stdout: $(cat "$t/stdout")"
want="$t/bad.wgsl:3:1: error: expected ';' for variable declaration
}
^"
[ "$out" = "$want" ] || no "text output:
$out
want:
$want"

$W check "$t/ok.wgsl" "$t/bad.wgsl" >/dev/null; rc=$?
[ $rc -eq 1 ] || no "valid+invalid: exit $rc"
$W check "$t/ok.wgsl" "$t/missing.wgsl" >/dev/null 2>"$t/err"; rc=$?
[ $rc -eq 2 ] || no "missing file: exit $rc"
grep -q "cannot read" "$t/err" || no "missing file: no message"
$W check >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || no "no files: exit $rc"
$W check --frob "$t/ok.wgsl" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || no "bad option: exit $rc"
$W check --help | grep -q -- "--json" || no "--help lacks --json"
$W check --help | grep -q -- "--max-size" || no "--help lacks --max-size"

# devices and FIFOs are refused at once with one line; the size limit and --max-size
for dev in /dev/zero /dev/urandom; do
  [ -e $dev ] || continue
  start=$(date +%s)
  timeout 20 $W check $dev >/dev/null 2>"$t/err"; rc=$?
  [ $rc -eq 2 ] || no "$dev: exit $rc"
  [ "$(cat "$t/err")" = "wgc: check: '$dev' is not a regular file" ] || no "$dev: message $(cat "$t/err")"
  [ $(( $(date +%s) - start )) -le 2 ] || no "$dev: slow"
done
if mkfifo "$t/fifo" 2>/dev/null; then
  timeout 20 $W check "$t/fifo" >/dev/null 2>"$t/err"; rc=$?
  [ $rc -eq 2 ] && grep -q "is not a regular file" "$t/err" || no "fifo: exit $rc $(cat "$t/err")"
fi
timeout 20 $W check - </dev/zero >/dev/null 2>"$t/err"; rc=$?
[ $rc -eq 2 ] || no "stdin /dev/zero: exit $rc"
grep -q "'-' is larger than 16777216 bytes" "$t/err" || no "stdin /dev/zero: $(cat "$t/err")"
$W check --max-size 8 "$t/ok.wgsl" >/dev/null 2>"$t/err"; rc=$?
[ $rc -eq 2 ] && grep -q "is larger than 8 bytes" "$t/err" || no "--max-size 8: exit $rc $(cat "$t/err")"
$W check --max-size 1k "$t/ok.wgsl" || no "--max-size 1k: exit $?"
$W check --max-size x "$t/ok.wgsl" >/dev/null 2>&1; [ $? -eq 2 ] || no "--max-size x accepted"

out=$(printf 'const = 1;' | $W check - 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || no "stdin: exit $rc"
echo "$out" | grep -q "^<stdin>:1:7: error: expected identifier for 'const' declaration" || no "stdin output: $out"

$W check --json "$t/ok.wgsl" "$t/bad.wgsl" > "$t/j" 2>"$t/stderr"; rc=$?
[ $rc -eq 1 ] || no "--json: exit $rc"
[ -s "$t/stderr" ] && no "--json: stderr not empty: $(cat "$t/stderr")"
python3 - "$t/j" "$t/bad.wgsl" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False, d
f = d["files"]
assert len(f) == 2 and f[0]["ok"] is True and f[0]["diagnostics"] == [], f
e = f[1]["diagnostics"][0]
assert f[1]["file"] == sys.argv[2]
assert (e["severity"], e["line"], e["col"], e["offset"], e["length"]) == ("error", 3, 1, 21, 1), e
assert e["message"] == "expected ';' for variable declaration", e
PY
exit $fail
