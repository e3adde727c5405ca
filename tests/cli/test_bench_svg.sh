#!/bin/sh
# wgc bench ... --svg FILE: the chart is well-formed XML (python3 xml.etree) with one bar per
# (row, baseline) ratio the JSON report of the same run gives, plus one "vs target" bar per row
# with a target but no baseline figure; target ticks and the parity line are there; an
# unwritable path fails with exit 2.  A fake PyTorch baseline (a script printing known figures)
# makes real ratios on a machine without CUDA.
W=$(cd "$(dirname "${BUILD:-build}/wgc")" && pwd)/wgc
root=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export WGC_NO_PROGRESS=1
cat >"$T/fake_torch" <<'PY'
#!/bin/sh
echo '{"torch": "0.fake", "device": "Fake GPU <&>", "n": 1, "add_GBps": 2.0, "copy_GBps": 3.0, "tiny_eager_us": 1000.0, "tiny_graph_us": 500.0, "sync_us_mean": 4000.0, "sync_us_min": 3000.0, "upload_GBps": 0.5, "readback_GBps": 0.25}'
PY
chmod +x "$T/fake_torch"
cd "$root" || exit 1
WGC_PYTHON="$T/fake_torch" "$W" bench runtime --size small --baseline torch --json --svg "$T/rt.svg" >"$T/rt.json" 2>"$T/err"
rc=$?; [ $rc -eq 0 ] || { bad "bench runtime --svg exit $rc"; cat "$T/err"; }
"$W" bench runtime --size small --baseline none --svg "$T/none.svg" >/dev/null 2>"$T/err" || bad "--baseline none --svg"
python3 - "$T" <<'P' || fail=1
import json, math, sys, xml.etree.ElementTree as ET
t = sys.argv[1]
NS = "{http://www.w3.org/2000/svg}"
def bars(path):
    root = ET.parse(path).getroot()               # raises on malformed XML
    assert root.tag == NS + "svg", root.tag
    return root, [r for r in root.iter(NS + "rect") if r.get("class") == "bar"]
d = json.load(open(t + "/rt.json"))
want, want_target = 0, 0
for row in d["rows"]:
    n = sum(1 for b in row["baselines"].values() if b["ratio"] is not None)
    want += n
    if n == 0 and row["wgc"] is not None and row["target"] is not None:
        want_target += 1
root, got = bars(t + "/rt.svg")
errs = []
if len(got) != want + want_target:
    errs.append("bars: %d, want %d ratio bars + %d target bars" % (len(got), want, want_target))
torch = [b for b in got if b.get("data-baseline") == "torch"]
if len(torch) != want or want < 5:
    errs.append("torch bars %d, ratios in the JSON %d" % (len(torch), want))
rows = {r["key"]: r for r in d["rows"]}
for b in torch:
    ratio = rows[b.get("data-row")]["baselines"]["torch"]["ratio"]
    if not math.isclose(float(b.get("data-ratio")), ratio, rel_tol=1e-4):
        errs.append("bar %s ratio %s, JSON %s" % (b.get("data-row"), b.get("data-ratio"), ratio))
    if float(b.get("width")) <= 0 or b.find(NS + "title") is None:
        errs.append("bar %s: no width or tooltip" % b.get("data-row"))
lines = [l.get("class") for l in root.iter(NS + "line")]
if lines.count("parity") != 1:
    errs.append("parity lines: %d" % lines.count("parity"))
with_target = sum(1 for r in d["rows"] for b in r["baselines"].values() if b["ratio"] is not None and r["target"] is not None)
if lines.count("target") != with_target:
    errs.append("target ticks %d, want %d" % (lines.count("target"), with_target))
_, none = bars(t + "/none.svg")
if not none or any(b.get("data-baseline") != "target" for b in none):
    errs.append("--baseline none: want only 'vs target' bars, got %s" % [b.get("data-baseline") for b in none])
for e in errs:
    print("FAIL:", e)
sys.exit(1 if errs else 0)
P
"$W" bench runtime --size small --baseline none --svg "$T/no/such/dir/x.svg" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || bad "unwritable --svg: exit $rc"
grep -q "cannot write" "$T/err" || bad "unwritable --svg message: $(cat "$T/err")"
exit $fail
