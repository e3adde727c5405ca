#!/bin/sh
# Every subcommand in `wgc --help` answers --help and `wgc help <cmd>` (exit 0, the same
# "usage: wgc <cmd>" text on stdout) and an unknown option with exit 2 and one line pointing at
# --help; --json outputs parse as JSON; no progress output when stderr is not a terminal
# (run/profile/bench write nothing there on success).
W=$(cd "$(dirname "${BUILD:-build}/wgc")" && pwd)/wgc
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
unset WGC_NO_PROGRESS
cmds=$("$W" --help | sed -n 's/^  \([a-z]*\) .*/\1/p')
[ "$(echo "$cmds" | wc -w)" -ge 8 ] || bad "command list: $cmds"
for c in $cmds; do
  "$W" $c --help >"$T/o" 2>"$T/e"; rc=$?
  [ $rc -eq 0 ] || bad "$c --help: exit $rc"
  head -n 1 "$T/o" | grep -q "^usage: wgc $c" || bad "$c --help: first line '$(head -n 1 "$T/o")'"
  [ -s "$T/e" ] && bad "$c --help wrote to stderr"
  "$W" help $c >"$T/h" 2>"$T/e" && cmp -s "$T/o" "$T/h" || bad "wgc help $c differs from wgc $c --help"
  "$W" $c --no-such-flag >"$T/o" 2>"$T/e"; rc=$?
  [ $rc -eq 2 ] || bad "$c --no-such-flag: exit $rc"
  [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "try wgc $c --help" "$T/e" || bad "$c --no-such-flag: stderr '$(cat "$T/e")'"
done
printf '@compute @workgroup_size(1) fn main() {}\n' >"$T/k.wgsl"
"$W" version --json >"$T/v.json" && "$W" info --json >"$T/i.json" && "$W" check --json "$T/k.wgsl" >"$T/c.json" \
  && "$W" compile --json "$T/k.wgsl" >"$T/r.json" || bad "a --json command failed"
for j in v i c r; do python3 -m json.tool "$T/$j.json" >/dev/null || bad "$j.json is not JSON"; done
printf '@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n@compute @workgroup_size(1) fn main() { v[0] = 1u; }\n' >"$T/r.wgsl"
"$W" profile "$T/r.wgsl" --dispatch 1 --bind 0=zeros:u32:4 --repeat 5 >"$T/o" 2>"$T/e" || bad "profile failed: $(cat "$T/e")"
[ -s "$T/e" ] && bad "profile wrote progress to a non-terminal stderr: $(cat "$T/e")"
"$W" bench runtime --size small --baseline none >"$T/o" 2>"$T/e" || bad "bench failed"
[ -s "$T/e" ] && bad "bench wrote progress to a non-terminal stderr: $(head -n 3 "$T/e")"
exit $fail
